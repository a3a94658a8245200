import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StaffResponse } from "#contract/staff";
import { StaffSetupDone, StaffSetupResponse } from "#contract/staff-setup";
import { openDatabase } from "../../api/db/client";
import { auditLog, staffSessions, staffTokens, staffUsers } from "../../api/db/schema";
import { addStaffAccount } from "../../api/domain/staff/accounts";
import { staffSessionCookieName } from "../../api/domain/staff/sessions";
import { addStaffWithSetupLink, pendingSetup, renewSetupLink, setupLink, setupLinkOrigin, setupTokenHash, setupTotpSecret } from "../../api/domain/staff/setup";
import { totpCode } from "../../api/domain/staff/totp";
import { expectApiError, postJson, startApi, testSessionSecret, type Harness } from "./harness";

/**
 * Staff set-up (docs/staff.md, Making staff accounts): a staff account made without a password or second factor
 * (`npm run staff -- add`, scripts/staff.ts), its single-use set-up link (72 hours) that shows the TOTP secret and
 * takes a password and the authenticator's code, the recovery codes shown once, a new link for an existing account,
 * and the staff password change.
 */
let api: Harness;
let made = 0;
const root = path.resolve(__dirname, "../..");
const password = "a-new-staff-password";

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api?.close());

async function newSetup(role: "admin" | "moderator" | "support" | "operator" = "support") {
  const email = `setup-${process.pid}-${++made}@example.com`;
  const outcome = await addStaffWithSetupLink(api.db, testSessionSecret, { email, name: `Set Up ${made}`, role, siteIds: [1] });
  if (outcome.kind !== "ok") throw new Error(`no set-up link: ${outcome.kind}`);
  return { email, id: outcome.staffUserId, token: outcome.token, expiresAt: outcome.expiresAt };
}

const getSetup = (token: string) => fetch(`${api.baseUrl}/api/staff/setup.php?token=${encodeURIComponent(token)}`);
const postSetup = (body: unknown) => postJson(api.baseUrl, "/api/staff/setup.php", body);
/** The authenticator's code for the link's secret, `steps` steps from now. */
const codeFor = (token: string, steps = 0) => totpCode(setupTotpSecret(token, testSessionSecret), Date.now() + steps * 30_000);
const wrongCode = (right: string) => (right === "000000" ? "111111" : "000000");

function staffCookieOf(res: Response): string | null {
  for (const raw of res.headers.getSetCookie()) {
    const [pair = ""] = raw.split(";");
    if (pair.startsWith(`${staffSessionCookieName}=`)) return decodeURIComponent(pair.slice(staffSessionCookieName.length + 1)) || null;
  }
  return null;
}
const asStaff = (token: string) => ({ Cookie: `${staffSessionCookieName}=${token}` });
const meStatus = async (token: string) => (await fetch(`${api.baseUrl}/api/staff/me.php`, { headers: asStaff(token) })).status;

async function staffLogin(email: string, secondFactor: string, pw = password): Promise<string> {
  const res = await postJson(api.baseUrl, "/api/staff/login.php", { email, password: pw, code: secondFactor });
  expect(res.status, await res.clone().text()).toBe(200);
  return staffCookieOf(res)!;
}

async function account(id: number) {
  const [row] = await api.db.select().from(staffUsers).where(eq(staffUsers.id, id));
  return row!;
}

describe("a staff account made for a set-up link", () => {
  it("has no password and no second factor, and a link whose token is kept only as its HMAC, for 72 hours", async () => {
    const before = Date.now();
    const setup = await newSetup("moderator");
    const row = await account(setup.id);
    expect(row).toMatchObject({ email: setup.email, role: "moderator", siteIds: [1], passwordHash: null, totpSecret: null, recoveryCodes: [] });
    const tokens = await api.db.select().from(staffTokens).where(eq(staffTokens.staffUserId, setup.id));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ kind: "setup", tokenHash: setupTokenHash(setup.token, testSessionSecret), usedAt: null });
    expect(JSON.stringify(tokens)).not.toContain(setup.token);
    expect(setup.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hours = (tokens[0]!.expiresAt.getTime() - before) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThan(72.1);
    // Such an account does not log in, whatever is tried.
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: setup.email, password: "anything-at-all", code: "123456" }), 401, "login_failed");
  });

  it("refuses an e-mail address already used and sites that do not exist", async () => {
    const setup = await newSetup();
    expect(await addStaffWithSetupLink(api.db, testSessionSecret, { email: setup.email.toUpperCase(), name: "Again", role: "admin", siteIds: [] })).toEqual({ kind: "email_taken" });
    expect(await addStaffWithSetupLink(api.db, testSessionSecret, { email: `other-${setup.email}`, name: "Nowhere", role: "support", siteIds: [1, 999_999] })).toEqual({
      kind: "unknown_sites",
      siteIds: [999_999],
    });
  });

  it("gets a link on PUBLIC_URL with the domain of a site it serves", async () => {
    expect(await setupLinkOrigin(api.db, "https://staff.example", { role: "support", siteIds: [] })).toBe("https://staff.example");
    const origin = await setupLinkOrigin(api.db, "http://{domain}", { role: "support", siteIds: [1] });
    expect(origin).toBe("http://localhost");
    expect(setupLink(origin!, "abc")).toBe("http://localhost/staff/setup/abc");
  });
});

