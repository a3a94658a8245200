import { connect } from "node:net";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { signUp } from "./accounts-support";
import { serverLogLines } from "./server-log";
import { accounts, expect, expectPath, login, sameOrigin, test } from "./fixtures";

/**
 * What server/request-guard.ts and its neighbours give every route: same-origin posts only, small
 * form bodies, forms sent as forms, safe redirects, member pages not cached, data answers that are
 * never documents. Request-level checks run once (js project); the logout flow runs with and without JS.
 */
const foreign = { Origin: "https://evil.example" };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formType = { "Content-Type": "application/x-www-form-urlencoded" };

async function post(request: APIRequestContext, path: string, headers: Record<string, string>, body: string) {
  return request.post(path, { headers, data: body, maxRedirects: 0 });
}

test.describe("requests refused before any route reads them", () => {

  test("a post from another site gets 403 and the translated error page, and changes nothing", async ({ page }) => {
    await login(page, accounts.free);
    for (const path of ["/logout", "/dismiss", "/site-entry", "/activation-mail", "/members/1/like", "/lang-config", "/profile?_data=routes/profile", "/nl/logout"]) {
      const res = await post(page.request, path, { ...foreign, ...formType }, form({ intent: "like", key: "hide-enrich-alert", redirectTo: "/" }));
      expect(res.status(), path).toBe(403);
      const html = await res.text();
      expect(html, path).toContain(path.startsWith("/nl/") ? "Dit formulier is niet via deze site verstuurd" : "This form was not sent from this site");
    }
    // No Origin and no Sec-Fetch-Site (not a browser on this site): refused as well.
    expect((await post(page.request, "/logout", formType, "")).status()).toBe(403);
    // Still logged in: the refused logouts did nothing.
    await page.goto("/members");
    await expect(page.getByTestId("account-menu")).toBeVisible();
  });

  test("a post to the api proxy from another site gets 403 in the api's error shape", async ({ request }) => {
    const res = await request.post("/api/signup.php", { headers: foreign, data: { email: "x@example.com" } });
    expect(res.status()).toBe(403);
    expect(await res.json()).toMatchObject({ error: "cross_site_request" });
  });

  test("a form body over 64 KB gets 413 and the connection closes", async ({ request }) => {
    const res = await post(request, "/login", { ...sameOrigin, ...formType }, form({ email: "a@example.com", password: "p".repeat(70_000) }));
    expect(res.status()).toBe(413);
    expect(res.headers()["connection"]).toBe("close");
    expect(await res.text()).toContain("This request is too large.");
  });

  /**
   * A client that writes its whole body before it reads (Playwright's, node's own) may not have sent it yet when web
   * refuses the request from its headers. The answer and its FIN then came first, and node's client failed the rest
   * of its write with EPIPE instead of reading the 413 (the web fuzz test's flake of 2026-12-04, a form just over
   * 64 KB). web now reads a refused body of up to 256 KB before it answers (server/edge.ts answerAfterSmallBody).
   * Here the client sends the headers, waits until web has logged the refusal (an answer from the headers alone
   * would be on its way then), and only then sends the body.
   */
  test("a refused form body just over the limit is read before the answer, so a client still sending gets its 413", async ({ baseURL }) => {
    const port = Number(new URL(baseURL!).port);
    const body = Buffer.from(form({ email: "a@example.com", password: "p".repeat(70_000) }));
    const socket = connect({ host: "127.0.0.1", port });
    const received: Buffer[] = [];
    let error: string | null = null;
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    const requestId = `refused-body-${Date.now()}`;
    socket.write(
      [`POST /login HTTP/1.1`, `Host: localhost:${port}`, `Origin: ${baseURL}`, `X-Request-Id: ${requestId}`, `Content-Type: ${formType["Content-Type"]}`, `Content-Length: ${body.length}`, "", ""].join("\r\n"),
    );
    await expect.poll(() => serverLogLines().some((line) => line.includes(requestId) && line.includes("request refused")), { message: "web's refusal in its log" }).toBe(true);
    expect(received, "no answer before the body").toEqual([]);
    socket.write(body);
    await closed;
    expect(error, "the body's write failed").toBeNull();
    expect(Buffer.concat(received).toString("latin1")).toMatch(/^HTTP\/1\.1 413 /);
  });

  test("a body that is not a form gets 415; a broken multipart form 400; never 500", async ({ request }) => {
    const plain = await post(request, "/login", { ...sameOrigin, "Content-Type": "text/plain" }, "email=a@example.com");
    expect(plain.status()).toBe(415);
    const json = await post(request, "/login", { ...sameOrigin, "Content-Type": "application/json" }, JSON.stringify({ email: "a@example.com" }));
    expect(json.status()).toBe(415);
    expect(await json.text()).toContain("This form was sent in a format we cannot read.");
    const broken = await post(request, "/login", { ...sameOrigin, "Content-Type": "multipart/form-data; boundary=xyz" }, "garbage without parts");
    expect(broken.status()).toBe(400);
  });

  test("Remix's old ?_data requests get 400, not the 500 Remix gives some of them", async ({ request }) => {
    const get = await request.get("/login?_data=routes/login");
    expect(get.status()).toBe(400);
    expect((await request.get("/%FF/signup-matches")).status()).toBe(400);
    // The refusal page exists only for refused requests: opened directly it is an unknown page.
    expect((await request.get("/refused")).status()).toBe(404);
    const posted = await post(request, "/login?_data=routes/login", { ...sameOrigin, ...formType }, form({ email: "a@example.com", password: "x" }));
    expect(posted.status()).toBe(400);
    expect(await posted.text()).toContain("This request could not be read.");
  });

  test("redirectTo never leaves the site, whatever it hides, on every route that takes one and through a real login", async ({ baseURL }) => {
    // Two logins and a signup, each a password hash: a loaded machine needs more than the default 45 s.
    test.setTimeout(120_000);
    // A member of its own: a real login, a dismissal and an unblock change nothing another test reads.
    const member = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: sameOrigin });
    const account = await signUp(member);
    const other = ((await (await member.get("/api/members.php")).json()) as { results: { id: number }[] }).results[0]!.id;
    const hostile = [
      "/\t/evil.example/", "//evil.example/", "/\\evil.example", "/members\r\nSet-Cookie: x=1", "https://evil.example/",
      // Dot segments the URL parser resolves to //evil.example/ (an open redirect through dot segments, docs/security.md).
      "/.//evil.example/", "/%2e//evil.example/", "/%2E//evil.example/", "/a/..//evil.example/",
    ];
    for (const redirectTo of hostile) {
      const res = await post(member, "/site-entry", formType, form({ redirectTo }));
      expect(res.status(), JSON.stringify(redirectTo)).toBe(302);
      expect(res.headers()["location"], JSON.stringify(redirectTo)).toBe("/");
    }
    // The other routes go through the same function (tests/unit/safe-redirect.test.ts has the rest); a login costs a password hash, so one each.
    const routes: { path: string; fields: Record<string, string>; redirectTo: string; fallback: string }[] = [
      { path: "/dismiss", fields: { key: "hide-enrich-alert" }, redirectTo: "/.//evil.example/", fallback: "/members" },
      { path: `/members/${other}/block`, fields: { intent: "unblock" }, redirectTo: "/a/..//evil.example/", fallback: `/members/${other}` },
      { path: "/login", fields: { email: account.email, password: account.password }, redirectTo: "/%2e//evil.example/", fallback: "/members" },
    ];
    for (const route of routes) {
      const res = await post(member, route.path, formType, form({ ...route.fields, redirectTo: route.redirectTo }));
      expect(res.status(), route.path).toBe(302);
      expect(res.headers()["location"], route.path).toBe(route.fallback);
    }
    // The language switch puts its own prefix in front: /nl//evil.example/ without /nl is //evil.example/.
    for (const redirectTo of ["/nl//evil.example/", "/nl/.//evil.example/"]) {
      const res = await post(member, "/lang-config", formType, form({ language: "en", redirectTo }));
      expect(res.status(), redirectTo).toBe(302);
      expect(res.headers()["location"], redirectTo).toBe("/");
    }
    await member.dispose();
    // A visitor opens the login page a foreign link named; the page carries ?redirectTo= into its form, and the login it sends ends on the site.
    const visitor = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: sameOrigin });
    const page = await (await visitor.get("/login?redirectTo=/.//evil.example/", { maxRedirects: 0 })).text();
    // The login form's field, in <main> (the header's language menu has a redirectTo of its own).
    const carried = /name="redirectTo" value="([^"]*)"/.exec(page.slice(page.indexOf("<main")))?.[1] ?? null;
    expect(carried).toBe("/.//evil.example/");
    const loggedIn = await post(visitor, "/login", formType, form({ email: account.email, password: account.password, redirectTo: carried ?? "" }));
    expect(loggedIn.status()).toBe(302);
    expect(loggedIn.headers()["location"]).toBe("/members");
    await visitor.dispose();
  });

  test("GET /api/logout.php logs out only when the request says it comes from this site", async ({ baseURL }) => {
    const member = await playwrightRequest.newContext({ baseURL });
    const account = await signUp(member);
    const me = async () => ((await (await member.get("/api/user.php")).json()) as { user: { email: string } | null }).user?.email ?? null;
    expect(await me()).toBe(account.email);
    const ownUrl = new URL(baseURL!);
    const refused: [string, Record<string, string>][] = [
      ["/api/logout.php", { "Sec-Fetch-Site": "cross-site" }],
      ["/api/logout.php", { "Sec-Fetch-Site": "same-site" }],
      ["/api/logout.php", foreign],
      ["/api/logout.php", { ...foreign, "Sec-Fetch-Site": "same-origin" }],
      ["/api/logout.php", { Origin: `https://${ownUrl.host}` }],
      // Neither header (an old browser, curl): refused, as a post is.
      ["/api/logout.php", {}],
      // The api's router matches case-insensitively, with or without a trailing slash (and HEAD as GET, below).
      ["/API/Logout.php", { "Sec-Fetch-Site": "cross-site" }],
      ["/api/logout.php/?x=1", { "Sec-Fetch-Site": "cross-site" }],
    ];
    for (const [path, headers] of refused) {
      const res = await member.get(path, { headers, maxRedirects: 0 });
      const label = `${path} ${JSON.stringify(headers)}`;
      expect(res.status(), label).toBe(403);
      expect(res.headers()["set-cookie"], label).toBeUndefined();
      expect(await res.json(), label).toMatchObject({ error: "cross_site_request" });
    }
    expect((await member.head("/api/logout.php", { headers: { "Sec-Fetch-Site": "cross-site" } })).status()).toBe(403);
    // The other api GET that writes (a site-run profile's automatic like) is guarded the same way.
    expect((await member.get("/api/auto-like.php", { headers: { "Sec-Fetch-Site": "cross-site" } })).status()).toBe(403);
    expect(await me()).toBe(account.email);
    const ownOrigin = await member.get("/api/logout.php", { headers: { Origin: ownUrl.origin } });
    expect(ownOrigin.status()).toBe(200);
    expect(await me()).toBeNull();
    await signUp(member, { ...account, email: `again-${account.email}` });
    expect(await me()).toBe(`again-${account.email}`);
    const sameSite = await member.get("/api/logout.php", { headers: sameOrigin });
    expect(sameSite.status()).toBe(200);
    expect(await me()).toBeNull();
    await member.dispose();
  });

  test("Origin must be this site's own origin: scheme, host and port", async ({ request, baseURL }) => {
    const own = new URL(baseURL!);
    const otherPort = `http://${own.hostname}:${Number(own.port) + 2}`;
    for (const origin of [`https://${own.host}`, otherPort, `http://${own.hostname}`, `${own.origin}.evil.example`]) {
      const page = await post(request, "/site-entry", { Origin: origin, ...formType }, form({ redirectTo: "/" }));
      expect(page.status(), origin).toBe(403);
      const api = await request.post("/api/page-hidden.php", { headers: { Origin: origin }, data: {} });
      expect(api.status(), origin).toBe(403);
    }
    const exact = await post(request, "/site-entry", { Origin: own.origin, ...formType }, form({ redirectTo: "/" }));
    expect(exact.status()).toBe(302);
    // Behind a TLS proxy that TRUST_PROXY names (loopback here), the scheme is the one X-Forwarded-Proto gives.
    const proxied = await post(request, "/site-entry", { Origin: `https://${own.host}`, "X-Forwarded-Proto": "https", ...formType }, form({ redirectTo: "/" }));
    expect(proxied.status()).toBe(302);
  });

  test("member pages are private and not stored; api and upload answers are never documents", async ({ page }) => {
    await login(page, accounts.free);
    for (const path of ["/members", "/profile", "/likes/received"]) {
      const res = await page.request.get(path);
      expect(res.headers()["cache-control"], path).toBe("private, no-store");
    }
    const settings = await page.request.get("/api/settings.php?domain=localhost");
    expect(settings.headers()["x-content-type-options"]).toBe("nosniff");
    expect(settings.headers()["content-security-policy"]).toContain("sandbox");
    await page.goto("/members");
    const photo = await page.locator("img[src^='/uploads/']").first().getAttribute("src");
    const upload = await page.request.get(photo ?? "");
    expect(upload.status()).toBe(200);
    expect(upload.headers()["content-security-policy"]).toContain("sandbox");
    expect(upload.headers()["x-content-type-options"]).toBe("nosniff");
  });

  test("a client's X-Request-Id is kept only when it is plain", async ({ request }) => {
    expect((await request.get("/pages/terms", { headers: { "X-Request-Id": "good-id-123" } })).headers()["x-request-id"]).toBe("good-id-123");
    expect((await request.get("/pages/terms", { headers: { "X-Request-Id": "../bad.id" } })).headers()["x-request-id"]).not.toContain("bad");
  });

  test("web keeps an idle connection longer than a load balancer's 60 s", async ({ request }) => {
    // keepIdleConnections (contract/http.ts): node's 5 s default lets a proxy send a request on a connection web is closing (a 502 to the member).
    expect((await request.get("/pages/terms", { headers: { Connection: "keep-alive" } })).headers()["keep-alive"]).toBe("timeout=65");
  });
});

test.describe("logout", () => {
  test("GET /logout asks first and only the form's POST logs out", { tag: "@nojs" }, async ({ page }) => {
    await login(page, accounts.free);
    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: "Do you want to log out?" })).toBeVisible();
    await page.goto("/members");
    await expect(page.getByTestId("account-menu")).toBeVisible();
    await page.goto("/logout");
    await page.getByRole("main").getByRole("button", { name: "Logout", exact: true }).click();
    await expectPath(page, "/");
    await expect(page.getByTestId("account-menu")).toHaveCount(0);
  });
});
