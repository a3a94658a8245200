import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import { OkResponse } from "#contract/account";
import { UserResponse } from "#contract/user";
import { accountTokens, loginFailures, profiles, sessions, users } from "../../api/db/schema";
import { hashPassword, verifyPassword } from "../../api/domain/passwords";
import { hashToken } from "../../api/domain/sessions";
import {
  call,
  demoAccounts,
  insertMember,
  leakingLogLines,
  linkOf,
  login,
  mailsTo,
  sessionCookieOf,
  startApi,
  testSessionSecret,
  tokenFromMail,
  type Harness,
  expectApiError,
} from "./harness";

// Mailed single-use links: activation (and resending it), password reset, password change, e-mail change.
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
  if (api) {
    // The check means something only if the api really logged: requests and mails.
    expect(api.logLines.some((line) => line.includes('"mail sent"'))).toBe(true);
    expect(leakingLogLines(api, secrets)).toEqual([]);
  }
  await api?.close();
});


async function expectOk(res: Response) {
  expect(res.status).toBe(200);
  OkResponse.parse(await res.json());
}

async function token(address: string, linkPath: string): Promise<string> {
  const value = await tokenFromMail(api, address, linkPath);
  secrets.add(value);
  return value;
}

/** A session for a member inserted in the database, without a scrypt login: a row with the token's HMAC. */
async function sessionFor(userId: number): Promise<string> {
  const value = `test-session-${userId}-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  await api.db.insert(sessions).values({ userId, tokenHash: hashToken(value, testSessionSecret), expiresAt: new Date(Date.now() + 86_400_000) });
  secrets.add(value);
  return value;
}

async function signupMember(language = "en"): Promise<{ email: string; userId: number; session: string }> {
  const email = `activate-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  const res = await call(api, "POST", "/api/signup.php", { body: { email, name: "Activator", date_of_birth: "1990-01-01", password, language } });
  expect(res.status).toBe(201);
  const session = sessionCookieOf(res)!.value;
  secrets.add(session);
  return { email, userId: UserResponse.parse(await res.json()).user!.id, session };
}

async function tokenRows(userId: number, kind: "activation" | "password_reset" | "email_change") {
  return api.db.select().from(accountTokens).where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, kind)));
}

