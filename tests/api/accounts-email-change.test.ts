import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { OkResponse } from "#contract/account";
import { accountTokens, sessions, users } from "../../api/db/schema";
import { hashPassword, verifyPassword } from "../../api/domain/passwords";
import { confirmEmailChange } from "../../api/domain/accounts/email-change";
import { issueToken, issueTokenLimited, takeoverLinkKinds } from "../../api/domain/accounts/tokens";
import { hashToken } from "../../api/domain/sessions";
import { call, expectApiError, insertMember, leakingLogLines, linkOf, mailsTo, startApi, testSessionSecret, tokenFromMail, type Harness } from "./harness";

// E-mail change against account takeover: one live link at a time, voided by password changes,
// single-use under concurrency, a notice to the old address, and a daily limit.
let api: Harness;
let passwordHash: string;
const password = "first-password-123";
const newPassword = "second-password-456";
const secrets = new Set<string>([password, newPassword]);

beforeAll(async () => {
  api = await startApi();
  passwordHash = await hashPassword(password);
});
afterAll(async () => {
  if (api) expect(leakingLogLines(api, secrets)).toEqual([]);
  await api?.close();
});

async function expectOk(res: Response) {
  expect(res.status).toBe(200);
  OkResponse.parse(await res.json());
}

let addressCounter = 0;
function freshAddress(label: string): string {
  return `${label}-${Date.now()}-${++addressCounter}@example.com`;
}

/** A member with a session (a row with the token's HMAC, no scrypt login). */
async function memberWithSession(language = "en"): Promise<{ userId: number; email: string; session: string }> {
  const member = await insertMember(api, { passwordHash, language });
  const session = `test-session-${member.userId}-${Math.random().toString(36).slice(2)}`;
  await api.db.insert(sessions).values({ userId: member.userId, tokenHash: hashToken(session, testSessionSecret), expiresAt: new Date(Date.now() + 86_400_000) });
  secrets.add(session);
  return { ...member, session };
}

function requestChange(session: string, email: string): Promise<Response> {
  return call(api, "POST", "/api/mail-change.php", { token: session, body: { email, password } });
}

/** Asks for a change to `newEmail` and returns the token mailed there. */
async function changeToken(session: string, newEmail: string): Promise<string> {
  await expectOk(await requestChange(session, newEmail));
  return token(newEmail, "/mail-change/do");
}

async function token(address: string, linkPath: string): Promise<string> {
  const value = await tokenFromMail(api, address, linkPath);
  secrets.add(value);
  return value;
}

async function resetToken(email: string): Promise<string> {
  await expectOk(await call(api, "POST", "/api/password-reset.php", { body: { email } }));
  return token(email, "/reset-password/do");
}

const confirm = (value: string) => call(api, "POST", "/api/mail-change-do.php", { body: { token: value } });

async function addressOf(userId: number): Promise<string | undefined> {
  const [user] = await api.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email;
}

describe("links of an earlier change", () => {
  it("stop working once a newer change is requested; the newest one works", async () => {
    const member = await memberWithSession();
    const first = await changeToken(member.session, freshAddress("first"));
    const secondAddress = freshAddress("second");
    const second = await changeToken(member.session, secondAddress);
    await expectApiError(await confirm(first), 400, "link_invalid");
    expect(await addressOf(member.userId)).toBe(member.email);
    await expectOk(await confirm(second));
    expect(await addressOf(member.userId)).toBe(secondAddress);
  });

  it("stop working after a password change, and so do pending reset links", async () => {
    const member = await memberWithSession();
    const change = await changeToken(member.session, freshAddress("before-password-change"));
    const reset = await resetToken(member.email);
    await expectOk(await call(api, "PUT", "/api/password.php", { token: member.session, body: { old_password: password, password: newPassword } }));
    await expectApiError(await confirm(change), 400, "link_invalid");
    await expectApiError(await call(api, "POST", "/api/password-reset-do.php", { body: { token: reset, password: "third-password-789" } }), 400, "link_invalid");
    expect(await addressOf(member.userId)).toBe(member.email);
    const [user] = await api.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, member.userId));
    expect(await verifyPassword(newPassword, user?.hash ?? null)).toBe(true);
  });

  it("stop working after a password reset", async () => {
    const member = await memberWithSession();
    const change = await changeToken(member.session, freshAddress("before-reset"));
    await expectOk(await call(api, "POST", "/api/password-reset-do.php", { body: { token: await resetToken(member.email), password: newPassword } }));
    await expectApiError(await confirm(change), 400, "link_invalid");
    expect(await addressOf(member.userId)).toBe(member.email);
  });
});

