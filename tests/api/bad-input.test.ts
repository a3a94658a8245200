import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { ApiError } from "#contract/errors";
import { UserResponse } from "#contract/user";
import { interests, profiles, users } from "../../api/db/schema";
import { call, sessionCookieName, sessionCookieOf, startApi, type Harness } from "./harness";

/**
 * Input the database cannot take (docs/security.md, Input: NUL bytes, integers past int4, control characters,
 * over-long strings, lists where one value belongs) is refused at the edge with 400 validation_failed,
 * never a 500; and nothing the member sent or owns (e-mail, password, its hash, the session token, push
 * keys) reaches a log line on the way.
 */
let api: Harness;
let token: string;
const email = `bad-input-${randomBytes(4).toString("hex")}@example.com`;
const password = "bad-input-password-1";
/** The member's own profile, liked and blocked ids that exist, so only the bad part of a request can fail. */
let ownProfileId: number;
let otherProfileId: number;
const push = {
  endpoint: `https://push.example.com/send/${randomBytes(12).toString("hex")}`,
  p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString("base64url"),
  auth: randomBytes(16).toString("base64url"),
};

beforeAll(async () => {
  api = await startApi();
  const signup = await call(api, "POST", "/api/signup.php", { body: { email, name: "Badinput", date_of_birth: "1990-05-05", password, gender: "male" } });
  expect(signup.status).toBe(201);
  token = sessionCookieOf(signup)!.value;
  const user = UserResponse.parse(await signup.json()).user!;
  ownProfileId = user.profile.id;
  const [other] = await api.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.status, "active")).limit(1);
  otherProfileId = other!.id;
  const subscribed = await call(api, "POST", "/api/user.php?push=1", { token, body: { subscription: { endpoint: push.endpoint, expirationTime: null, keys: { p256dh: push.p256dh, auth: push.auth } } } });
  expect(subscribed.status).toBe(200);
});
afterAll(async () => {
  await api?.close();
});

const nul = "\u0000";
const int4Past = 2_147_483_648;
const long = (n: number) => "a".repeat(n);

type Case = { method: "GET" | "POST" | "PUT" | "DELETE"; path: string; body?: unknown; raw?: string; visitor?: boolean };

/** Query strings: every parameter of every GET and DELETE, with the values a form or a URL can carry. */
const queryCases: Case[] = [
  ...["%00", "a%00b", "a%01b", "a%1Fb", "a%7Fb", "a%0Ab"].map((v) => ({ method: "GET" as const, path: `/api/settings.php?domain=${v}` })),
  { method: "GET", path: `/api/settings.php?domain=${long(254)}` },
  { method: "GET", path: "/api/settings.php?domain=a&domain=b" },
  { method: "GET", path: "/api/regions.php?country=N%00" },
  { method: "GET", path: "/api/regions.php?country[]=NL" },
  // The finding's own example, and its neighbours.
  { method: "GET", path: "/api/members.php?country=NL&region=%00" },
  { method: "GET", path: "/api/members.php?country=NL&region=N%00H" },
  { method: "GET", path: "/api/members.php?country=NL&region=%01" },
  { method: "GET", path: `/api/members.php?country=NL&region=${long(101)}` },
  { method: "GET", path: "/api/members.php?country=N%00" },
  { method: "GET", path: "/api/members.php?gender=male%00" },
  { method: "GET", path: "/api/members.php?gender=male&gender=female" },
  { method: "GET", path: "/api/members.php?region[a]=b&country=NL" },
  ...["2147483648", "-1", "0", "1e400", "1e3", "NaN", "Infinity", "0x10", "1.5", "%00", "1%00", "99999999999999999999"].flatMap((v) => [
    { method: "GET" as const, path: `/api/members.php?page=${v}` },
    { method: "GET" as const, path: `/api/member.php?id=${v}` },
    { method: "GET" as const, path: `/api/blocks.php?page=${v}` },
    { method: "DELETE" as const, path: `/api/block.php?id=${v}` },
    { method: "DELETE" as const, path: `/api/like.php?id=${v}` },
    { method: "DELETE" as const, path: `/api/photo.php?id=${v}` },
    { method: "GET" as const, path: `/api/discovery.php?game=swipe&match=${v}` },
  ]),
  { method: "GET", path: "/api/members.php?min_age=2147483648" },
  { method: "GET", path: "/api/members.php?min_age[]=20" },
  { method: "GET", path: "/api/members.php?max_age=30&max_age=40" },
  { method: "GET", path: "/api/member.php?id[]=1" },
  { method: "GET", path: "/api/member.php?id=1&id=2" },
  { method: "DELETE", path: "/api/like.php?id[]=1" },
  { method: "DELETE", path: "/api/block.php?id=1&id=2" },
  { method: "GET", path: "/api/blocks.php?page[]=1" },
  { method: "GET", path: "/api/discovery.php?game=swipe%00" },
  { method: "GET", path: "/api/discovery.php?game=swipe&match[]=1" },
  { method: "GET", path: "/api/geocode.php?lat=%00&lon=4" },
  { method: "GET", path: "/api/geocode.php?lat=52&lon=1e400" },
  { method: "GET", path: "/api/geocode.php?lat[]=52&lon=4" },
];

