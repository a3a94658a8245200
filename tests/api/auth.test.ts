import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { ApiError } from "#contract/errors";
import { MembersResponse } from "#contract/members";
import { LogoutResponse, UserResponse } from "#contract/user";
import { memberLogins, profiles, sessions, sites, users } from "../../api/db/schema";
import { loginsKept } from "../../api/domain/login";
import { cookieHeader, demoAccounts, expectApiError, demoPassword, login, postJson, sessionCookieOf, startApi, type Harness } from "./harness";

// Login, session cookie, logout, members and language: one seeded api for the file.
let api: Harness;
let demo: { userId: number; profileId: number; siteId: number };
/** A session of the free demo account that no test logs out (logins cost a scrypt each). */
let shared: string;

beforeAll(async () => {
  api = await startApi();
  const [row] = await api.db
    .select({ userId: users.id, profileId: profiles.id, siteId: users.siteId })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.email, demoAccounts.free.email));
  if (!row) throw new Error("demo account not seeded");
  demo = row;
  shared = await login(api.baseUrl, demoAccounts.free.email);
});
afterAll(async () => {
  await api?.close();
});

function loginRequest(body: unknown, headers: Record<string, string> = {}) {
  return postJson(api.baseUrl, "/api/user.php", body, { "X-Forwarded-Host": "localhost", ...headers });
}

async function expectLoginFailed(res: Response) {
  expect(res.status).toBe(401);
  const body = ApiError.parse(await res.json());
  expect(body.error).toBe("login_failed");
  expect(body.message).toBe("Login failed, please try again");
  expect(sessionCookieOf(res)).toBeNull();
}

async function expectValidationFailed(res: Response, label: string) {
  expect(res.status, label).toBe(400);
  const body = ApiError.parse(await res.json());
  expect(body.error, label).toBe("validation_failed");
  expect(sessionCookieOf(res), label).toBeNull();
  return body;
}