describe("a new e-mail change request", () => {
  it("voids pending password reset links", async () => {
    const member = await memberWithSession();
    const reset = await resetToken(member.email);
    await expectOk(await requestChange(member.session, freshAddress("after-reset-mail")));
    await expectApiError(await call(api, "POST", "/api/password-reset-do.php", { body: { token: reset, password: newPassword } }), 400, "link_invalid");
    const [user] = await api.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, member.userId));
    expect(user?.hash).toBe(passwordHash);
  });
});

describe("confirming", () => {
  it("of parallel confirmations of one link exactly one succeeds", async () => {
    const member = await memberWithSession();
    const newEmail = freshAddress("parallel");
    const value = await changeToken(member.session, newEmail);
    const results = await Promise.all([0, 1, 2, 3].map(() => confirm(value)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    expect(await addressOf(member.userId)).toBe(newEmail);
  });

  it("racing a new request on the same account, both finish without a deadlock", async () => {
    // Straight on the database: over HTTP the password check (scrypt) keeps the two apart.
    const member = await insertMember(api, { passwordHash });
    for (let i = 0; i < 20; i++) {
      const value = await issueToken(api.db, testSessionSecret, member.userId, "email_change", { newEmail: freshAddress("race") });
      const [confirmed] = await Promise.all([
        confirmEmailChange(api.db, testSessionSecret, value),
        issueTokenLimited(api.db, testSessionSecret, member.userId, "email_change", { max: 1000, windowMs: 60_000 }, new Date(), { newEmail: freshAddress("race-next"), voids: takeoverLinkKinds }),
      ]);
      expect(["ok", "link_invalid"]).toContain(confirmed);
    }
  });
});

describe("the notice to the old address", () => {
  it("says the address is being changed (masked), links to the password reset in the member's language, and carries no secret", async () => {
    const member = await memberWithSession("de");
    // Refused requests tell nobody.
    await expectApiError(await call(api, "POST", "/api/mail-change.php", { token: member.session, body: { email: freshAddress("wrong"), password: "not-my-password" } }), 400, "password_wrong");
    await expectApiError(await requestChange(member.session, member.email), 409, "email_taken");
    const newEmail = freshAddress("notice");
    const value = await changeToken(member.session, newEmail);
    const notices = await mailsTo(api, member.email);
    expect(notices).toHaveLength(1);
    const notice = notices[0]!;
    expect(notice.subject).toContain("Rendezvous");
    const link = linkOf(notice, "/reset-password");
    expect(link?.pathname).toBe("/de/reset-password");
    expect(link?.search).toBe("");
    // The new address appears masked only, the change's token not at all.
    expect(notice.text).toContain("n***@e***.com");
    for (const body of [notice.text, notice.html]) {
      expect(body).not.toContain(value);
      expect(body).not.toContain(encodeURIComponent(value));
      expect(body.toLowerCase()).not.toContain(newEmail.toLowerCase());
      expect(body).not.toContain("/mail-change/do");
    }
    // German, like the member.
    expect(notice.text).toContain("Passwort");
  });
});

describe("the daily limit", () => {
  it("sends at most 3 e-mail-change mails per account a day, counted in the database", async () => {
    const member = await memberWithSession();
    const addresses = [0, 1, 2, 3, 4].map(() => freshAddress("limit"));
    // In parallel: the count holds under concurrency, not just one request after another.
    const results = await Promise.all(addresses.map((address) => requestChange(member.session, address)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    for (const res of results) if (res.status === 429) await expectApiError(res, 429, "too_many_requests");
    const mailed = (await Promise.all(addresses.map((address) => mailsTo(api, address, "/mail-change/do")))).filter((m) => m.length > 0);
    expect(mailed).toHaveLength(3);
    expect(await mailsTo(api, member.email)).toHaveLength(3);
    const rows = await api.db.select().from(accountTokens).where(and(eq(accountTokens.userId, member.userId), eq(accountTokens.kind, "email_change")));
    expect(rows).toHaveLength(3);

    // A refused request voids nothing: the newest link still works.
    const newest = rows.sort((a, b) => b.id - a.id)[0]!;
    await expectApiError(await requestChange(member.session, freshAddress("refused")), 429, "too_many_requests");
    expect(await mailsTo(api, member.email)).toHaveLength(3);
    await expectOk(await confirm(await token(newest.newEmail!, "/mail-change/do")));
    expect(await addressOf(member.userId)).toBe(newest.newEmail);

    // A day later it works again.
    await api.db.update(accountTokens).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(accountTokens.userId, member.userId));
    await expectOk(await requestChange(member.session, freshAddress("next-day")));
  });
});