describe("activation", () => {
  it("activates with the mailed link once; the link then is used up", async () => {
    const { email, userId, session } = await signupMember("de");
    const value = await token(email, "/de/activate/done");
    // Only the HMAC is stored, with a 7-day expiry.
    const [row] = await tokenRows(userId, "activation");
    expect(row?.tokenHash).toBe(hashToken(value, testSessionSecret));
    expect(row?.tokenHash).not.toContain(value);
    const days = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 86_400_000;
    expect(days).toBe(7);

    await expectOk(await call(api, "POST", "/api/activate.php", { body: { token: value } }));
    const [user] = await api.db.select().from(users).where(eq(users.id, userId));
    expect(user?.status).toBe("active");
    expect(user?.emailConfirmedAt).toBeInstanceOf(Date);
    const [profile] = await api.db.select().from(profiles).where(eq(profiles.userId, userId));
    expect(profile?.status).toBe("active");
    const me = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: session })).json());
    expect(me.user?.status).toBe("active");

    const again = await expectApiError(await call(api, "POST", "/api/activate.php", { body: { token: value } }), 400, "link_invalid");
    expect(again.message).toBe("Link expired or invalid, request a new email");
  });

  it("of two simultaneous uses of one link exactly one succeeds", async () => {
    const { email } = await signupMember();
    const value = await token(email, "/activate/done");
    const results = await Promise.all([0, 1, 2].map(() => call(api, "POST", "/api/activate.php", { body: { token: value } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });

  it("refuses an expired link, an unknown one, and a malformed one", async () => {
    const { email, userId } = await signupMember();
    const value = await token(email, "/activate/done");
    await api.db.update(accountTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(accountTokens.userId, userId));
    await expectApiError(await call(api, "POST", "/api/activate.php", { body: { token: value } }), 400, "link_invalid");
    const [user] = await api.db.select().from(users).where(eq(users.id, userId));
    expect(user?.status).toBe("not_confirmed");
    await expectApiError(await call(api, "POST", "/api/activate.php", { body: { token: "A".repeat(43) } }), 400, "link_invalid");
    await expectApiError(await call(api, "POST", "/api/activate.php", { body: { token: "short" } }), 400, "validation_failed");
    await expectApiError(await call(api, "POST", "/api/activate.php", { body: {} }), 400, "validation_failed");
    // A password reset token is no activation token.
    const reset = await insertMember(api, { passwordHash, status: "not_confirmed" });
    await expectOk(await call(api, "POST", "/api/password-reset.php", { body: { email: reset.email } }));
    await expectApiError(await call(api, "POST", "/api/activate.php", { body: { token: await token(reset.email, "/reset-password/do") } }), 400, "link_invalid");
  });

  it("resends the activation mail at most 3 times an hour, the signup mail included", async () => {
    const { email, userId, session } = await signupMember();
    await expectOk(await call(api, "POST", "/api/activation-mail.php", { token: session }));
    await expectOk(await call(api, "POST", "/api/activation-mail.php", { token: session }));
    await expectApiError(await call(api, "POST", "/api/activation-mail.php", { token: session }), 429, "too_many_requests");
    expect(await mailsTo(api, email, "/activate/done")).toHaveLength(3);
    expect(await tokenRows(userId, "activation")).toHaveLength(3);

    // An hour later the count starts again; any of the links activates.
    await api.db.update(accountTokens).set({ createdAt: new Date(Date.now() - 61 * 60_000) }).where(eq(accountTokens.userId, userId));
    await expectOk(await call(api, "POST", "/api/activation-mail.php", { token: session }));
    expect(await mailsTo(api, email, "/activate/done")).toHaveLength(4);
    await expectOk(await call(api, "POST", "/api/activate.php", { body: { token: await token(email, "/activate/done") } }));

    // Confirmed: nothing to resend, no mail.
    await expectOk(await call(api, "POST", "/api/activation-mail.php", { token: session }));
    expect(await mailsTo(api, email, "/activate/done")).toHaveLength(4);
  });
});

describe("password reset", () => {
  it("answers email_not_found for an address the site does not know", async () => {
    const body = await expectApiError(await call(api, "POST", "/api/password-reset.php", { body: { email: "nobody-here@example.com" } }), 404, "email_not_found");
    expect(body.message).toBe("E-mail address not found");
    await expectApiError(await call(api, "POST", "/api/password-reset.php", { body: { email: demoAccounts.free.email }, host: "gay.localhost" }), 404, "email_not_found");
    await expectApiError(await call(api, "POST", "/api/password-reset.php", { body: { email: "nope" } }), 400, "validation_failed");
  });

  it("mails a 2-hour link; using it sets the password, ends every session and clears login failures", async () => {
    const member = await insertMember(api, { passwordHash, language: "fr" });
    const session = await sessionFor(member.userId);
    await api.db.insert(loginFailures).values({ userId: member.userId });
    await expectOk(await call(api, "POST", "/api/password-reset.php", { body: { email: member.email.toUpperCase() } }));
    const [mail] = await mailsTo(api, member.email, "/reset-password/do");
    expect(mail?.subject).toContain("Rendezvous");
    expect(linkOf(mail!, "/reset-password/do")?.pathname).toBe("/fr/reset-password/do");
    const value = await token(member.email, "/reset-password/do");
    const [row] = await tokenRows(member.userId, "password_reset");
    expect((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 3_600_000).toBe(2);

    await expectApiError(await call(api, "POST", "/api/password-reset-do.php", { body: { token: value, password: "short" } }), 400, "validation_failed");
    await expectOk(await call(api, "POST", "/api/password-reset-do.php", { body: { token: value, password: newPassword } }));
    const [user] = await api.db.select().from(users).where(eq(users.id, member.userId));
    expect(await verifyPassword(newPassword, user!.passwordHash)).toBe(true);
    const [sessionCount] = await api.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, member.userId));
    expect(sessionCount?.n).toBe(0);
    const [failureCount] = await api.db.select({ n: count() }).from(loginFailures).where(eq(loginFailures.userId, member.userId));
    expect(failureCount?.n).toBe(0);
    expect(UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: session })).json()).user).toBeNull();
    secrets.add(await login(api.baseUrl, member.email, newPassword));

    await expectApiError(await call(api, "POST", "/api/password-reset-do.php", { body: { token: value, password: "third-password-789" } }), 400, "link_invalid");
  });

  it("links to the configured origin, whatever host, port or scheme the request forwards", async () => {
    // The harness configures PUBLIC_URL=http://{domain}: the site's domain, as an operator's https://{domain}.
    const member = await insertMember(api, { passwordHash });
    const forged = { "X-Forwarded-Host": "localhost:6666", "X-Forwarded-Proto": "https" };
    await expectOk(await call(api, "POST", "/api/password-reset.php", { body: { email: member.email }, headers: forged }));
    const [mail] = await mailsTo(api, member.email, "/reset-password/do");
    expect(linkOf(mail!, "/reset-password/do")?.origin).toBe("http://localhost");
    expect(mail!.text).not.toContain("6666");
    expect(mail!.html).not.toContain("6666");
    // Another site: its own domain, with the same template.
    const niche = await insertMember(api, { passwordHash, host: "she.localhost" });
    await expectOk(await call(api, "POST", "/api/password-reset.php", { host: "she.localhost", body: { email: niche.email }, headers: { ...forged, "X-Forwarded-Host": "she.localhost:6666" } }));
    const [nicheMail] = await mailsTo(api, niche.email, "/reset-password/do");
    expect(linkOf(nicheMail!, "/reset-password/do")?.origin).toBe("http://she.localhost");
  });

  it("refuses an expired reset link", async () => {
    const member = await insertMember(api, { passwordHash });
    await expectOk(await call(api, "POST", "/api/password-reset.php", { body: { email: member.email } }));
    const value = await token(member.email, "/reset-password/do");
    await api.db.update(accountTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(accountTokens.userId, member.userId));
    await expectApiError(await call(api, "POST", "/api/password-reset-do.php", { body: { token: value, password: newPassword } }), 400, "link_invalid");
    const [user] = await api.db.select().from(users).where(eq(users.id, member.userId));
    expect(user?.passwordHash).toBe(passwordHash);
  });

  it("sends at most 3 reset mails a day per account", async () => {
    const member = await insertMember(api, { passwordHash });
    for (let i = 0; i < 3; i++) await expectOk(await call(api, "POST", "/api/password-reset.php", { body: { email: member.email } }));
    const body = await expectApiError(await call(api, "POST", "/api/password-reset.php", { body: { email: member.email } }), 429, "too_many_reset_mails");
    expect(body.message).toBe("Too many password reset emails sent, please try again tomorrow.");
    expect(await mailsTo(api, member.email, "/reset-password/do")).toHaveLength(3);
    // A day later it works again.
    await api.db.update(accountTokens).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(accountTokens.userId, member.userId));
    await expectOk(await call(api, "POST", "/api/password-reset.php", { body: { email: member.email } }));
  });
});