describe("POST /api/user.php (login)", () => {
  it("logs the free demo account in: 20 credits, not paid, with a 30-day HttpOnly cookie", async () => {
    const res = await loginRequest({ email: demoAccounts.free.email, password: demoPassword });
    expect(res.status).toBe(200);
    const { user } = UserResponse.parse(await res.json());
    expect(user).not.toBeNull();
    expect(user?.credits).toBe(20);
    expect(user?.paid_user).toBe(false);
    expect(user?.status).toBe("active");
    expect(user?.profile.name).toBe("Dennis");
    expect(user?.profile.main_image?.status).toBe("active");

    // An HttpOnly, SameSite=Lax, 30-day session cookie on /, without Secure over plain HTTP.
    const cookie = sessionCookieOf(res);
    expect(cookie?.value).toBeTruthy();
    const attributes = cookie!.attributes.map((a) => a.toLowerCase());
    expect(attributes).toContain("httponly");
    expect(attributes).toContain("samesite=lax");
    expect(attributes).toContain("path=/");
    expect(attributes).toContain("max-age=2592000");
    expect(attributes).not.toContain("secure");
    expect(attributes.some((a) => a.startsWith("domain="))).toBe(false);
    // Each login gets its own session token.
    expect(cookie!.value).not.toBe(shared);
    expect(cookie!.value.length).toBeGreaterThanOrEqual(32);
  });

  it("logs the premium demo account in: 500 credits, paid", async () => {
    const res = await loginRequest({ email: demoAccounts.premium.email, password: demoPassword });
    expect(res.status).toBe(200);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.credits).toBe(500);
    expect(user?.paid_user).toBe(true);
    expect(user?.profile.name).toBe("Paula");
  });

  it("records each login with its address and keeps a member's newest 20 (what the staff page shows), no older", async () => {
    const [premium] = await api.db.select({ id: users.id }).from(users).where(eq(users.email, demoAccounts.premium.email));
    const userId = premium!.id;
    await api.db.insert(memberLogins).values(Array.from({ length: 25 }, (_, i) => ({ userId, clientIp: `192.0.2.${i + 1}` })));
    const res = await loginRequest({ email: demoAccounts.premium.email, password: demoPassword }, { "X-Client-IP": "198.51.100.77" });
    expect(res.status).toBe(200);
    const kept = await api.db.select({ clientIp: memberLogins.clientIp }).from(memberLogins).where(eq(memberLogins.userId, userId)).orderBy(desc(memberLogins.id));
    expect(kept.map((row) => row.clientIp)).toEqual(["198.51.100.77", ...Array.from({ length: loginsKept - 1 }, (_, i) => `192.0.2.${25 - i}`)]);
  });

  it("ignores case and surrounding spaces in the e-mail", async () => {
    const res = await loginRequest({ email: "  Demo@Example.COM ", password: demoPassword });
    expect(res.status).toBe(200);
    expect(UserResponse.parse(await res.json()).user?.credits).toBe(20);
  });

  it("marks the cookie Secure when the proxy says the request came over HTTPS", async () => {
    const res = await loginRequest({ email: demoAccounts.free.email, password: demoPassword }, { "X-Forwarded-Proto": "https" });
    expect(res.status).toBe(200);
    const attributes = sessionCookieOf(res)!.attributes.map((a) => a.toLowerCase());
    expect(attributes).toContain("secure");
    expect(attributes).toContain("httponly");
  });

  it("answers 401 login_failed for a wrong password", async () => {
    await expectLoginFailed(await loginRequest({ email: demoAccounts.premium.email, password: "not-the-password" }));
  });

  it("answers the same 401 login_failed for an unknown e-mail", async () => {
    await expectLoginFailed(await loginRequest({ email: "nobody@example.com", password: demoPassword }));
  });

  it("answers 401 for a seeded member that has no password", async () => {
    await expectLoginFailed(await loginRequest({ email: "member1-0@demo.invalid", password: demoPassword }));
  });

  it("does not know the demo account on another site", async () => {
    await expectLoginFailed(await loginRequest({ email: demoAccounts.free.email, password: demoPassword }, { "X-Forwarded-Host": "gay.localhost" }));
    await expectLoginFailed(await loginRequest({ email: demoAccounts.premium.email, password: demoPassword }, { "X-Forwarded-Host": "she.localhost" }));
  });

  it("answers 400 validation_failed, never 500, for a malformed body", async () => {
    const cases: [string, unknown][] = [
      ["not an e-mail", { email: "demo", password: demoPassword }],
      ["missing password", { email: demoAccounts.free.email }],
      ["empty password", { email: demoAccounts.free.email, password: "" }],
      ["missing e-mail", { password: demoPassword }],
      ["e-mail not a string", { email: 42, password: demoPassword }],
      ["password not a string", { email: demoAccounts.free.email, password: { $ne: "" } }],
      ["password too long", { email: demoAccounts.free.email, password: "p".repeat(201) }],
      ["array body", [demoAccounts.free.email, demoPassword]],
      ["empty object", {}],
      ["invalid JSON", `{"email": "${demoAccounts.free.email}", "password": `],
      ["JSON null", "null"],
    ];
    for (const [label, body] of cases) {
      const result = await expectValidationFailed(await loginRequest(body), label);
      expect(result.fields, label).toBeDefined();
    }
    const missing = await expectValidationFailed(await loginRequest({ email: demoAccounts.free.email }), "fields");
    expect(Object.keys(missing.fields ?? {})).toContain("password");
  });

  it("answers 400 for a body that is not JSON at all", async () => {
    const form = await fetch(`${api.baseUrl}/api/user.php`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `email=${encodeURIComponent(demoAccounts.free.email)}&password=${demoPassword}`,
    });
    await expectValidationFailed(form, "form body");
    const none = await fetch(`${api.baseUrl}/api/user.php`, { method: "POST" });
    await expectValidationFailed(none, "no body");
  });

  it("answers 413 request_too_large, not 500, for a body over the 64 KB cap, and closes the connection", async () => {
    const res = await loginRequest({ email: demoAccounts.free.email, password: "p".repeat(200_000) });
    await expectApiError(res, 413, "request_too_large");
    expect(res.headers.get("connection")).toBe("close");
  });
});

function get(pathname: string, token?: string, host = "localhost") {
  const headers: Record<string, string> = { "X-Forwarded-Host": host };
  if (token) headers.Cookie = cookieHeader(token);
  return fetch(`${api.baseUrl}${pathname}`, { headers });
}

function put(pathname: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { "X-Forwarded-Host": "localhost", "Content-Type": "application/json" };
  if (token) headers.Cookie = cookieHeader(token);
  return fetch(`${api.baseUrl}${pathname}`, { method: "PUT", headers, body: JSON.stringify(body) });
}

