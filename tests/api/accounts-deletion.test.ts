import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { DismissalsResponse, OkResponse } from "#contract/account";
import { UserResponse } from "#contract/user";
import { accountTokens, creditLedger, dataExports, photos, profiles, sessions, users } from "../../api/db/schema";
import { exportFile } from "../../api/domain/accounts/data-export";
import { eraseDeletedAccounts } from "../../api/jobs/erase-deleted-accounts";
import { hashPassword } from "../../api/domain/passwords";
import { hashToken } from "../../api/domain/sessions";
import { call, insertMember, leakingLogLines, linkOf, mailsTo, sessionCookieOf, startApi, testSessionSecret, tokenFromMail, type Harness, expectApiError } from "./harness";

// Deletion, the pending-deletion login, reactivation, the erase job, dismissals, and member-only endpoints.
let api: Harness;
let passwordHash: string;
const password = "delete-me-password";
const secrets = new Set<string>([password]);
const day = 86_400_000;

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


async function sessionFor(userId: number): Promise<string> {
  const value = `test-session-${userId}-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  await api.db.insert(sessions).values({ userId, tokenHash: hashToken(value, testSessionSecret), expiresAt: new Date(Date.now() + day) });
  secrets.add(value);
  return value;
}

async function reactivationToken(email: string): Promise<string> {
  const value = await tokenFromMail(api, email, "/account-deleted");
  secrets.add(value);
  return value;
}

function loginAs(email: string, pw = password) {
  return call(api, "POST", "/api/user.php", { body: { email, password: pw } });
}

async function deleteMember(member: { userId: number }, session?: string) {
  const res = await call(api, "POST", "/api/delete-account.php", { token: session ?? (await sessionFor(member.userId)), body: { password, reason: "found someone" } });
  expect(res.status).toBe(200);
  OkResponse.parse(await res.json());
  return res;
}

describe("POST /api/delete-account.php", () => {
  it("refuses a wrong password and keeps the account", async () => {
    const member = await insertMember(api, { passwordHash });
    const session = await sessionFor(member.userId);
    await expectApiError(await call(api, "POST", "/api/delete-account.php", { token: session, body: { password: "wrong-password" } }), 400, "password_wrong");
    await expectApiError(await call(api, "POST", "/api/delete-account.php", { token: session, body: {} }), 400, "validation_failed");
    expect(UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: session })).json()).user?.id).toBe(member.userId);
  });

  it("soft-deletes: status deleted, every session gone, cookie cleared, reactivation link mailed; login then says pending deletion", async () => {
    const member = await insertMember(api, { passwordHash, language: "nb" });
    const session = await sessionFor(member.userId);
    const other = await sessionFor(member.userId);
    const res = await deleteMember(member, session);
    const cookie = sessionCookieOf(res);
    expect(cookie?.value).toBe("");
    expect(cookie?.attributes.map((a) => a.toLowerCase())).toContain("max-age=0");

    const [user] = await api.db.select().from(users).where(eq(users.id, member.userId));
    expect(user?.status).toBe("deleted");
    expect(Date.now() - user!.deletedAt!.getTime()).toBeLessThan(60_000);
    expect(user?.deletionReason).toBe("found someone");
    const [profile] = await api.db.select().from(profiles).where(eq(profiles.userId, member.userId));
    expect(profile?.status).toBe("disabled");
    for (const token of [session, other]) expect(UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token })).json()).user).toBeNull();

    const mails = await mailsTo(api, member.email, "/account-deleted");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain("Rendezvous");
    expect(linkOf(mails[0]!, "/account-deleted")?.pathname).toBe("/nb/account-deleted");
    const [token] = await api.db.select().from(accountTokens).where(eq(accountTokens.userId, member.userId));
    expect((token!.expiresAt.getTime() - token!.createdAt.getTime()) / day).toBe(14);

    // Right password: 409 account_pending_deletion, no session; a wrong one stays login_failed.
    const pending = await expectApiError(await loginAs(member.email), 409, "account_pending_deletion");
    expect(pending.message).toMatch(/reactivate/);
    await expectApiError(await loginAs(member.email, "wrong-password"), 401, "login_failed");
    // A fresh reactivation mail at most once an hour.
    expect(await mailsTo(api, member.email, "/account-deleted")).toHaveLength(1);
    await api.db.update(accountTokens).set({ createdAt: new Date(Date.now() - 61 * 60_000) }).where(eq(accountTokens.userId, member.userId));
    await expectApiError(await loginAs(member.email), 409, "account_pending_deletion");
    expect(await mailsTo(api, member.email, "/account-deleted")).toHaveLength(2);
  });
});

describe("POST /api/reactivate.php", () => {
  it("brings the account back as it was, logs the member in, and works once", async () => {
    const member = await insertMember(api, { passwordHash });
    await deleteMember(member);
    const value = await reactivationToken(member.email);
    const res = await call(api, "POST", "/api/reactivate.php", { body: { token: value } });
    expect(res.status).toBe(200);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.id).toBe(member.userId);
    expect(user?.status).toBe("active");
    expect(user?.profile.status).toBe("active");
    const cookie = sessionCookieOf(res);
    expect(cookie?.value).toBeTruthy();
    secrets.add(cookie!.value);
    expect(cookie?.attributes.map((a) => a.toLowerCase())).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "max-age=2592000"]));
    expect(UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: cookie!.value })).json()).user?.id).toBe(member.userId);
    const [row] = await api.db.select().from(users).where(eq(users.id, member.userId));
    expect(row?.deletedAt).toBeNull();
    expect(row?.deletionReason).toBeNull();
    await expectApiError(await call(api, "POST", "/api/reactivate.php", { body: { token: value } }), 400, "link_invalid");
  });

  it("returns an unconfirmed account to not_confirmed", async () => {
    const member = await insertMember(api, { passwordHash, status: "not_confirmed" });
    await deleteMember(member);
    const res = await call(api, "POST", "/api/reactivate.php", { body: { token: await reactivationToken(member.email) } });
    expect(res.status).toBe(200);
    secrets.add(sessionCookieOf(res)!.value);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.status).toBe("not_confirmed");
    expect(user?.profile.status).toBe("disabled");
  });

  it("refuses after 14 days, whether the link or the deletion is too old", async () => {
    const member = await insertMember(api, { passwordHash });
    await deleteMember(member);
    const value = await reactivationToken(member.email);
    await api.db.update(users).set({ deletedAt: new Date(Date.now() - 15 * day) }).where(eq(users.id, member.userId));
    await expectApiError(await call(api, "POST", "/api/reactivate.php", { body: { token: value } }), 400, "link_invalid");
    // After 14 days a login is a plain failure: the account is on its way to erasure.
    await expectApiError(await loginAs(member.email), 401, "login_failed");

    const second = await insertMember(api, { passwordHash });
    await deleteMember(second);
    const old = await reactivationToken(second.email);
    await api.db.update(accountTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(accountTokens.userId, second.userId));
    await expectApiError(await call(api, "POST", "/api/reactivate.php", { body: { token: old } }), 400, "link_invalid");
    const [row] = await api.db.select().from(users).where(eq(users.id, second.userId));
    expect(row?.status).toBe("deleted");
  });
});

describe("erase job", () => {
  it("erases personal data of accounts deleted over 14 days ago, once, and leaves newer deletions alone", async () => {
    const now = new Date();
    const old = await insertMember(api, { passwordHash, status: "deleted", deletedAt: new Date(now.getTime() - 15 * day) });
    const recent = await insertMember(api, { passwordHash, status: "deleted", deletedAt: new Date(now.getTime() - 13 * day) });
    const live = await insertMember(api, { passwordHash });
    await api.db.update(users).set({ network: "net", ref: "ref", sub1: "s1", sub2: "s2", sub3: "s3", deletionReason: "found someone" }).where(eq(users.id, old.userId));
    await api.db.update(profiles).set({ aboutMe: "About me", city: "Utrecht", region: "UT", signupMessage: "Hi" }).where(eq(profiles.userId, old.userId));
    await api.db.insert(creditLedger).values({ userId: old.userId, delta: 20, balanceAfter: 20, reason: "signup" });
    const uploads = path.join(api.dataDir, "uploads");
    mkdirSync(path.join(uploads, "members"), { recursive: true });
    const file = `members/${old.profileId}.jpg`;
    writeFileSync(path.join(uploads, file), "jpeg");
    await api.db.insert(photos).values({ profileId: old.profileId, siteId: old.siteId, filename: file, thumbFilename: file, status: "active" });
    await api.db.insert(accountTokens).values({ userId: old.userId, kind: "email_change", tokenHash: "h-old", newEmail: "next@example.com", expiresAt: now });
    const exportToken = `erase-test-${old.userId}`;
    mkdirSync(path.dirname(exportFile(api.dataDir, exportToken)), { recursive: true });
    writeFileSync(exportFile(api.dataDir, exportToken), "zip");
    await api.db.insert(dataExports).values({ userId: old.userId, token: exportToken, status: "ready", origin: "http://localhost" });

    const first = await eraseDeletedAccounts(api.db, { now, dataDir: api.dataDir });
    // Earlier tests left an account deleted 15 days ago too: it goes in the same pass.
    expect(first.erased).toContain(old.userId);
    expect(first.erased).not.toContain(recent.userId);
    expect(first.erased).not.toContain(live.userId);
    const [user] = await api.db.select().from(users).where(eq(users.id, old.userId));
    expect(user).toMatchObject({
      email: `erased-${old.userId}@erased.invalid`,
      passwordHash: null,
      network: null,
      ref: null,
      sub1: null,
      sub2: null,
      sub3: null,
      deletionReason: null,
      status: "erased",
      erasedAt: now,
    });
    const [profile] = await api.db.select().from(profiles).where(eq(profiles.userId, old.userId));
    expect(profile).toMatchObject({ name: "Deleted member", aboutMe: "", city: null, region: null, signupMessage: null, status: "disabled" });
    const [photoCount] = await api.db.select({ n: count() }).from(photos).where(eq(photos.profileId, old.profileId));
    expect(photoCount?.n).toBe(0);
    expect(existsSync(path.join(uploads, file))).toBe(false);
    const [tokenCount] = await api.db.select({ n: count() }).from(accountTokens).where(eq(accountTokens.userId, old.userId));
    expect(tokenCount?.n).toBe(0);
    // The data export, which holds all of it, goes with its file.
    expect(await api.db.select().from(dataExports).where(eq(dataExports.userId, old.userId))).toEqual([]);
    expect(existsSync(exportFile(api.dataDir, exportToken))).toBe(false);
    // The ledger is bookkeeping and stays.
    const [ledgerCount] = await api.db.select({ n: count() }).from(creditLedger).where(eq(creditLedger.userId, old.userId));
    expect(ledgerCount?.n).toBe(1);

    for (const id of [recent.userId, live.userId]) {
      const [row] = await api.db.select().from(users).where(eq(users.id, id));
      expect(row?.erasedAt).toBeNull();
    }
    // Idempotent: nothing left to do on a second pass.
    expect((await eraseDeletedAccounts(api.db, { now, dataDir: api.dataDir })).erased).toEqual([]);
    // Two days on, the recent one is due.
    expect((await eraseDeletedAccounts(api.db, { now: new Date(now.getTime() + 2 * day), dataDir: api.dataDir })).erased).toContain(recent.userId);
    await expectApiError(await loginAs(old.email), 401, "login_failed");
  });
});

describe("dismissals", () => {
  it("stores each dismissal with its time, renews it, and keeps it across requests", async () => {
    const member = await insertMember(api, { passwordHash });
    const session = await sessionFor(member.userId);
    const empty = DismissalsResponse.parse(await (await call(api, "GET", "/api/dismissals.php", { token: session })).json());
    expect(empty.dismissals).toEqual({});

    const first = await call(api, "POST", "/api/dismissals.php", { token: session, body: { key: "hide-enrich-alert" } });
    expect(first.status).toBe(200);
    const at = DismissalsResponse.parse(await first.json()).dismissals["hide-enrich-alert"];
    expect(Date.now() - Date.parse(at!)).toBeLessThan(60_000);
    await new Promise((r) => setTimeout(r, 20));
    await call(api, "POST", "/api/dismissals.php", { token: session, body: { key: "hide-time-bonus-modal" } });
    const renewed = await call(api, "POST", "/api/dismissals.php", { token: session, body: { key: "hide-enrich-alert" } });
    const later = DismissalsResponse.parse(await renewed.json()).dismissals["hide-enrich-alert"];
    expect(Date.parse(later!)).toBeGreaterThan(Date.parse(at!));

    const stored = DismissalsResponse.parse(await (await call(api, "GET", "/api/dismissals.php", { token: session })).json());
    expect(Object.keys(stored.dismissals).sort()).toEqual(["hide-enrich-alert", "hide-time-bonus-modal"]);
    await expectApiError(await call(api, "POST", "/api/dismissals.php", { token: session, body: { key: "hide-everything" } }), 400, "validation_failed");
    // Another member sees none of them.
    const stranger = await sessionFor((await insertMember(api, { passwordHash })).userId);
    expect(DismissalsResponse.parse(await (await call(api, "GET", "/api/dismissals.php", { token: stranger })).json()).dismissals).toEqual({});
  });
});

describe("member-only endpoints", () => {
  it.each([
    ["GET", "/api/signup-matches.php", undefined],
    ["POST", "/api/activation-mail.php", {}],
    ["PUT", "/api/profile.php", { about_me: "x" }],
    ["PUT", "/api/password.php", { old_password: "a", password: "abcdefgh" }],
    ["POST", "/api/mail-change.php", { email: "a@example.com", password: "x" }],
    ["POST", "/api/delete-account.php", { password: "x" }],
    ["GET", "/api/dismissals.php", undefined],
    ["POST", "/api/dismissals.php", { key: "hide-enrich-alert" }],
  ])("%s %s answers 403 authentication_required without a session", async (method, pathname, body) => {
    await expectApiError(await call(api, method, pathname, { body }), 403, "authentication_required");
    await expectApiError(await call(api, method, pathname, { body, token: "not-a-session-token" }), 403, "authentication_required");
  });
});
