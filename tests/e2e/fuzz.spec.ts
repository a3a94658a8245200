import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { expect, projectRoot, test } from "./fixtures";
import { mailLink, newAccountDetails, signUp } from "./accounts-support";
import { bodyLimits } from "../../server/request-guard";
import { hostileHosts, hostileTargets, rawRequest } from "../raw-http";
import { stackTraceLines } from "./server-log";

/**
 * Fuzzing, web side (docs/security.md, How it is tested): every page route with an action (read from the route manifest of the
 * production build the test server runs, so a route added later is covered without editing this
 * file) gets a battery of hostile form posts, and every page path hostile query values. Every answer
 * must be below 500. The stricter answers of the same-origin and body-size guard (403, 413) are a
 * test of their own below. Runs once (project "js"); it needs no browser page.
 */

type ManifestRoute = { id: string; path?: string; index?: boolean; parentId?: string; module: { action?: unknown; loader?: unknown } };
type PageRoute = { id: string; pattern: string; index: boolean; hasAction: boolean };

async function pageRoutes(): Promise<PageRoute[]> {
  const build = (await import(pathToFileURL(path.join(projectRoot, "build/server/index.js")).href)) as { routes: Record<string, ManifestRoute> };
  const routes = build.routes;
  const fullPath = (route: ManifestRoute): string => {
    const parts: string[] = [];
    for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
    return `/${parts.join("/")}`.replace(/\/+/g, "/");
  };
  return Object.values(routes)
    .filter((r) => r.id !== "root")
    .map((r) => ({ id: r.id, pattern: fullPath(r), index: Boolean(r.index), hasAction: typeof r.module.action === "function" }));
}

/**
 * Sample values for route params; an unknown param gets "1". Each path without and with a locale prefix ("/nl"), which
 * a request handler of its own serves (server/locale-handlers.ts).
 */
function concretePaths(pattern: string, samples: Record<string, string>): [string, string] {
  const path = pattern.replace(/:(\w+)\??/g, (_, name: string) => samples[name] ?? "1").replace(/\*/g, "no-such-page");
  return [path, path === "/" ? "/nl" : `/nl${path}`];
}

const formFields = ["email", "password", "old_password", "name", "id", "token", "intent", "_action", "redirectTo", "page", "country", "region", "city", "interests", "key", "decision", "game", "language", "reason", "date_of_birth", "gender", "about_me", "photo"];

const hostile: [string, string][] = [
  ["NUL", "\u0000"],
  ["NUL inside", "fuzz\u0000value@example.com"],
  ["control characters", "a\u0001\u0008\u001b[2J\r\n\t\u007fz"],
  ["5000 characters", "x".repeat(5000)],
  ["2^31", "2147483648"],
  ["-1", "-1"],
  ["1e400", "1e400"],
  ["NaN", "NaN"],
  ["lone surrogate", "a\ud800b"],
  ["RTL and zero width", "abc\u202edef\u200b\ufeff"],
  ["emoji ZWJ", "👩‍❤️‍💋‍👨"],
  ["full width", "ｆｕｚｚ＠ｅｘａｍｐｌｅ．ｃｏｍ"],
  ["SQL", "' OR 1=1; --"],
  ["empty", ""],
  ["foreign redirect", "https://evil.example/x"],
];
const visitorHostile = new Set(["NUL inside", "5000 characters", "2^31", "lone surrogate", "foreign redirect"]);

const hostileQuery: [string, string][] = [
  ["%00", "%00"],
  ["control characters", "%01%08%1B%7F%0D%0A"],
  ["5000 characters", "x".repeat(5000)],
  ["2^31", "2147483648"],
  ["-1", "-1"],
  ["1e400", "1e400"],
  ["invalid UTF-8", "%FF%FE"],
  ["broken escape", "%E0%A4%A"],
];
const queryKeys = ["page", "id", "redirectTo", "token", "email", "country", "region", "gender", "min_age", "max_age", "t", "network", "ref", "sub1", "lang", "type", "game", "match", "reset", "step", "index", "_data"];
const hostileParams = ["%00", "2147483648", "-1", "1e400", "x".repeat(2000), "%FF", "..%2F..%2Fetc%2Fpasswd"];

