/** Plain HTTP checks for the bench: health, login, "answers 200", first-load asset sizes. */
import { gzipSync } from "node:zlib";

const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING ?? "gzip, deflate, br";

/**
 * What a current desktop browser sends; the load test sends the same, so responses are compressed
 * as for a browser (BENCH_ACCEPT_ENCODING="" measures without compression).
 */
export const browserHeaders: Record<string, string> = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-language": "en-US,en;q=0.9",
  ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
};

export const gzipLevel = 9;

export async function answersOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  await response.arrayBuffer();
  return response.ok;
}

/**
 * Logs in the way a browser does: POST /login as a form, expecting the 302 to /members with the
 * session cookie. Returns the Cookie header value ("rdv_session=...").
 */
export async function logIn(webUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(new URL("/login", webUrl), {
    method: "POST",
    // A browser's form post carries its Origin; web refuses state-changing requests without one (server/request-guard.ts).
    headers: { ...browserHeaders, "content-type": "application/x-www-form-urlencoded", origin: new URL(webUrl).origin },
    body: new URLSearchParams({ email, password }).toString(),
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.text();
  const session = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .find((pair) => /^rdv_session=[^;]+$/.test(pair));
  if (response.status !== 302 || !session) {
    throw new Error(
      `login as ${email} failed: POST /login answered ${response.status}` +
        ` (location: ${response.headers.get("location") ?? "none"}, session cookie: ${session ? "yes" : "no"})\n${body.slice(0, 500)}`,
    );
  }
  // The cookie must identify the member to the api (through web's /api proxy, so on the same site).
  const check = await fetch(new URL("/api/user.php", webUrl), { headers: { cookie: session, accept: "application/json" }, signal: AbortSignal.timeout(5000) });
  const user = (await check.json().catch(() => null)) as { user?: { id?: unknown } | null } | null;
  if (!check.ok || !user?.user) throw new Error(`the session cookie from POST /login is not accepted: GET /api/user.php answered ${check.status} ${JSON.stringify(user)}`);
  return session;
}

/**
 * Fails loudly unless `url` answers 200 (no redirect followed) with the expected content type: a
 * benchmark of a redirect or an error page is worthless.
 */
export async function expect200(url: string, headers: Record<string, string>, contentType: RegExp): Promise<void> {
  const response = await fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  const type = response.headers.get("content-type") ?? "";
  if (response.status !== 200 || !contentType.test(type)) {
    const location = response.headers.get("location");
    throw new Error(
      `${url} must answer 200 ${contentType} before it is measured, but answered ${response.status} (${type || "no content type"})` +
        `${location ? ` redirecting to ${location}` : ""}\n${body.slice(0, 500)}`,
    );
  }
}

export type Sized = { url: string; bytes: number; gzip: number };
export type FirstLoad = {
  page: string;
  html: { bytes: number; gzip: number };
  js: { files: number; bytes: number; gzip: number; list: Sized[] };
  css: { files: number; bytes: number; gzip: number; list: Sized[] };
};

/** The HTML of a page and the same-origin JS and CSS it makes a browser load up front, with gzip sizes. */
export async function firstLoad(pageUrl: string, headers: Record<string, string>): Promise<FirstLoad> {
  const page = new URL(pageUrl);
  const html = await fetchBytes(page.href, { ...headers, "accept-encoding": "identity" });
  const { scripts, styles } = assetUrls(html.toString("utf8"), page);
  const sizeAll = async (urls: string[]) => {
    const list: Sized[] = [];
    for (const url of urls) {
      const bytes = await fetchBytes(url, { "user-agent": headers["user-agent"] ?? "", "accept-encoding": "identity" });
      list.push({ url: new URL(url).pathname, bytes: bytes.length, gzip: gzipSize(bytes) });
    }
    return { files: list.length, bytes: sum(list.map((s) => s.bytes)), gzip: sum(list.map((s) => s.gzip)), list };
  };
  return {
    page: page.pathname,
    html: { bytes: html.length, gzip: gzipSize(html) },
    js: await sizeAll(scripts),
    css: await sizeAll(styles),
  };
}

/** <script src>, <link rel="modulepreload" href> (JS) and <link rel="stylesheet" href> (CSS) on the page's origin, each once. */
export function assetUrls(html: string, page: URL): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const sameOrigin = (value: string | undefined): string | null => {
    if (!value) return null;
    const url = new URL(decodeEntities(value), page);
    return url.origin === page.origin ? url.href : null;
  };
  for (const match of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const tag = (match[1] ?? "").toLowerCase();
    const attributes = parseAttributes(match[2] ?? "");
    if (tag === "script") {
      const src = sameOrigin(attributes.get("src"));
      if (src) scripts.add(src);
      continue;
    }
    const rel = (attributes.get("rel") ?? "").toLowerCase().split(/\s+/);
    const href = sameOrigin(attributes.get("href"));
    if (!href) continue;
    if (rel.includes("modulepreload")) scripts.add(href);
    else if (rel.includes("stylesheet")) styles.add(href);
  }
  return { scripts: [...scripts], styles: [...styles] };
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    const name = (match[1] ?? "").toLowerCase();
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

function decodeEntities(value: string): string {
  return value.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

async function fetchBytes(url: string, headers: Record<string, string>): Promise<Buffer> {
  const response = await fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}, expected 200 (a page links a missing file?)`);
  if (response.headers.get("content-encoding")) throw new Error(`${url} came back ${response.headers.get("content-encoding")}-encoded although identity was asked for`);
  return body;
}

/** Gzip size as the bench counts every asset (level gzipLevel). */
export function gzipSize(bytes: Buffer): number {
  return gzipSync(bytes, { level: gzipLevel }).length;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
