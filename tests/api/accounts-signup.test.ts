import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import { ApiError } from "#contract/errors";
import { MembersResponse } from "#contract/members";
import { UserResponse } from "#contract/user";
import { creditLedger, invitations, profiles, sites, users } from "../../api/db/schema";
import { mayReplyTo } from "../../api/domain/accounts/activation";
import { soughtGenders } from "../../api/domain/visibility";
import { hashPassword } from "../../api/domain/passwords";
import { clearSiteCache } from "../../api/domain/sites";
import { call, demoAccounts, insertMember, leakingLogLines, linkOf, mailsTo, sessionCookieOf, startApi, type Harness, expectApiError } from "./harness";

// Signup (gating, validation, races), the reply rule, signup matches and profile updates.
let api: Harness;
let siteId: number;
let passwordHash: string;
const password = "correct-horse-battery";
const secrets = new Set<string>([password]);

beforeAll(async () => {
  api = await startApi();
  const [site] = await api.db.select().from(sites).where(eq(sites.domain, "localhost"));
  if (!site) throw new Error("default site not seeded");
  siteId = site.id;
  passwordHash = await hashPassword(password);
});
afterEach(async () => {
  await api.db.update(sites).set({ signups: "all", minAge: 18 }).where(eq(sites.id, siteId));
  clearSiteCache();
});
afterAll(async () => {
  if (api) {
    // The check means something only if the api really logged: requests and mails.
    expect(api.logLines.some((line) => line.includes('"mail sent"'))).toBe(true);
    expect(leakingLogLines(api, secrets)).toEqual([]);
  }
  await api?.close();
});

let counter = 0;
function signupBody(overrides: Record<string, unknown> = {}) {
  return { email: `new-${++counter}-${Date.now()}@example.com`, name: `Newbie${counter}`, date_of_birth: "1995-05-17", password, ...overrides };
}

function signup(body: unknown, headers: Record<string, string> = {}) {
  return call(api, "POST", "/api/signup.php", { body, headers });
}

async function setSite(values: Partial<typeof sites.$inferInsert>) {
  await api.db.update(sites).set(values).where(eq(sites.id, siteId));
  clearSiteCache();
}

/** An api error that also sets no session cookie. */
async function expectError(res: Response, status: number, code: string) {
  const body = await expectApiError(res, status, code);
  expect(sessionCookieOf(res)).toBeNull();
  return body;
}

async function accountCount(email: string): Promise<number> {
  const [row] = await api.db.select({ n: count() }).from(users).where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return row?.n ?? 0;
}

function yearsAgo(years: number, days = 0): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