/** encodeURIComponent, except that a lone surrogate goes out as the bytes of one (%ED%A0%80: not UTF-8 a decoder accepts). */
const encodeValue = (value: string) =>
  value
    .split(/([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/)
    .map((part, i) => (i % 2 ? "%ED%A0%80" : encodeURIComponent(part)))
    .join("");
const encode = (fields: [string, string][]) => fields.map(([k, v]) => `${encodeValue(k)}=${encodeValue(v)}`).join("&");

type Sent = { who: string; method: string; url: string; label: string; status: number; requestId: string };

/** A member of the test's own (never a demo account: those must not get wrong passwords or changes). */
/** Secrets the fuzz member has (password, e-mail, session cookie): none may appear in the servers' log. */
const memberSecrets: string[] = [];

async function newMember(baseURL: string): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL, "Sec-Fetch-Site": "same-origin" } });
  const account = await signUp(context, newAccountDetails());
  expect((await context.get(await mailLink(account.email, "activation"), { maxRedirects: 0 })).status()).toBeLessThan(500);
  const cookies = (await context.storageState()).cookies.filter((c) => c.name === "rdv_session").map((c) => c.value);
  memberSecrets.push(account.password, account.email, ...cookies);
  return context;
}

/**
 * The test server's log (web and api, warn and up: every refusal and error the fuzz caused), which
 * playwright.config.ts tees into the run's data directory. Lines with a secret of the fuzz member,
 * any e-mail address or a password hash.
 */
function leakingServerLogLines(): string[] {
  const file = path.join(process.env.E2E_DATA_DIR ?? "", "server.log");
  if (!existsSync(file)) throw new Error(`no server log at ${file}`);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => memberSecrets.some((secret) => line.includes(secret)) || /scrypt\$|[\w.+-]+@[\w-]+(\.[\w-]+)+/.test(line));
}

