import { lookup } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/*
 * Which push subscription endpoints the api talks to (docs/security.md "Web push"). A browser's
 * PushSubscription names its push service (FCM, Mozilla, Apple, Microsoft): always https on port 443 at a
 * public host. Anything else (a loopback, private, link-local, CGNAT, multicast or reserved address, in
 * any spelling; another port; credentials) would make the push worker a way into the network it runs in.
 * Checked when a member subscribes, again before every send, and once more by the sending agent's own
 * DNS lookup at connect time, so a name that later resolves elsewhere (DNS rebinding) is refused too.
 */

/** Why an endpoint is refused. `unresolved`: its name has no address (now). */
export type EndpointRefusal = "not_url" | "not_https" | "credentials" | "port" | "not_public" | "unresolved";

export type PushEndpointPolicy = {
  /** All addresses of a host name; default: the system resolver (getaddrinfo, as the connection itself uses). */
  resolve?: (hostname: string) => Promise<string[]>;
  /**
   * Origins taken without the address and port checks: only a test's own push service on loopback. Code
   * passes it (tests/api/harness.ts); no configuration or environment variable can.
   */
  trustedOrigins?: readonly string[];
};

/** A globally routable unicast address: IPv4 outside every special range, IPv6 in 2000::/3 outside them (IPv4-mapped as IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (ip.kind() === "ipv4") return ip.range() === "unicast";
  return ip.range() === "unicast" && ip.match(ipaddr.parseCIDR("2000::/3"));
}

const systemResolve = (hostname: string): Promise<string[]> =>
  new Promise((resolve, reject) => lookup(hostname, { all: true, verbatim: true }, (error, found) => (error ? reject(error) : resolve(found.map((a) => a.address)))));

/** The host of a URL as an address when it is an IP literal (WHATWG has normalised 2130706433, 0x7f.1 and [::ffff:127.0.0.1] already). */
function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

/**
 * The checks that need no DNS: https, no credentials, the default port, and an IP literal only when public.
 * Returns the host name still to resolve, or the refusal. (The sender connects to the URL as serialised
 * here, so no other parser reads another host out of the stored string.)
 */
export function endpointShape(endpoint: string, policy: PushEndpointPolicy = {}): { refused: EndpointRefusal } | { hostname: string | null } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { refused: "not_url" };
  }
  if (url.protocol !== "https:") return { refused: "not_https" };
  if (url.username || url.password) return { refused: "credentials" };
  if (policy.trustedOrigins?.includes(url.origin)) return { hostname: null };
  if (url.port !== "") return { refused: "port" };
  const literal = literalAddress(url.hostname);
  if (literal !== null) return isPublicAddress(literal) ? { hostname: null } : { refused: "not_public" };
  // Names for this machine (RFC 6761), also written as absolute names: never a push service, whatever a resolver says.
  const name = url.hostname.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return { refused: "not_public" };
  return { hostname: url.hostname };
}

/** Whether the api may send to `endpoint` now: the shape, then every address its host resolves to. Null: yes. */
export async function pushEndpointRefusal(endpoint: string, policy: PushEndpointPolicy = {}): Promise<EndpointRefusal | null> {
  const shape = endpointShape(endpoint, policy);
  if ("refused" in shape) return shape.refused;
  if (shape.hostname === null) return null;
  let addresses: string[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(shape.hostname);
  } catch {
    return "unresolved";
  }
  if (addresses.length === 0) return "unresolved";
  return addresses.every(isPublicAddress) ? null : "not_public";
}

/**
 * A `lookup` for the sending agent: the system resolver, failing the connection when any address of the
 * name is not public (a name that changed its answer since the check before the send).
 */
export function publicOnlyLookup(policy: PushEndpointPolicy = {}): LookupFunction {
  const trustedHosts = new Set((policy.trustedOrigins ?? []).map((origin) => new URL(origin).hostname));
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, "", 0);
      if (!trustedHosts.has(hostname) && (found.length === 0 || !found.every((a) => isPublicAddress(a.address)))) {
        const refused = Object.assign(new Error(`push endpoint host resolves to a non-public address`), { code: "ENOTPUBLIC" });
        return callback(refused, "", 0);
      }
      if (options.all) return callback(null, found);
      const [first] = found;
      callback(null, first!.address, first!.family);
    });
  };
}