describe("POST /api/signup.php", () => {
  it("creates a not_confirmed member with a session, signup credits in the ledger, tracking, and mails the activation link", async () => {
    const body = signupBody({
      email: "Fresh.Member@Example.com",
      language: "nl",
      signup_message: "Hi there!",
      tracking: { network: "adnet", ref: "r-17", sub1: "a", sub2: "b", sub3: "c" },
    });
    // A German visitor (geoip) on a site that serves DE gets DE as country.
    const res = await signup(body, { "X-Client-IP": "217.0.0.1" });
    expect(res.status).toBe(201);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.status).toBe("not_confirmed");
    expect(user?.credits).toBe(20);
    expect(user?.language).toBe("nl");
    expect(user?.profile).toMatchObject({ name: body.name, status: "disabled", gender: "male", country: "DE", date_of_birth: "1995-05-17" });

    // Same cookie as the login route: HttpOnly, Lax, 30 days, and it is a live session.
    const cookie = sessionCookieOf(res);
    expect(cookie?.value).toBeTruthy();
    secrets.add(cookie!.value);
    const attributes = cookie!.attributes.map((a) => a.toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/", "max-age=2592000"]));
    const me = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: cookie!.value })).json());
    expect(me.user?.id).toBe(user?.id);

    const [row] = await api.db.select().from(users).where(eq(users.id, user!.id));
    expect(row).toMatchObject({ email: "fresh.member@example.com", network: "adnet", ref: "r-17", sub1: "a", sub2: "b", sub3: "c", credits: 20, emailConfirmedAt: null });
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    const [profile] = await api.db.select().from(profiles).where(eq(profiles.userId, user!.id));
    expect(profile?.signupMessage).toBe("Hi there!");
    const ledger = await api.db.select().from(creditLedger).where(eq(creditLedger.userId, user!.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ delta: 20, balanceAfter: 20, reason: "signup" });

    // The activation mail: in Dutch, from the site, with a /nl/ link to web.
    const mails = await mailsTo(api, "fresh.member@example.com");
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toContain("Rendezvous");
    expect(mail.subject).toMatch(/Bevestig/);
    expect(mail.from).toBe('"Rendezvous" <noreply@localhost>');
    expect(mail.html).toContain("Rendezvous");
    const link = linkOf(mail, "/activate/done");
    expect(link?.origin).toBe(`http://localhost`);
    expect(link?.pathname).toBe("/nl/activate/done");
    expect(link?.searchParams.get("token")).toMatch(/^[\w-]{43}$/);
    secrets.add(link!.searchParams.get("token")!);
  });

  it("puts the member in the site's first country when geoip finds none of the site's countries", async () => {
    const body = signupBody({ gender: "female" });
    const res = await signup(body);
    expect(res.status).toBe(201);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.profile.country).toBe("NL");
    expect(user?.profile.gender).toBe("female");
    expect(user?.language).toBe("en");
    const [mail] = await mailsTo(api, body.email, "/activate/done");
    expect(linkOf(mail!, "/activate/done")?.pathname).toBe("/activate/done");
  });

  it("answers 409 account_exists for an address the site has (any case), and nothing is written", async () => {
    const res = await signup(signupBody({ email: demoAccounts.free.email.toUpperCase() }));
    const body = await expectError(res, 409, "account_exists");
    expect(body.message).toMatch(/log in/);
    expect(await accountCount(demoAccounts.free.email)).toBe(1);
  });

  it("answers 409 account_pending_deletion for an address whose account is being deleted", async () => {
    const { email } = await insertMember(api, { passwordHash, status: "deleted" });
    await expectError(await signup(signupBody({ email })), 409, "account_pending_deletion");
    expect(await accountCount(email)).toBe(1);
  });

  it("keeps the same address free on another site", async () => {
    const email = `twosites-${Date.now()}@example.com`;
    expect((await signup(signupBody({ email }))).status).toBe(201);
    const other = await call(api, "POST", "/api/signup.php", { body: signupBody({ email }), host: "gay.localhost" });
    expect(other.status).toBe(201);
    expect(await accountCount(email)).toBe(2);
  });

  it("lets exactly one of several simultaneous signups with one address win; the others get account_exists", async () => {
    const email = `race-${Date.now()}@example.com`;
    const responses = await Promise.all([0, 1, 2].map((i) => signup(signupBody({ email: i === 1 ? email.toUpperCase() : email, name: `Racer${i}` }))));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const res of responses.filter((r) => r.status === 409)) expect(ApiError.parse(await res.json()).error).toBe("account_exists");
    const rows = await api.db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, email));
    expect(rows).toHaveLength(1);
    const [profileCount] = await api.db.select({ n: count() }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(sql`lower(${users.email})`, email));
    expect(profileCount?.n).toBe(1);
    const [ledgerCount] = await api.db.select({ n: count() }).from(creditLedger).where(eq(creditLedger.userId, rows[0]!.id));
    expect(ledgerCount?.n).toBe(1);
    // Orphans would show as ledger rows or profiles without a user: the cascade makes that impossible, so check the user count alone.
    expect(await mailsTo(api, email)).toHaveLength(1);
  });
});