const signupBody = (extra: Record<string, unknown>) => ({ email: `other-${randomBytes(4).toString("hex")}@example.com`, name: "Someone", date_of_birth: "1990-05-05", password: "long-enough-1", gender: "female", ...extra });

/** JSON bodies: every field of every POST and PUT. */
const bodyCases: Case[] = [
  // Login (visitor) and language.
  { method: "POST", path: "/api/user.php", body: { email: `a${nul}@example.com`, password }, visitor: true },
  { method: "POST", path: "/api/user.php", body: { email: [email], password }, visitor: true },
  { method: "POST", path: "/api/user.php", body: { email, password: [password] }, visitor: true },
  { method: "POST", path: "/api/user.php", body: { email, password: long(201) }, visitor: true },
  { method: "POST", path: "/api/user.php", body: [email, password], visitor: true },
  { method: "PUT", path: "/api/user.php", body: { language: `en${nul}` } },
  // Push subscription: a NUL in the endpoint reached the insert, and its error carried both keys into the log.
  { method: "POST", path: "/api/user.php?push=1", body: { subscription: { endpoint: `${push.endpoint}${nul}`, keys: { p256dh: push.p256dh, auth: push.auth } } } },
  { method: "POST", path: "/api/user.php?push=1", body: { subscription: { endpoint: `${push.endpoint}%00\u0001`, keys: { p256dh: push.p256dh, auth: push.auth } } } },
  { method: "POST", path: "/api/user.php?push=1", body: { subscription: { endpoint: `${push.endpoint}\u0007`, keys: { p256dh: push.p256dh, auth: push.auth } } } },
  { method: "POST", path: "/api/user.php?push=1", raw: `{"subscription":{"endpoint":"${push.endpoint}","expirationTime":1e400,"keys":{"p256dh":"${push.p256dh}","auth":"${push.auth}"}}}` },
  { method: "POST", path: "/api/user.php?push=1", body: { subscription: null, endpoint: `${push.endpoint}${nul}` } },
  { method: "POST", path: "/api/user.php?push=1", body: { subscription: [push.endpoint] } },
  // Signup (visitor): every text field.
  ...[
    { email: `new${nul}@example.com` },
    { name: `Ab${nul}c` },
    { name: "Ab\u0008c" },
    { name: `Ab\nc` },
    { name: long(41) },
    { password: `long-enough${nul}` },
    { password: long(201) },
    { date_of_birth: `1990-05-05${nul}` },
    { signup_message: `Hello${nul}` },
    { signup_message: long(1001) },
    { language: `e${nul}` },
    { invitation: `inv${nul}` },
    { tracking: { network: `net${nul}` } },
    { tracking: { sub1: "a\u001bb" } },
    // C1 controls too: U+009B is a terminal's CSI (the attribution report).
    { tracking: { sub2: "a\u009b31mb" } },
    { tracking: { ref: ["a", "b"] } },
    { gender: ["female"] },
  ].map((extra) => ({ method: "POST" as const, path: "/api/signup.php", body: signupBody(extra), visitor: true })),
  // Own profile: integers past int4 and below 1 in interests (they reached the SQL), text with NUL and control characters.
  ...[
    { interests: [int4Past] },
    { interests: [-1] },
    { interests: [0] },
    { interests: [1.5] },
    { interests: ["1"] },
    { interests: "1" },
    { interests: [[1]] },
    { interests: Array.from({ length: 51 }, (_, i) => i + 1) },
    { name: `Na${nul}me` },
    { name: "Na\u0001me" },
    { city: `Amster${nul}dam` },
    { city: "Amster\u000bdam" },
    { city: long(101) },
    { region: `N${nul}` },
    { region: long(101) },
    { about_me: `About${nul}` },
    { about_me: "About\u001b[31m" },
    { about_me: "About\u0085\u009b31m" },
    { about_me: long(2001) },
    { country: `N${nul}` },
    { date_of_birth: "1990-05-05\u0000" },
    { hair_color: `blond${nul}` },
    { invisible: "true" },
  ].map((body) => ({ method: "PUT" as const, path: "/api/profile.php", body })),
  { method: "PUT", path: "/api/profile.php", raw: '{"interests":[1e400]}' },
  { method: "PUT", path: "/api/profile.php", raw: '{"interests":[2147483648]}' },
  // Mailed-link tokens (visitor): only the token alphabet.
  ...["/api/activate.php", "/api/mail-change-do.php", "/api/reactivate.php"].flatMap((path) => [
    { method: "POST" as const, path, body: { token: nul.repeat(20) }, visitor: true },
    { method: "POST" as const, path, body: { token: `${long(20)}${nul}` }, visitor: true },
    { method: "POST" as const, path, body: { token: `${long(20)} ${long(3)}` }, visitor: true },
    { method: "POST" as const, path, body: { token: [long(20)] }, visitor: true },
  ]),
  { method: "POST", path: "/api/password-reset.php", body: { email: `a${nul}@example.com` }, visitor: true },
  { method: "POST", path: "/api/password-reset.php", body: { email: [email] }, visitor: true },
  { method: "POST", path: "/api/password-reset-do.php", body: { token: `${long(20)}${nul}`, password: "long-enough-1" }, visitor: true },
  { method: "POST", path: "/api/password-reset-do.php", body: { token: long(20), password: `long-enough${nul}` }, visitor: true },
  { method: "PUT", path: "/api/password.php", body: { old_password: password, password: `new-password${nul}` } },
  { method: "PUT", path: "/api/password.php", body: { old_password: password, password: "new-pass\u0007word" } },
  { method: "PUT", path: "/api/password.php", body: { old_password: long(201), password: "new-password-1" } },
  { method: "POST", path: "/api/mail-change.php", body: { email: `new${nul}@example.com`, password } },
  { method: "POST", path: "/api/mail-change.php", body: { email: "new@example.com", password: { password } } },
  { method: "POST", path: "/api/delete-account.php", body: { password, reason: `bye${nul}` } },
  { method: "POST", path: "/api/delete-account.php", body: { password, reason: long(501) } },
  { method: "POST", path: "/api/dismissals.php", body: { key: `hide-enrich-alert${nul}` } },
  // Ids in bodies: like, block, main photo, discovery.
  ...[int4Past, -1, 0, 1.5, "1", [1], `1${nul}`, null].flatMap((id) => [
    { method: "POST" as const, path: "/api/like.php", body: { id } },
    { method: "POST" as const, path: "/api/block.php", body: { id } },
    { method: "PUT" as const, path: "/api/photo.php", body: { id, main: true } },
    { method: "POST" as const, path: "/api/discovery.php", body: { game: "swipe", id, decision: "like" } },
  ]),
  { method: "POST", path: "/api/like.php", raw: '{"id":1e400}' },
  { method: "POST", path: "/api/like.php", raw: '{"id":2147483648}' },
  { method: "POST", path: "/api/discovery.php", body: { game: `swipe${nul}`, id: 1, decision: "like" } },
];