describe("the set-up link", () => {
  it("shows the account and the same TOTP secret on every load", async () => {
    const setup = await newSetup();
    const res = await getSetup(setup.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const shown = StaffSetupResponse.parse(await res.json());
    expect(shown).toMatchObject({ email: setup.email, name: `Set Up ${made}`, totp_secret: setupTotpSecret(setup.token, testSessionSecret) });
    expect(shown.totp_secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(shown.otpauth_uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(shown.totp_secret);
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(decodeURIComponent(uri.pathname)).toContain(setup.email);
    expect(StaffSetupResponse.parse(await (await getSetup(setup.token)).json()).totp_secret).toBe(shown.totp_secret);
    // Another link, another secret.
    const other = await newSetup();
    expect(StaffSetupResponse.parse(await (await getSetup(other.token)).json()).totp_secret).not.toBe(shown.totp_secret);
  });

  it("refuses an unknown or malformed token", async () => {
    await expectApiError(await getSetup("A".repeat(43)), 400, "link_invalid");
    await expectApiError(await getSetup("not a token"), 400, "validation_failed");
    await expectApiError(await fetch(`${api.baseUrl}/api/staff/setup.php`), 400, "validation_failed");
    await expectApiError(await postSetup({ token: "A".repeat(43), password, code: "123456" }), 400, "link_invalid");
  });

  it("refuses a wrong code on the code field and stays usable; refuses a short password", async () => {
    const setup = await newSetup();
    const body = await expectApiError(await postSetup({ token: setup.token, password, code: wrongCode(codeFor(setup.token)) }), 400, "validation_failed");
    expect(Object.keys(body.fields ?? {})).toEqual(["code"]);
    const short = await expectApiError(await postSetup({ token: setup.token, password: "too-short", code: codeFor(setup.token) }), 400, "validation_failed");
    expect(Object.keys(short.fields ?? {})).toEqual(["password"]);
    expect(await account(setup.id)).toMatchObject({ passwordHash: null, totpSecret: null, recoveryCodes: [] });
    expect((await getSetup(setup.token)).status).toBe(200);
    const [token] = await api.db.select().from(staffTokens).where(eq(staffTokens.staffUserId, setup.id));
    expect(token?.usedAt).toBeNull();
  });

  it("with the right code sets the password and the second factor, answers ten recovery codes once, and is used up", async () => {
    const setup = await newSetup("operator");
    const res = await postSetup({ token: setup.token, password, code: codeFor(setup.token) });
    expect(res.status, await res.clone().text()).toBe(200);
    const { recovery_codes } = StaffSetupDone.parse(await res.json());
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    for (const code of recovery_codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);

    const row = await account(setup.id);
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.totpSecret).toBeTruthy();
    // Sealed, never the secret itself; the codes only as HMACs.
    expect(row.totpSecret).not.toContain(setupTotpSecret(setup.token, testSessionSecret));
    expect(row.recoveryCodes).toHaveLength(10);
    expect(row.recoveryCodes.some((hash) => recovery_codes.includes(hash))).toBe(false);
    const [token] = await api.db.select().from(staffTokens).where(eq(staffTokens.staffUserId, setup.id));
    expect(token?.usedAt).toBeInstanceOf(Date);
    // The set-up is in the audit log, the account acting on itself.
    const [entry] = await api.db.select().from(auditLog).where(and(eq(auditLog.staffUserId, setup.id), eq(auditLog.action, "staff.setup_completed")));
    expect(entry).toMatchObject({ targetType: "staff", targetId: String(setup.id), role: "operator", clientIp: "127.0.0.1" });

    // Used: neither shown nor taken again.
    await expectApiError(await getSetup(setup.token), 400, "link_invalid");
    await expectApiError(await postSetup({ token: setup.token, password: "another-password", code: codeFor(setup.token, 1) }), 400, "link_invalid");
    expect((await account(setup.id)).passwordHash).toBe(row.passwordHash);
  });

  it("lets the account log in with the password and the app's code afterwards (the enrolment code itself not again), or a recovery code", async () => {
    const setup = await newSetup("admin");
    const enrolment = codeFor(setup.token);
    const done = StaffSetupDone.parse(await (await postSetup({ token: setup.token, password, code: enrolment })).json());
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: setup.email, password, code: enrolment }), 401, "login_failed");
    const res = await postJson(api.baseUrl, "/api/staff/login.php", { email: setup.email, password, code: codeFor(setup.token, 1) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(StaffResponse.parse(await res.json()).staff).toMatchObject({ id: setup.id, email: setup.email, role: "admin" });
    expect(await meStatus(staffCookieOf(res)!)).toBe(200);
    const recovery = await postJson(api.baseUrl, "/api/staff/login.php", { email: setup.email, password, code: done.recovery_codes[3] });
    expect(StaffResponse.parse(await recovery.json()).recovery_codes_left).toBe(9);
  });

  it("refuses an expired link", async () => {
    const setup = await newSetup();
    await api.db.update(staffTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(staffTokens.staffUserId, setup.id));
    await expectApiError(await getSetup(setup.token), 400, "link_invalid");
    await expectApiError(await postSetup({ token: setup.token, password, code: codeFor(setup.token) }), 400, "link_invalid");
    expect((await account(setup.id)).passwordHash).toBeNull();
    expect(await pendingSetup(api.db, testSessionSecret, setup.token)).toBeNull();
  });

  it("lets exactly one of several set-ups with one link at once through", async () => {
    const setup = await newSetup();
    const code = codeFor(setup.token);
    const answers = await Promise.all(["first-password-1", "second-password-2", "third-password-3"].map((pw) => postSetup({ token: setup.token, password: pw, code })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400]);
    const winner = answers.findIndex((res) => res.status === 200);
    for (const [i, res] of answers.entries()) if (i !== winner) expect((await res.json()).error).toBe("link_invalid");
    const [audit] = await api.db.select().from(auditLog).where(and(eq(auditLog.staffUserId, setup.id), eq(auditLog.action, "staff.setup_completed")));
    expect(audit).toBeDefined();
    const winning = ["first-password-1", "second-password-2", "third-password-3"][winner]!;
    await staffLogin(setup.email, codeFor(setup.token, 1), winning);
  });
});

describe("a new set-up link for an existing account", () => {
  it("ends its sessions, password, second factor and earlier links; the new link sets them again", async () => {
    const email = `relink-${process.pid}@example.com`;
    const made = await addStaffAccount(api.db, testSessionSecret, { email, name: "Lost Phone", role: "support", siteIds: [1], password: "old-password-1" });
    const session = await staffLogin(email, totpCode(made.totpSecret), "old-password-1");
    expect(await meStatus(session)).toBe(200);
    const first = await renewSetupLink(api.db, testSessionSecret, email);
    const second = await renewSetupLink(api.db, testSessionSecret, email);
    if (first.kind !== "ok" || second.kind !== "ok") throw new Error("no link");
    expect(await meStatus(session)).toBe(403);
    expect(await api.db.select().from(staffSessions).where(eq(staffSessions.staffUserId, made.id))).toEqual([]);
    expect(await account(made.id)).toMatchObject({ passwordHash: null, totpSecret: null, recoveryCodes: [], totpLastStep: null });
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email, password: "old-password-1", code: made.recoveryCodes[0] }), 401, "login_failed");
    // Only the newest link works.
    await expectApiError(await getSetup(first.token), 400, "link_invalid");
    expect((await postSetup({ token: second.token, password, code: codeFor(second.token) })).status).toBe(200);
    await staffLogin(email, codeFor(second.token, 1));
    expect(await renewSetupLink(api.db, testSessionSecret, "nobody-here@example.com")).toEqual({ kind: "not_found" });
  });
});