describe("signup validation", () => {
  it("refuses a name equal to the e-mail (any case) or starting with @, with fields.name", async () => {
    const email = `named-${Date.now()}@example.com`;
    const same = await expectError(await signup(signupBody({ email, name: email.toUpperCase().slice(0, 40) })), 400, "validation_failed");
    expect(same.fields?.name).toEqual(["name_is_email"]);
    const at = await expectError(await signup(signupBody({ email, name: "@handle" })), 400, "validation_failed");
    expect(at.fields?.name).toEqual(["name_starts_with_at"]);
    expect(await accountCount(email)).toBe(0);
  });

  it("refuses an age under the site's min_age or over 120, and dates that are no dates", async () => {
    const email = `young-${Date.now()}@example.com`;
    // One day short of 18.
    const young = await expectError(await signup(signupBody({ email, date_of_birth: yearsAgo(18, 1) })), 400, "invalid_date_of_birth");
    expect(young.message).toBe("Invalid date of birth.");
    await expectError(await signup(signupBody({ email, date_of_birth: yearsAgo(121, -1) })), 400, "invalid_date_of_birth");
    await expectError(await signup(signupBody({ email, date_of_birth: yearsAgo(-1) })), 400, "invalid_date_of_birth");
    await expectError(await signup(signupBody({ email, date_of_birth: "1990-02-30" })), 400, "validation_failed");
    await expectError(await signup(signupBody({ email, date_of_birth: "17-05-1995" })), 400, "validation_failed");
    await setSite({ minAge: 21 });
    await expectError(await signup(signupBody({ email, date_of_birth: yearsAgo(20) })), 400, "invalid_date_of_birth");
    expect(await accountCount(email)).toBe(0);
  });

  it("answers validation_failed, never 500, for bad e-mails and malformed bodies", async () => {
    const cases: [string, unknown][] = [
      ["bad e-mail", signupBody({ email: "not-an-email" })],
      ["short password", signupBody({ password: "short" })],
      ["no name", signupBody({ name: "" })],
      ["bad gender", signupBody({ gender: "other" })],
      ["tracking not an object", signupBody({ tracking: "x" })],
      ["array", [1, 2]],
      ["empty", {}],
    ];
    for (const [label, body] of cases) {
      const res = await signup(body);
      expect(res.status, label).toBe(400);
      expect(ApiError.parse(await res.json()).error, label).toBe("validation_failed");
    }
    const bad = ApiError.parse(await (await signup(signupBody({ email: "nope" }))).json());
    expect(Object.keys(bad.fields ?? {})).toContain("email");
  });
});

describe("signups setting of the site", () => {
  it("with_trafficsource: closed without a network or ref, open with one", async () => {
    await setSite({ signups: "with_trafficsource" });
    const email = `traffic-${Date.now()}@example.com`;
    await expectError(await signup(signupBody({ email })), 403, "signups_closed");
    await expectError(await signup(signupBody({ email, tracking: { sub1: "only-sub" } })), 403, "signups_closed");
    expect(await accountCount(email)).toBe(0);
    const res = await signup(signupBody({ email, tracking: { ref: "partner" } }));
    expect(res.status).toBe(201);
  });

  it("other: needs an unused, unexpired invitation of this site, and uses it up in the same transaction", async () => {
    await setSite({ signups: "other" });
    const [gaySite] = await api.db.select({ id: sites.id }).from(sites).where(eq(sites.domain, "gay.localhost"));
    const future = new Date(Date.now() + 86_400_000);
    await api.db.insert(invitations).values([
      { siteId, code: "WELCOME-1", expiresAt: future },
      { siteId, code: "OLD-1", expiresAt: new Date(Date.now() - 1000) },
      { siteId: gaySite!.id, code: "OTHER-SITE", expiresAt: future },
    ]);
    const email = `invited-${Date.now()}@example.com`;
    await expectError(await signup(signupBody({ email })), 403, "signups_closed");
    await expectError(await signup(signupBody({ email, invitation: "NOPE" })), 400, "invitation_invalid");
    await expectError(await signup(signupBody({ email, invitation: "OLD-1" })), 400, "invitation_invalid");
    await expectError(await signup(signupBody({ email, invitation: "OTHER-SITE" })), 400, "invitation_invalid");
    expect(await accountCount(email)).toBe(0);

    const res = await signup(signupBody({ email, invitation: "WELCOME-1" }));
    expect(res.status).toBe(201);
    const { user } = UserResponse.parse(await res.json());
    const [invitation] = await api.db.select().from(invitations).where(and(eq(invitations.siteId, siteId), eq(invitations.code, "WELCOME-1")));
    expect(invitation?.usedByUserId).toBe(user?.id);

    // Used once: a second signup with it is refused and leaves nothing behind.
    const second = `invited-again-${Date.now()}@example.com`;
    await expectError(await signup(signupBody({ email: second, invitation: "WELCOME-1" })), 400, "invitation_invalid");
    expect(await accountCount(second)).toBe(0);
  });
});