describe("PUT /api/password.php", () => {
  it("refuses a wrong old password; the right one changes it and logs out other devices only", async () => {
    const member = await insertMember(api, { passwordHash });
    const current = await sessionFor(member.userId);
    const other = await sessionFor(member.userId);
    const wrong = await expectApiError(await call(api, "PUT", "/api/password.php", { token: current, body: { old_password: "not-my-password", password: newPassword } }), 400, "old_password_wrong");
    expect(wrong.message).toBe("Please check your old password.");
    await expectApiError(await call(api, "PUT", "/api/password.php", { token: current, body: { old_password: password, password: "short" } }), 400, "validation_failed");

    await expectOk(await call(api, "PUT", "/api/password.php", { token: current, body: { old_password: password, password: newPassword } }));
    const [user] = await api.db.select().from(users).where(eq(users.id, member.userId));
    expect(await verifyPassword(newPassword, user!.passwordHash)).toBe(true);
    expect(UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: current })).json()).user?.id).toBe(member.userId);
    expect(UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: other })).json()).user).toBeNull();
  });
});

describe("e-mail change", () => {
  it("mails the link to the new address; using it changes the address and confirms it", async () => {
    const member = await insertMember(api, { passwordHash, status: "not_confirmed", language: "sv" });
    const session = await sessionFor(member.userId);
    const newEmail = `changed-${Date.now()}@example.com`;
    await expectApiError(await call(api, "POST", "/api/mail-change.php", { token: session, body: { email: newEmail, password: "wrong-password" } }), 400, "password_wrong");
    await expectOk(await call(api, "POST", "/api/mail-change.php", { token: session, body: { email: newEmail.toUpperCase(), password } }));
    // The old address gets the notice only, never the link.
    expect(await mailsTo(api, member.email, "/mail-change/do")).toHaveLength(0);
    expect(await mailsTo(api, member.email, "/reset-password")).toHaveLength(1);
    const [mail] = await mailsTo(api, newEmail, "/mail-change/do");
    expect(mail?.subject).toContain("Rendezvous");
    expect(linkOf(mail!, "/mail-change/do")?.pathname).toBe("/sv/mail-change/do");
    const value = await token(newEmail, "/mail-change/do");
    const [row] = await tokenRows(member.userId, "email_change");
    expect(row?.newEmail).toBe(newEmail);
    expect((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 3_600_000).toBe(24);

    await expectOk(await call(api, "POST", "/api/mail-change-do.php", { body: { token: value } }));
    const [user] = await api.db.select().from(users).where(eq(users.id, member.userId));
    expect(user?.email).toBe(newEmail);
    expect(user?.status).toBe("active");
    expect(user?.emailConfirmedAt).toBeInstanceOf(Date);
    await expectApiError(await call(api, "POST", "/api/mail-change-do.php", { body: { token: value } }), 400, "link_invalid");
  });

  it("answers email_taken for an address in use on the site (also the member's own)", async () => {
    const member = await insertMember(api, { passwordHash });
    const session = await sessionFor(member.userId);
    const taken = await expectApiError(await call(api, "POST", "/api/mail-change.php", { token: session, body: { email: demoAccounts.premium.email, password } }), 409, "email_taken");
    expect(taken.message).toBe("This e-mail address is already in use.");
    await expectApiError(await call(api, "POST", "/api/mail-change.php", { token: session, body: { email: member.email, password } }), 409, "email_taken");
    await expectApiError(await call(api, "POST", "/api/mail-change.php", { token: session, body: { email: "no-address", password } }), 400, "validation_failed");
    expect(await tokenRows(member.userId, "email_change")).toHaveLength(0);
  });

  it("answers email_taken when another account took the address before the link was used, changing nothing", async () => {
    const member = await insertMember(api, { passwordHash });
    const session = await sessionFor(member.userId);
    const newEmail = `contested-${Date.now()}@example.com`;
    await expectOk(await call(api, "POST", "/api/mail-change.php", { token: session, body: { email: newEmail, password } }));
    const value = await token(newEmail, "/mail-change/do");
    await insertMember(api, { passwordHash, email: newEmail });
    await expectApiError(await call(api, "POST", "/api/mail-change-do.php", { body: { token: value } }), 409, "email_taken");
    const [user] = await api.db.select().from(users).where(eq(users.id, member.userId));
    expect(user?.email).toBe(member.email);
  });
});