describe("the staff password change", () => {
  async function staffWithTwoSessions() {
    const email = `change-${process.pid}-${++made}@example.com`;
    const account = await addStaffAccount(api.db, testSessionSecret, { email, name: "Changer", role: "moderator", siteIds: [1], password: "current-password-1" });
    const mine = await staffLogin(email, totpCode(account.totpSecret), "current-password-1");
    const other = await staffLogin(email, account.recoveryCodes[0]!, "current-password-1");
    return { ...account, email, mine, other };
  }
  const change = (token: string | null, body: unknown) => postJson(api.baseUrl, "/api/staff/password.php", body, token ? asStaff(token) : {});

  it("checks the current password, ends every session, opens a new one for the caller and records it without the password", async () => {
    const staff = await staffWithTwoSessions();
    const res = await change(staff.mine, { current_password: "current-password-1", password: "brand-new-password" });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const fresh = staffCookieOf(res);
    expect(fresh).toBeTruthy();
    expect(res.headers.getSetCookie().filter((raw) => raw.startsWith(`${staffSessionCookieName}=`)).map((raw) => /Path=([^;]+)/.exec(raw)?.[1])).toEqual(["/staff", "/staff.data"]);
    expect(await meStatus(fresh!)).toBe(200);
    expect(await meStatus(staff.mine)).toBe(403);
    expect(await meStatus(staff.other)).toBe(403);

    const [entry] = await api.db.select().from(auditLog).where(and(eq(auditLog.staffUserId, staff.id), eq(auditLog.action, "staff.password_changed"))).orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({ targetType: "staff", targetId: String(staff.id), role: "moderator", staffEmail: staff.email });
    const logged = JSON.stringify(entry);
    expect(logged).not.toContain("brand-new-password");
    expect(logged).not.toContain("current-password-1");

    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: staff.email, password: "current-password-1", code: staff.recoveryCodes[1] }), 401, "login_failed");
    await staffLogin(staff.email, staff.recoveryCodes[2]!, "brand-new-password");
  });

  it("refuses a wrong current password, a new one equal to it or too short, and a caller without a staff session", async () => {
    const staff = await staffWithTwoSessions();
    await expectApiError(await change(staff.mine, { current_password: "not-the-password", password: "brand-new-password" }), 400, "old_password_wrong");
    const same = await expectApiError(await change(staff.mine, { current_password: "current-password-1", password: "current-password-1" }), 400, "validation_failed");
    expect(Object.keys(same.fields ?? {})).toEqual(["password"]);
    await expectApiError(await change(staff.mine, { current_password: "current-password-1", password: "short" }), 400, "validation_failed");
    await expectApiError(await change(null, { current_password: "current-password-1", password: "brand-new-password" }), 403, "authentication_required");
    // Nothing changed: both sessions live, the old password still logs in.
    expect(await meStatus(staff.mine)).toBe(200);
    expect(await meStatus(staff.other)).toBe(200);
    const [entry] = await api.db.select().from(auditLog).where(and(eq(auditLog.staffUserId, staff.id), eq(auditLog.action, "staff.password_changed")));
    expect(entry).toBeUndefined();
    await staffLogin(staff.email, staff.recoveryCodes[1]!, "current-password-1");
  });
});