test.describe("web fuzz", () => {
  // Not serial: a failure in one test must not hide the others' findings (each worker gets its own member).
  let visitor: APIRequestContext;
  let member: APIRequestContext;
  /** The member's cookies, without the Origin and Sec-Fetch-Site headers the other contexts send. */
  let bare: APIRequestContext;
  let routes: PageRoute[] = [];
  let samples: Record<string, string> = {};
  let origin = "";

  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(60_000);
    origin = baseURL ?? "http://localhost:4100";
    routes = await pageRoutes();
    visitor = await playwrightRequest.newContext({ baseURL: origin, extraHTTPHeaders: { Origin: origin, "Sec-Fetch-Site": "same-origin" } });
    member = await newMember(origin);
    const members = (await (await member.get("/api/members.php")).json()) as { results?: { id: number }[] };
    bare = await playwrightRequest.newContext({ baseURL: origin, storageState: await member.storageState() });
    samples = { id: String(members.results?.[0]?.id ?? 1), type: "received", step: "3", page: "terms" };
  });

  test.afterAll(async () => {
    // Cleanup only: a shared checkout's other runs may have removed test-results/ (and these contexts' trace files) meanwhile.
    for (const context of [visitor, member, bare]) await context?.dispose().catch(() => undefined);
  });

  /** Each test's requests still in flight, and how many it lets out at once (one unless it said otherwise: sentList(n)). */
  const inFlight = new WeakMap<Sent[], { running: Set<Promise<void>>; atOnce: number }>();
  /**
   * A list of answers for a test whose requests go out `atOnce` at a time. The action routes' posts, one after the
   * other, spent most of their time waiting on each round trip (68 s alone, 36-47 s four at a time); the pages' GETs
   * did not gain (a few of them then waited 5 s at the client, on refusals the server answered in under 20 ms with
   * `Connection: close`), so they stay one at a time.
   * `await send(...)` returns once the request is on its way; answered() waits for them all.
   */
  const sentList = (atOnce: number): Sent[] => {
    const sent: Sent[] = [];
    inFlight.set(sent, { running: new Set(), atOnce });
    return sent;
  };

  async function send(sent: Sent[], who: string, context: APIRequestContext, method: string, url: string, label: string, options: { headers?: Record<string, string>; data?: string | Buffer; multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> } = {}): Promise<void> {
    let pool = inFlight.get(sent);
    if (!pool) inFlight.set(sent, (pool = { running: new Set(), atOnce: 1 }));
    const { running, atOnce } = pool;
    while (running.size >= atOnce) await Promise.race(running);
    const request = (async () => {
      let response: APIResponse;
      try {
        response = await context.fetch(url, { method, headers: options.headers, data: options.data, multipart: options.multipart, maxRedirects: 0, timeout: 30_000, failOnStatusCode: false });
      } catch (error) {
        sent.push({ who, method, url, label, status: 0, requestId: `no answer: ${(error as Error).message.split("\n")[0]}` });
        return;
      }
      sent.push({ who, method, url, label, status: response.status(), requestId: response.headers()["x-request-id"] ?? "" });
      await response.dispose();
    })().finally(() => running.delete(request));
    running.add(request);
  }

  /** The test's answers, once every request it sent has one. */
  async function answered(sent: Sent[]): Promise<Sent[]> {
    await Promise.all(inFlight.get(sent)?.running ?? []);
    return sent;
  }

  function failuresOf(sent: Sent[], wrong: (s: Sent) => boolean): string[] {
    return sent.filter(wrong).map((s) => `${s.method} ${s.url.slice(0, 160)} [${s.who}] ${s.label} -> ${s.status || "no answer"} (request id ${s.requestId})`);
  }

  test("every action route answers hostile form posts below 500", async () => {
    test.setTimeout(300_000);
    const started = Date.now();
    const sent = sentList(4);
    const actionRoutes = routes.filter((r) => r.hasAction);
    expect(actionRoutes.length, "no action routes found in build/server/index.js").toBeGreaterThan(10);

    for (const route of actionRoutes) {
      const [pathname, localized] = concretePaths(route.pattern, samples);
      await send(sent, "member", member, "POST", route.index ? `${localized}?index` : localized, "localized path, every field NUL", { headers: { "Content-Type": "application/x-www-form-urlencoded" }, data: encode(formFields.map((f) => [f, "\u0000"])) });
      {
        const url = route.index ? `${pathname}?index` : pathname;
        // Field names of the page's own form(s) as a member and as a visitor sees it, beside the common ones.
        const harvested: string[] = [];
        for (const context of [member, visitor]) {
          const page = await context.get(pathname, { maxRedirects: 0 });
          harvested.push(...[...(await page.text()).matchAll(/<(?:input|select|textarea|button)\b[^>]*\bname="([^"]{1,60})"/g)].map((m) => m[1]!));
          await page.dispose();
        }
        const fields = [...new Set([...harvested, ...formFields])];
        const form = { "Content-Type": "application/x-www-form-urlencoded" };

        for (const [label, value] of hostile) {
          const body = encode(fields.map((f) => [f, value]));
          await send(sent, "member", member, "POST", url, `form: every field = ${label}`, { headers: form, data: body });
          if (visitorHostile.has(label)) await send(sent, "visitor", visitor, "POST", url, `form: every field = ${label}`, { headers: form, data: body });
        }
        // The page's own fields one at a time, the others empty.
        for (const name of new Set(harvested)) {
          for (const [label, value] of hostile.filter(([l]) => ["NUL inside", "5000 characters", "2^31", "lone surrogate"].includes(l))) {
            await send(sent, "member", member, "POST", url, `form: ${name} = ${label}`, { headers: form, data: encode([[name, value]]) });
          }
        }
        const arrays = fields.map((f) => `${encodeURIComponent(f)}=1&${encodeURIComponent(f)}=x&${encodeURIComponent(f)}[]=y&${encodeURIComponent(f)}[a]=z`).join("&");
        await send(sent, "member", member, "POST", url, "form: repeated and bracketed keys", { headers: form, data: arrays });
        await send(sent, "member", member, "POST", url, "form: broken escapes", { headers: form, data: "email=%E0%A4%A&password=%&%%%=1&=&&" });
        await send(sent, "member", member, "POST", url, "empty form", { headers: form, data: "" });
        // Wrong content types.
        await send(sent, "member", member, "POST", url, "text/plain", { headers: { "Content-Type": "text/plain" }, data: encode(fields.map((f) => [f, "x"])) });
        await send(sent, "member", member, "POST", url, "application/json", { headers: { "Content-Type": "application/json" }, data: JSON.stringify(Object.fromEntries(fields.map((f) => [f, ["x", { a: 1 }]]))) });
        await send(sent, "visitor", visitor, "POST", url, "application/json", { headers: { "Content-Type": "application/json" }, data: "{" });
        await send(sent, "member", member, "POST", url, "multipart garbage", { headers: { "Content-Type": "multipart/form-data; boundary=zzz" }, data: '--zzz\r\nContent-Disposition: form-data; name="photo"; filename="../x.jpg"\r\n\r\n\u0000garbage' });
        await send(sent, "member", member, "POST", url, "multipart without boundary", { headers: { "Content-Type": "multipart/form-data" }, data: "garbage" });
        await send(sent, "member", member, "POST", url, "multipart with hostile fields and a garbage photo", {
          multipart: { ...Object.fromEntries(fields.filter((f) => f !== "photo").map((f) => [f, "\u0000"])), photo: { name: "../../\u0000.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a jpeg") } },
        });
        await send(sent, "member", member, "POST", url, "no content type", { data: "email=x" });
        // Origin variants (stricter expectations in the test below).
        await send(sent, "member", member, "POST", url, "foreign Origin", { headers: { ...form, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, data: "email=x" });
        await send(sent, "visitor", visitor, "POST", url, "Origin null", { headers: { ...form, Origin: "null", "Sec-Fetch-Site": "cross-site" }, data: "email=x" });
        await send(sent, "member", bare, "POST", url, "missing Origin", { headers: form, data: "email=x" });
        // Remix's data requests: legacy ?_data= and single fetch's .data.
        const sep = url.includes("?") ? "&" : "?";
        await send(sent, "member", member, "POST", `${url}${sep}_data=${encodeURIComponent(route.id)}`, "?_data=", { headers: form, data: "email=%00" });
        await send(sent, "member", member, "POST", `${url}${sep}_data=%00`, "?_data=%00", { headers: form, data: "email=%00" });
        await send(sent, "member", member, "POST", `${pathname === "/" ? "/_root" : pathname}.data${route.index ? "?index" : ""}`, ".data", { headers: form, data: "email=%00" });
        await send(sent, "member", member, "POST", `${pathname}${pathname.includes("?") ? "&" : "?"}index`, "?index on a non-index route", { headers: form, data: "email=%00" });
        await send(sent, "member", member, "POST", url, "form over 64 KB", { headers: form, data: `name=${"x".repeat(70 * 1024)}` });
      }
    }
    await answered(sent);
    console.log(`web fuzz (actions): ${sent.length} requests to ${actionRoutes.length} action routes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const failures = failuresOf(sent, (s) => s.status === 0 || s.status >= 500);
    expect(failures.length, `5xx answers (method, path, input):\n${failures.join("\n")}`).toBe(0);
    const leaks = leakingServerLogLines();
    expect(leaks, `log lines with a secret:\n${leaks.slice(0, 5).join("\n")}`).toEqual([]);
  });

  test("every page answers hostile query values and path params below 500", async () => {
    test.setTimeout(300_000);
    const started = Date.now();
    const sent: Sent[] = [];
    for (const route of routes) {
      const [plain, localized] = concretePaths(route.pattern, samples);
      // The same route answers both; under the prefix, two of the values show that its handler reads the query alike.
      for (const [pathname, values] of [[plain, hostileQuery], [localized, hostileQuery.filter(([label]) => label === "invalid UTF-8" || label === "control characters")]] as const) {
        for (const [label, value] of values) {
          const url = `${pathname}?${queryKeys.map((k) => `${k}=${value}`).join("&")}`;
          await send(sent, "member", member, "GET", url, `query: every key = ${label}`);
          await send(sent, "visitor", visitor, "GET", url, `query: every key = ${label}`);
        }
        await send(sent, "member", member, "GET", `${pathname}?${queryKeys.map((k) => `${k}[]=1&${k}[a]=2&${k}=3`).join("&")}`, "query: arrays and objects");
      }
      // Hostile values in each path param.
      for (const name of [...route.pattern.matchAll(/:(\w+)(?!\?)/g)].map((m) => m[1]!)) {
        for (const value of hostileParams) {
          const [pathname] = concretePaths(route.pattern, { ...samples, [name]: value });
          await send(sent, "member", member, "GET", pathname, `path param ${name} = ${value.slice(0, 20)}`);
          await send(sent, "visitor", visitor, "GET", pathname, `path param ${name} = ${value.slice(0, 20)}`);
        }
      }
      for (const lang of ["%00", "xx", "x".repeat(300), "..", "%FF"]) await send(sent, "visitor", visitor, "GET", localized.replace(/^\/nl/, `/${lang}`), `lang = ${lang.slice(0, 20)}`);
    }
    await answered(sent);
    console.log(`web fuzz (pages): ${sent.length} requests to ${routes.length} routes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const failures = failuresOf(sent, (s) => s.status === 0 || s.status >= 500);
    expect(failures.length, `5xx answers (method, path, input):\n${failures.join("\n")}`).toBe(0);
  });

  test("same-origin and body-size guard: foreign Origin is refused with 403 and a form over 64 KB with 413 on every action route", async () => {
    test.setTimeout(120_000);
    const sent = sentList(4);
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    for (const route of routes.filter((r) => r.hasAction)) {
      for (const pathname of concretePaths(route.pattern, samples)) {
        const url = route.index ? `${pathname}?index` : pathname;
        await send(sent, "member", member, "POST", url, "foreign Origin", { headers: { ...form, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, data: "email=x" });
        await send(sent, "visitor", visitor, "POST", url, "foreign Origin", { headers: { ...form, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, data: "email=x" });
        // A page whose form uploads a photo takes a larger body (server/request-guard.ts bodyLimits); over that is refused too.
        const page = await member.get(pathname, { maxRedirects: 0 });
        const upload = (await page.text()).includes("multipart/form-data");
        await page.dispose();
        const over = (upload ? bodyLimits.uploadBytes : bodyLimits.formBytes) + 1024;
        await send(sent, "member", member, "POST", url, "form over 64 KB", { headers: form, data: `name=${"x".repeat(over)}` });
      }
    }
    const wrong = failuresOf(await answered(sent), (s) => (s.label === "foreign Origin" ? s.status !== 403 : s.status !== 413));
    expect(wrong.length, `answers other than 403 (foreign Origin) or 413 (over 64 KB):\n${wrong.join("\n")}`).toBe(0);
  });

  /**
   * The guard compared the exact path while the proxy collapsed `//`: `GET /api//logout.php` from anywhere ended the
   * session. Every state-changing path (each action route's POST, the api GETs that write) is sent also with `//`,
   * `/./`, `%2F` and a trailing slash, cross-site and with neither Origin nor Sec-Fetch-Site: each variant is refused
   * with 403 as the canonical path is (server/request-guard.ts canonicalPathGuard). Raw sockets: a URL parser would
   * resolve `/./` before sending.
   */
  test("non-canonical variants of every state-changing path are refused cross-site like the path itself", async ({ baseURL }) => {
    test.setTimeout(120_000);
    const port = Number(new URL(baseURL ?? "").port);
    const targets: { method: string; path: string; query: string }[] = [
      { method: "GET", path: "/api/logout.php", query: "" },
      { method: "GET", path: "/api/auto-like.php", query: "" },
      { method: "HEAD", path: "/api/logout.php", query: "" },
    ];
    for (const route of routes.filter((r) => r.hasAction)) for (const pathname of concretePaths(route.pattern, samples)) targets.push({ method: "POST", path: pathname, query: route.index ? "?index" : "" });
    const variantsOf = (path: string): [string, string][] => {
      const cut = path.lastIndexOf("/");
      const [prefix, tail] = [path.slice(0, cut), path.slice(cut + 1)];
      return [
        ["canonical", path],
        ["//", `${prefix}//${tail}`],
        ["/./", `${prefix}/./${tail}`],
        ["%2F", prefix ? `${prefix}%2F${tail}` : `/%2F${tail}`],
        ["trailing slash", `${path}/`],
      ];
    };
    const wrong: string[] = [];
    let count = 0;
    for (const { method, path, query } of targets) {
      for (const [label, variant] of variantsOf(path)) {
        for (const [who, headers] of [["cross-site", [["Origin", "https://evil.example"], ["Sec-Fetch-Site", "cross-site"]]], ["no headers", []]] as [string, [string, string][]][]) {
          count++;
          const body = method === "POST" ? Buffer.from("email=x") : undefined;
          const form: [string, string][] = body ? [["Content-Type", "application/x-www-form-urlencoded"], ["Content-Length", String(body.length)]] : [];
          const res = await rawRequest({ port, requestLine: `${method} ${variant}${query} HTTP/1.1`, headers: [["Host", `localhost:${port}`], ...headers, ...form], body });
          if (res.status !== 403) wrong.push(`${method} ${variant}${query} [${label}, ${who}] -> ${res.status || `no answer (${res.error})`}`);
        }
      }
    }
    console.log(`web fuzz (canonical paths): ${count} requests`);
    expect(wrong, "answers other than 403").toEqual([]);
  });

  /**
   * Hostile Host headers (docs/security.md, Where requests come in): a Host of `a%00b`, `a b`, `[zz]`, `:99999`, `a@b` or 300 characters, an
   * absolute request line, a post whose X-Forwarded-Host is not its Origin's host gave 500 ("Invalid
   * URL") or 503, with Express's stack traces on stderr. Now every page and api path answers 400
   * (contract/host.ts, server/edge.ts), an absolute-form target is read as its path, and nothing is
   * printed outside the JSON logger. Raw sockets: fetch and Playwright cannot send these.
   */
  test("hostile Host and X-Forwarded-Host headers and request targets: 400 on every page and api path, never 5xx, no stack trace in the log", async ({ baseURL }) => {
    test.setTimeout(300_000);
    const port = Number(new URL(baseURL ?? "").port);
    const host = `localhost:${port}`;
    const wrong: string[] = [];
    let sentCount = 0;
    const check = async (label: string, requestLine: string, headers: [string, string][], expected: (status: number) => boolean, body?: string): Promise<number> => {
      sentCount++;
      const withBody: [string, string][] = body === undefined ? headers : [...headers, ["Content-Type", "application/x-www-form-urlencoded"], ["Content-Length", String(Buffer.byteLength(body))]];
      const res = await rawRequest({ port, requestLine, headers: withBody, body: body === undefined ? undefined : Buffer.from(body) });
      if (!expected(res.status)) wrong.push(`${requestLine.slice(0, 160)} [${label}] -> ${res.status || `no answer (${res.error})`}`);
      return res.status;
    };
    const is400 = (status: number) => status === 400;
    const sameSite: [string, string][] = [["Origin", `http://${host}`], ["Sec-Fetch-Site", "same-origin"]];

    const targets: { method: string; path: string }[] = [];
    for (const route of routes) for (const pathname of concretePaths(route.pattern, samples)) {
      targets.push({ method: "GET", path: pathname });
      if (route.hasAction) targets.push({ method: "POST", path: route.index ? `${pathname}?index` : pathname });
    }
    for (const path of ["/api/settings.php", "/api/user.php", "/api/members.php", "/uploads/demo/x.jpg"]) targets.push({ method: "GET", path });
    for (const path of ["/api/message.php", "/api/user.php", "/api/mail-events.php"]) targets.push({ method: "POST", path });

    for (const { method, path } of targets) {
      const body = method === "POST" ? "email=x" : undefined;
      const line = `${method} ${path} HTTP/1.1`;
      for (const [label, value] of hostileHosts) await check(`Host: ${label}`, line, [["Host", value], ...sameSite], is400, body);
      // Trusted here (TRUST_PROXY=loopback), so checked like Host; a proxy chain's list is read by its first entry.
      for (const [label, value] of hostileHosts.filter(([l]) => l !== "a list")) await check(`X-Forwarded-Host: ${label}`, line, [["Host", host], ["X-Forwarded-Host", value], ...sameSite], is400, body);
      // Absolute-form: the path on the host it names, answered as the origin-form request is.
      const plain = await check("origin-form", line, [["Host", host], ...sameSite], (status) => status > 0 && status < 500, body);
      await check("absolute-form", `${method} http://${host}${path} HTTP/1.1`, [["Host", "evil.example"], ...sameSite], (status) => status === plain, body);
      // A post whose (trusted) forwarded host is not its Origin's: another site's form, refused.
      if (method === "POST" && !path.startsWith("/api/mail-events")) await check("X-Forwarded-Host other than Origin", line, [["Host", host], ["X-Forwarded-Host", "other.example"], ...sameSite], (status) => status === 403, body);
    }
    for (const [label, target] of hostileTargets) await check(label, `GET ${target} HTTP/1.1`, [["Host", host]], is400);
    console.log(`web fuzz (hosts): ${sentCount} requests to ${targets.length} paths`);
    expect(wrong, "answers other than 400 (hostile host or target), the origin-form's status (absolute-form) or 403 (foreign forwarded host)").toEqual([]);
    const traces = stackTraceLines();
    expect(traces, `stack traces outside the JSON logger:\n${traces.slice(0, 10).join("\n")}`).toEqual([]);
  });
});