async function currentUser(token?: string, host = "localhost") {
  const res = await get("/api/user.php", token, host);
  expect(res.status).toBe(200);
  return UserResponse.parse(await res.json()).user;
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const text = await res.text();
  expect(text).toContain(code);
  expect(ApiError.parse(JSON.parse(text)).error).toBe(code);
}

describe("session", () => {
  it("GET /api/user.php gives the logged-in member with the cookie, and no one without", async () => {
    const token = shared;
    const res = await get("/api/user.php", token);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.id).toBe(demo.userId);
    expect(user?.profile.id).toBe(demo.profileId);
    expect(user?.credits).toBe(20);

    const anonymous = await get("/api/user.php");
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ user: null });
    expect(await currentUser("forged-token-value")).toBeNull();
  });

  it("does not carry a session over to another site", async () => {
    const token = shared;
    expect(await currentUser(token, "gay.localhost")).toBeNull();
    expect((await currentUser(token, "localhost"))?.id).toBe(demo.userId);
  });

  it("stores only a hash of the session token, expiring in 30 days", async () => {
    const token = shared;
    const rows = await api.db.select().from(sessions).where(eq(sessions.userId, demo.userId));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.tokenHash).not.toBe(token);
      expect(row.tokenHash).not.toContain(token);
    }
    const [leak] = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessions)
      .where(sql`position(${token} in ${sessions.tokenHash}) > 0`);
    expect(leak?.n).toBe(0);
    const newest = rows.reduce((a, b) => (a.createdAt > b.createdAt ? a : b));
    const days = (newest.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("GET /api/logout.php ends the session and clears the cookie", async () => {
    const other = shared;
    const token = await login(api.baseUrl, demoAccounts.free.email);
    expect((await currentUser(token))?.id).toBe(demo.userId);

    const res = await get("/api/logout.php", token);
    expect(res.status).toBe(200);
    LogoutResponse.parse(await res.json());
    const cookie = sessionCookieOf(res);
    expect(cookie?.value).toBe("");
    const attributes = cookie!.attributes.map((a) => a.toLowerCase());
    expect(attributes).toContain("max-age=0");
    expect(attributes).toContain("path=/");
    expect(attributes).toContain("httponly");

    // The old cookie no longer works, even if the browser kept it.
    expect(await currentUser(token)).toBeNull();
    await expectError(await get("/api/members.php", token), 403, "authentication_required");
    await expectError(await put("/api/user.php", { language: "de" }, token), 403, "authentication_required");
    // Another device's session of the same member is untouched.
    expect((await currentUser(other))?.id).toBe(demo.userId);
  });

  it("GET /api/logout.php without a session still answers ok and clears the cookie", async () => {
    const res = await get("/api/logout.php");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(sessionCookieOf(res)?.attributes.map((a) => a.toLowerCase())).toContain("max-age=0");
  });
});

describe("authentication required (403)", () => {
  it("GET /api/members.php without a session", async () => {
    await expectError(await get("/api/members.php"), 403, "authentication_required");
    await expectError(await get("/api/members.php?page=abc"), 403, "authentication_required");
  });

  it("a session of one site does not authenticate on another", async () => {
    // user.php already says nobody is logged in there; the other endpoints must agree.
    expect(await currentUser(shared, "gay.localhost")).toBeNull();
    await expectError(await get("/api/members.php", shared, "gay.localhost"), 403, "authentication_required");
    await expectError(await get("/api/members.php?domain=gay.localhost", shared), 403, "authentication_required");
    await expectError(await put("/api/user.php?domain=gay.localhost", { language: "fr" }, shared), 403, "authentication_required");
    expect((await currentUser(shared))?.language).not.toBe("fr");
    expect((await get("/api/members.php", shared)).status).toBe(200);
  });

  it("PUT /api/user.php without a session", async () => {
    await expectError(await put("/api/user.php", { language: "nl" }), 403, "authentication_required");
    await expectError(await put("/api/user.php", { language: "xx" }), 403, "authentication_required");
  });
});

