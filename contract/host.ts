/*
 * Which host a request names, checked once at the edge of web and of the api (docs/security.md, "Where
 * requests come in") before anything builds a URL from it or picks a site by it. Plain code, no Node API.
 */

const label = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const octet = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ipv4 = new RegExp(`^${octet}(?:\\.${octet}){3}$`);
/** A last label a URL parser reads as a number, which makes the whole name an IPv4 address. */
const numericLabel = /^(?:\d+|0x[0-9a-f]*)$/;

/**
 * Whether a Host (or X-Forwarded-Host) value is a host name and an optional port: a DNS name (labels
 * of letters, digits, "-" and "_", at most 63 each and 253 in all, an optional final dot), an IPv4
 * address or a bracketed IPv6 address, then `:1`-`:65535`. Nothing else: no user info, spaces,
 * percent signs or other bytes; nothing a URL parser would refuse.
 */
export function isHostHeader(value: string): boolean {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value);
  if (!match) return false;
  const name = match[1]!.toLowerCase();
  const port = match[2];
  if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535)) return false;
  if (!name.startsWith("[")) {
    const bare = name.endsWith(".") ? name.slice(0, -1) : name;
    if (bare.length === 0 || bare.length > 253) return false;
    const labels = bare.split(".");
    if (!labels.every((l) => label.test(l))) return false;
    if (numericLabel.test(labels.at(-1)!) && !ipv4.test(bare)) return false;
  }
  try {
    // The last word: whatever passed must be a host a URL can carry (IPv6 syntax, punycode).
    return new URL(`http://${value}/`).hostname !== "";
  } catch {
    return false;
  }
}

/** The parts of a Node request the edge reads and may rewrite. */
export type EdgeRequest = { url?: string; headers: Record<string, string | string[] | undefined> };

/** Why a request's target or host is refused: the log's reason. */
export type HostRefusal = "bad_request_target" | "bad_host" | "bad_forwarded_host" | "bad_forwarded_proto";

/** A header's first entry: Node joins repeated X-Forwarded-* headers with ", ", and so do proxies in a chain. */
function firstEntry(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(",") : value;
  return joined?.split(",")[0]!.trim();
}

/**
 * Checks a request's target and host headers and puts them in the one shape the rest of the service
 * reads, or says why the request is refused (answer 400):
 * - an absolute-form target (`GET http://host:port/path`, which only proxies are sent) is taken as
 *   RFC 9112 3.2.2 says: its host replaces the Host header and the target becomes `/path`; any other
 *   target that does not start with "/" (`*`, `host:443`, another scheme) is refused;
 * - Host must be a host name with an optional port (isHostHeader);
 * - X-Forwarded-Host and X-Forwarded-Proto count only from a peer `trustsPeer` trusts: from any other
 *   they are removed (nothing below reads a client's claim by mistake), from a trusted one they are
 *   reduced to their first entry, which must be a host name and "http" or "https".
 */
export function normalizeRequestEdge(req: EdgeRequest & { originalUrl?: string }, trustsPeer: boolean): HostRefusal | null {
  const target = req.url ?? "";
  if (!target.startsWith("/")) {
    const absolute = /^https?:\/\/([^/?#]*)([/?][^#]*)?$/i.exec(target);
    if (!absolute) return "bad_request_target";
    req.headers.host = absolute[1];
    const path = absolute[2] ?? "/";
    req.url = path.startsWith("?") ? `/${path}` : path;
    if (req.originalUrl !== undefined) req.originalUrl = req.url;
  }
  const host = req.headers.host;
  if (typeof host !== "string" || !isHostHeader(host)) return "bad_host";

  if (!trustsPeer) {
    delete req.headers["x-forwarded-host"];
    delete req.headers["x-forwarded-proto"];
    return null;
  }
  const forwardedHost = firstEntry(req.headers["x-forwarded-host"]);
  if (forwardedHost !== undefined) {
    if (!isHostHeader(forwardedHost)) return "bad_forwarded_host";
    req.headers["x-forwarded-host"] = forwardedHost;
  }
  const forwardedProto = firstEntry(req.headers["x-forwarded-proto"]);
  if (forwardedProto !== undefined) {
    if (!/^https?$/i.test(forwardedProto)) return "bad_forwarded_proto";
    req.headers["x-forwarded-proto"] = forwardedProto.toLowerCase();
  }
  return null;
}

/**
 * Whether a request target's path (before `?`) is in its one canonical form, the form web's guard, its proxy and the
 * api's router all read alike (docs/security.md, "One canonical path"): no empty segment (`//`), no `.` or `..`
 * segment, no backslash, and no percent-encoded slash, backslash or dot (`%2F`, `%5C`, `%2E`), which a proxy or a
 * router may decode or collapse into another path than the one the guard checked. A trailing slash is allowed:
 * the guard and the routers read `/x/` as `/x`.
 */
export function isCanonicalPath(target: string): boolean {
  const path = target.split("?", 1)[0]!;
  if (/\\|%2f|%5c|%2e/i.test(path)) return false;
  const segments = path.split("/").slice(1);
  return segments.every((segment, i) => (segment === "" ? i === segments.length - 1 : segment !== "." && segment !== ".."));
}

/**
 * Whether an address an admin sets (a cam tile's link template, a photo CDN) stays on the host it names: `https://`, a
 * host name (isHostHeader: no user info, no placeholder, no backslash), then a canonical path and a query. Placeholders
 * (`{name}` of `placeholders`) are allowed only in the path and query, so a tracking value can never choose the host.
 */
export function isHttpsUrlOnItsHost(value: string, placeholders: readonly string[] = []): boolean {
  const parts = /^https:\/\/([^/?#]+)(\/[^?#]*)?(\?[^#]*)?$/.exec(value);
  if (!parts || value.includes("\\") || /\s/.test(value)) return false;
  const host = parts[1]!;
  if (!isHostHeader(host) || !isCanonicalPath(parts[2] ?? "/")) return false;
  const filled = value.replace(/\{(\w+)\}/g, (whole, name: string) => (placeholders.includes(name) ? "x" : whole));
  if (/[{}]/.test(filled)) return false;
  try {
    const url = new URL(filled);
    return url.host === new URL(`https://${host}/`).host && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** A photo CDN prefix: an https address on its host or a canonical path on this site, either ending in `/`. */
export function isCdnPrefix(value: string): boolean {
  if (!value.endsWith("/") || /\s/.test(value)) return false;
  return value.startsWith("https://") ? isHttpsUrlOnItsHost(value) : value.startsWith("/") && isCanonicalPath(value);
}