describe("replies before the e-mail is confirmed (docs/product.md §4)", () => {
  it("mayReplyTo is false while the member is not_confirmed, true once active", () => {
    expect(mayReplyTo({ status: "not_confirmed" })).toBe(false);
    expect(mayReplyTo({ status: "active" })).toBe(true);
    expect(mayReplyTo({ status: "deleted" })).toBe(false);
    expect(mayReplyTo({ status: "erased" })).toBe(false);
  });
});

describe("GET /api/signup-matches.php and PUT /api/profile.php", () => {
  let token: string;
  let userId: number;

  beforeAll(async () => {
    const res = await signup(signupBody({ gender: "male" }), { "X-Client-IP": "217.0.0.1" });
    expect(res.status).toBe(201);
    token = sessionCookieOf(res)!.value;
    secrets.add(token);
    userId = UserResponse.parse(await res.json()).user!.id;
  });

  async function matches() {
    const res = await call(api, "GET", "/api/signup-matches.php", { token });
    expect(res.status).toBe(200);
    return MembersResponse.parse(await res.json());
  }

  async function genderAndCountry(profileIds: number[]) {
    const rows = await api.db.select({ id: profiles.id, gender: profiles.gender, country: profiles.country, status: profiles.status, userId: profiles.userId }).from(profiles);
    return profileIds.map((id) => rows.find((r) => r.id === id)!);
  }

  it("maps sexuality to the genders looked for", () => {
    expect(soughtGenders("male", "hetero")).toEqual(["female"]);
    expect(soughtGenders("female", "hetero")).toEqual(["male"]);
    expect(soughtGenders("male", "gay")).toEqual(["male"]);
    expect(soughtGenders("female", "lesbian")).toEqual(["female"]);
    expect(soughtGenders("male", "bi")).toEqual(["male", "female"]);
  });

  it("gives a hetero man up to 12 active women of the site, same country first", async () => {
    const result = await matches();
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.results.length).toBeLessThanOrEqual(12);
    const rows = await genderAndCountry(result.results.map((r) => r.id));
    for (const row of rows) expect(row).toMatchObject({ gender: "female", status: "active" });
    expect(rows.some((r) => r.userId === userId)).toBe(false);
    // Same country (DE) first: once another country appears, DE does not come back.
    const countries = rows.map((r) => r.country);
    const firstOther = countries.findIndex((c) => c !== "DE");
    if (firstOther >= 0) expect(countries.slice(firstOther)).not.toContain("DE");
    expect(countries[0]).toBe("DE");
    expect(result.results[0]?.age).toBeGreaterThanOrEqual(18);
  });

  it("updates the profile and answers the user; a gay man then sees men", async () => {
    const res = await call(api, "PUT", "/api/profile.php", {
      token,
      body: { sexuality: "gay", country: "NL", region: "NH", city: "Amsterdam", about_me: "Hello!", interests: [1, 3, 3], hair_color: "brown", tattoos: null },
    });
    expect(res.status).toBe(200);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.profile).toMatchObject({ sexuality: "gay", country: "NL", region: "NH", city: "Amsterdam" });
    const [row] = await api.db.select().from(profiles).where(eq(profiles.userId, userId));
    expect(row).toMatchObject({ aboutMe: "Hello!", interests: [1, 3], hairColor: "brown", tattoos: null, name: expect.stringMatching(/^Newbie/) });

    const rows = await genderAndCountry((await matches()).results.map((r) => r.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.gender).toBe("male");
  });

  it("refuses a country the site does not serve and unknown interests, changing nothing", async () => {
    const country = await expectError(await call(api, "PUT", "/api/profile.php", { token, body: { country: "JP", about_me: "changed" } }), 400, "validation_failed");
    expect(country.fields?.country).toBeDefined();
    const interests = await expectError(await call(api, "PUT", "/api/profile.php", { token, body: { interests: [1, 99_999] } }), 400, "validation_failed");
    expect(interests.fields?.interests).toBeDefined();
    const malformed = await expectError(await call(api, "PUT", "/api/profile.php", { token, body: { sexuality: "any", about_me: 5 } }), 400, "validation_failed");
    expect(Object.keys(malformed.fields ?? {})).toEqual(expect.arrayContaining(["sexuality", "about_me"]));
    const [row] = await api.db.select().from(profiles).where(eq(profiles.userId, userId));
    expect(row?.aboutMe).toBe("Hello!");
    expect(row?.country).toBe("NL");
  });
});