describe("npm run staff", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "rdv-staff-cli-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const secret = "c".repeat(40);

  /** scripts/staff.ts as `npm run staff` runs it, on a PGlite database of its own in `dataDir`. */
  function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ["DATABASE_URL", "APP_MODE", "NODE_ENV", "PUBLIC_URL"]) delete env[name];
    Object.assign(env, { DATA_DIR: dataDir, SESSION_SECRET: secret, PUBLIC_URL: "https://staff.example", LOG_LEVEL: "warn", PASSWORD_HASH_COST: "10" });
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/staff.ts", ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  it("adds an account and prints its set-up link; refuses a bad address, an unknown role and an address in use with one line", async () => {
    const added = await runCli(["add", "--email", "First.Admin@Example.com", "--role", "admin", "--name", "First Admin"]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const match = /^https:\/\/staff\.example\/staff\/setup\/([A-Za-z0-9_-]{43})\n$/.exec(added.stdout);
    expect(match, added.stdout).not.toBeNull();

    const badEmail = await runCli(["add", "--email", "not-an-address", "--role", "admin"]);
    expect(badEmail).toEqual({ code: 1, stdout: "", stderr: 'Not a valid e-mail address: "not-an-address".\n' });
    const badRole = await runCli(["add", "--email", "second@example.com", "--role", "boss"]);
    expect(badRole).toEqual({ code: 1, stdout: "", stderr: 'Unknown role "boss": one of admin, moderator, support, operator.\n' });
    const taken = await runCli(["add", "--email", "first.admin@example.com", "--role", "support"]);
    expect(taken.code).toBe(1);
    expect(taken.stdout).toBe("");
    expect(taken.stderr).toMatch(/^There is already a staff account with the e-mail address first\.admin@example\.com[^\n]*\n$/);

    // The printed link is the account's: its token opens the set-up of the lower-cased address.
    const database = await openDatabase({ dataDir });
    try {
      const setup = await pendingSetup(database.db, secret, match![1]!);
      expect(setup).toMatchObject({ email: "first.admin@example.com", name: "First Admin" });
      const [row] = await database.db.select().from(staffUsers).where(eq(staffUsers.email, "first.admin@example.com"));
      expect(row).toMatchObject({ role: "admin", passwordHash: null, totpSecret: null });
    } finally {
      await database.close();
    }
  }, 120_000);
});