describe("GET /api/members.php", () => {
  it("pages the site's newest members, 20 a page, never the viewer", async () => {
    const token = shared;
    const first = await get("/api/members.php", token);
    expect(first.status).toBe(200);
    const page1 = MembersResponse.parse(await first.json());
    expect(page1.pageNumber).toBe(1);
    expect(page1.pageSize).toBe(20);
    expect(page1.results).toHaveLength(20);
    expect(page1.numResults).toBeGreaterThan(20);

    const [active] = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(profiles)
      .where(and(eq(profiles.siteId, demo.siteId), eq(profiles.status, "active")));
    expect(page1.numResults).toBe((active?.n ?? 0) - 1);

    const all = [...page1.results];
    const pages = Math.ceil(page1.numResults / 20);
    for (let page = 2; page <= pages; page++) {
      const res = await get(`/api/members.php?page=${page}`, token);
      expect(res.status).toBe(200);
      const body = MembersResponse.parse(await res.json());
      expect(body.pageNumber).toBe(page);
      expect(body.numResults).toBe(page1.numResults);
      expect(body.results.length).toBe(page < pages ? 20 : page1.numResults - 20 * (pages - 1));
      all.push(...body.results);
    }
    const ids = all.map((m) => m.id);
    expect(new Set(ids).size).toBe(page1.numResults);
    expect(ids).not.toContain(demo.profileId);

    // Newest first, all of the viewer's site.
    const rows = await api.db
      .select({ id: profiles.id, siteId: profiles.siteId, createdAt: profiles.createdAt })
      .from(profiles)
      .where(inArray(profiles.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const created = ids.map((id) => byId.get(id)!.createdAt.getTime());
    for (let i = 1; i < created.length; i++) expect(created[i]!).toBeLessThanOrEqual(created[i - 1]!);
    expect(rows.every((r) => r.siteId === demo.siteId)).toBe(true);
    // The premium demo account, created 31 days ago, is among the oldest.
    expect(all.at(-1)?.name).toBe("Paula");

    const beyond = MembersResponse.parse(await (await get(`/api/members.php?page=${pages + 1}`, token)).json());
    expect(beyond.results).toEqual([]);
  });

  it("shows ages and photos a visitor can load", async () => {
    const token = shared;
    const page1 = MembersResponse.parse(await (await get("/api/members.php", token)).json());
    for (const m of page1.results) {
      expect(m.age).toBeGreaterThanOrEqual(18);
      expect(m.age).toBeLessThanOrEqual(66);
    }
    const withPhoto = page1.results.find((m) => m.main_image);
    expect(withPhoto).toBeDefined();
    const [site] = await api.db.select({ cdnPrefix: sites.cdnPrefix }).from(sites).where(eq(sites.id, demo.siteId));
    const photo = await fetch(`${api.baseUrl}${site!.cdnPrefix}${withPhoto!.main_image!.thumb_filename}`);
    expect(photo.status).toBe(200);
    expect(await photo.text()).toContain("<svg");
    const missing = await fetch(`${api.baseUrl}${site!.cdnPrefix}demo/does-not-exist.svg`);
    expect(missing.status).toBe(404);
  });

  it("answers 400 validation_failed for a bad page", async () => {
    const token = shared;
    for (const page of ["abc", "0", "-1", "1.5", "100000"]) {
      const res = await get(`/api/members.php?page=${page}`, token);
      expect(res.status, page).toBe(400);
      expect(ApiError.parse(await res.json()).error, page).toBe("validation_failed");
    }
  });
});

describe("PUT /api/user.php (language)", () => {
  it("changes the member's language and keeps it", async () => {
    const token = shared;
    const res = await put("/api/user.php", { language: "nl" }, token);
    expect(res.status).toBe(200);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.id).toBe(demo.userId);
    expect(user?.language).toBe("nl");
    expect((await currentUser(token))?.language).toBe("nl");

    // It is the member's setting, not the session's.
    const again = await login(api.baseUrl, demoAccounts.free.email);
    expect((await currentUser(again))?.language).toBe("nl");
    // Another member is unaffected.
    const premium = await login(api.baseUrl, demoAccounts.premium.email);
    expect((await currentUser(premium))?.language).toBe("en");
  });

  it("answers 400 validation_failed for an unsupported language and keeps the old one", async () => {
    const token = shared;
    expect((await put("/api/user.php", { language: "de" }, token)).status).toBe(200);
    for (const body of [{ language: "xx" }, { language: "" }, { language: "DE-de" }, {}, { language: 1 }]) {
      const res = await put("/api/user.php", body, token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(ApiError.parse(await res.json()).error).toBe("validation_failed");
    }
    expect((await currentUser(token))?.language).toBe("de");
  });
});