async function send(c: Case): Promise<Response> {
  if (c.raw === undefined) return call(api, c.method, c.path, { body: c.body, token: c.visitor ? undefined : token });
  // Bodies JSON.stringify cannot write (1e400 parses to Infinity, 2147483648 stays exact), as a client may send them.
  const headers: Record<string, string> = { "Content-Type": "application/json", "X-Forwarded-Host": "localhost" };
  if (!c.visitor) headers.Cookie = `${sessionCookieName}=${token}`;
  return fetch(`${api.baseUrl}${c.path}`, { method: c.method, headers, body: c.raw });
}

describe("bad input is refused at the edge", () => {
  it.each([...queryCases, ...bodyCases].map((c) => [`${c.method} ${c.path} ${c.raw ?? JSON.stringify(c.body) ?? ""}`.slice(0, 160), c] as const))("%s: 400 validation_failed", async (_name, c) => {
    const res = await send(c);
    const body = (await res.json()) as unknown;
    expect({ status: res.status, error: ApiError.safeParse(body).data?.error }).toEqual({ status: 400, error: "validation_failed" });
  });

  it("changes nothing: the member's profile, e-mail and interests are as before", async () => {
    const [row] = await api.db.select({ name: profiles.name, city: profiles.city, aboutMe: profiles.aboutMe, interests: profiles.interests, email: users.email }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(profiles.id, ownProfileId));
    expect(row).toEqual({ name: "Badinput", city: null, aboutMe: "", interests: [], email });
  });

  it("still takes good input on the same endpoints (the bounds are the database's, not tighter)", async () => {
    const [interest] = await api.db.select({ id: interests.id }).from(interests).limit(1);
    const update = await call(api, "PUT", "/api/profile.php", { token, body: { name: "Bad Input", city: "Den Haag", about_me: "Line one\nline two\r\n\tindented", interests: [interest!.id, interest!.id] } });
    expect(update.status).toBe(200);
    const profile = UserResponse.parse(await update.json()).user!.profile;
    // Item 9: a repeated interest is one interest (deduplicated, not refused).
    expect(profile).toMatchObject({ name: "Bad Input", city: "Den Haag", about_me: "Line one\nline two\r\n\tindented", interests: [interest!.id] });
    expect((await call(api, "GET", `/api/member.php?id=${otherProfileId}`, { token })).status).toBe(200);
    expect((await call(api, "GET", "/api/member.php?id=2147483647", { token })).status).toBe(404);
    expect((await call(api, "GET", "/api/members.php?page=2&country=nl&region=NH&min_age=&max_age=", { token })).status).toBe(200);
    expect((await call(api, "GET", "/api/blocks.php?page=1", { token })).status).toBe(200);
    expect((await call(api, "DELETE", "/api/like.php?id=2147483647", { token })).status).toBe(200);
    expect((await call(api, "GET", "/api/settings.php?domain=LOCALHOST:3000")).status).toBe(200);
  });

  it("logs no 5xx, no SQL parameters, and not the member's e-mail, password, hash, session token or push keys", async () => {
    const [row] = await api.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email));
    const hash = row?.hash ?? "";
    expect(hash).toMatch(/^scrypt\$/);
    const secrets = [email, password, hash, hash.split("$").pop()!, token, push.p256dh, push.auth];
    expect(api.logLines.length).toBeGreaterThan(queryCases.length);
    expect(api.logLines.filter((line) => secrets.some((secret) => line.includes(secret)))).toEqual([]);
    expect(api.logLines.filter((line) => /"level":(50|60)|params:|"statusCode":5\d\d/.test(line))).toEqual([]);
    expect(api.logLines.filter((line) => /[\w.+-]+@[\w-]+(\.[\w-]+)+/.test(line))).toEqual([]);
  });
});
