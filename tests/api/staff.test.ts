import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditResponse, DashboardResponse, StaffResponse } from "#contract/staff";
import { StaffAccountOutcome, StaffAccountsResponse } from "#contract/staff-accounts";
import { auditLog, staffUsers, staffRoles, users, type StaffRole } from "../../api/db/schema";
import { addStaffAccount } from "../../api/domain/staff/accounts";
import { staffPermissions } from "#contract/staff-permissions";
import { staffSessionCookieName } from "../../api/domain/staff/sessions";
import { totpCode } from "../../api/domain/staff/totp";
import { endpoints as endpointTable } from "#contract/endpoints/index";
import { staffActionOf } from "#contract/endpoints/endpoint";
import { demoAccounts, expectApiError, insertMember, login, postJson, startApi, testSessionSecret, type Harness } from "./harness";

/**
 * Staff accounts (docs/staff.md): login with a password and a TOTP code (or a recovery code), each code
 * once; the staff cookie; one gate for every staff endpoint, walked for every role; sessions that end with a disabled
 * account; and the audit log, append-only.
 */
let api: Harness;
const password = "staff-password-1";
type Account = { id: number; email: string; role: StaffRole; totpSecret: string; recoveryCodes: string[] };
let made = 0;

/** Every staff endpoint of the table (contract/endpoints/staff.ts), with the action its entry names. */
const staffEndpoints = Object.values(endpointTable).flatMap((endpoint) => {
  const action = staffActionOf(endpoint);
  return action ? [{ method: endpoint.method, path: endpoint.path, action }] : [];
});

/** A staff account of its own for a test: a code works once per account, and failures count per account. */
async function newStaff(role: StaffRole): Promise<Account> {
  const email = `${role}-${++made}-staff@example.com`;
  const account = await addStaffAccount(api.db, testSessionSecret, { email, name: `Test ${role}`, role, siteIds: [1], password });
  return { id: account.id, email, role, totpSecret: account.totpSecret, recoveryCodes: account.recoveryCodes };
}

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api?.close());

/** Each login needs a code not used before: the codes of the current step, then the next (the window allows one step). */
const codeAt = (account: Account, stepOffset = 0) => totpCode(account.totpSecret, Date.now() + stepOffset * 30_000);

function staffCookieOf(res: Response): { value: string; attributes: string[] } | null {
  for (const raw of res.headers.getSetCookie()) {
    const [pair = "", ...attributes] = raw.split(";").map((part) => part.trim());
    if (pair.startsWith(`${staffSessionCookieName}=`)) return { value: decodeURIComponent(pair.slice(staffSessionCookieName.length + 1)), attributes };
  }
  return null;
}

/** Logs in (with `code`, or the current TOTP code) and answers the staff session token. */
async function staffLogin(account: Account, code: string): Promise<string> {
  const res = await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code: code || codeAt(account) });
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = staffCookieOf(res);
  expect(cookie?.value).toBeTruthy();
  return cookie!.value;
}

const asStaff = (token: string) => ({ Cookie: `${staffSessionCookieName}=${token}` });

describe("staff login", () => {
  it("takes the password and a current code, and sets a strict, http-only cookie for /staff that lasts 12 hours", async () => {
    const support = await newStaff("support");
    const res = await postJson(api.baseUrl, "/api/staff/login.php", { email: support.email.toUpperCase(), password, code: codeAt(support) });
    expect(res.status).toBe(200);
    expect(StaffResponse.parse(await res.json()).staff).toMatchObject({ email: support.email, role: "support", site_ids: [1] });
    const cookie = staffCookieOf(res);
    expect(cookie?.attributes).toEqual(expect.arrayContaining(["Path=/staff", "SameSite=Strict", "HttpOnly", "Max-Age=43200"]));
    // The same token for the dashboard's data URL (Remix fetches /staff.data, which Path=/staff does not cover), and no other path.
    const paths = res.headers.getSetCookie().filter((raw) => raw.startsWith(`${staffSessionCookieName}=${cookie!.value};`)).map((raw) => /Path=([^;]+)/.exec(raw)?.[1]);
    expect(paths).toEqual(["/staff", "/staff.data"]);
    const me = await fetch(`${api.baseUrl}/api/staff/me.php`, { headers: asStaff(cookie!.value) });
    expect(StaffResponse.parse(await me.json()).staff.id).toBe(support.id);
  });

  it("refuses a wrong code, a code used before and a wrong password alike, and blocks after five failures", async () => {
    const account = await newStaff("operator");
    const code = codeAt(account, 1);
    await staffLogin(account, code);
    // The same code again (another session, same step): refused.
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code }), 401, "login_failed");
    const wrong = code === "000000" ? "111111" : "000000";
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code: wrong }), 401, "login_failed");
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password: "not-it", code: codeAt(account) }), 401, "login_failed");
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code: wrong }), 401, "login_failed");
    // The fifth failure blocks, and then even the right password and a fresh code wait.
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code: wrong }), 429, "login_blocked");
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code: codeAt(account, -1) }), 429, "login_blocked");
  });

  it("lets one of two logins with the same code at once in, never both", async () => {
    const account = await newStaff("support");
    const code = codeAt(account);
    const answers = await Promise.all([1, 2, 3].map(() => postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401]);
  });

  it("takes each recovery code once", async () => {
    const account = await newStaff("moderator");
    const [first] = account.recoveryCodes;
    const res = await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code: first!.toUpperCase() });
    expect(res.status).toBe(200);
    expect(StaffResponse.parse(await res.json()).recovery_codes_left).toBe(account.recoveryCodes.length - 1);
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password, code: first }), 401, "login_failed");
    const [row] = await api.db.select({ codes: staffUsers.recoveryCodes }).from(staffUsers).where(eq(staffUsers.id, account.id));
    expect(row?.codes).toHaveLength(account.recoveryCodes.length - 1);
  });

  it("refuses bad input with 400 and an unknown address like a wrong password", async () => {
    const admin = await newStaff("admin");
    await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", { email: "nobody@example.com", password, code: "123456" }), 401, "login_failed");
    for (const body of [{}, { email: "not-an-address", password, code: "123456" }, { email: admin.email, password, code: "12" }, { email: admin.email, password: "", code: "123456" }]) {
      await expectApiError(await postJson(api.baseUrl, "/api/staff/login.php", body), 400, "validation_failed");
    }
  });
});

describe("the staff gate", () => {
  const tokens = {} as Record<StaffRole, string>;
  beforeAll(async () => {
    for (const role of staffRoles) tokens[role] = await staffLogin(await newStaff(role), "");
  });

  it("lets every role through exactly the endpoints its role may use, and answers the others 403 forbidden", async () => {
    const endpoints = staffEndpoints;
    expect(endpoints.length).toBeGreaterThanOrEqual(30);
    // The owners' analytics are admins' alone (docs/staff.md): the walk below checks every role against it.
    expect(staffEndpoints.find((endpoint) => endpoint.method === "get" && endpoint.path === "/api/staff/analytics.php")?.action).toBe("analytics.read");
    for (const endpoint of endpoints) {
      for (const role of staffRoles) {
        const res = await fetch(`${api.baseUrl}${endpoint.path}`, { method: endpoint.method.toUpperCase(), headers: asStaff(tokens[role]) });
        const allowed = (staffPermissions[endpoint.action] as readonly StaffRole[]).includes(role);
        // Allowed: past the gate (a request without its query or body is then refused as invalid, 400; a GET of a list answers 200).
        if (allowed) {
          expect([200, 400], `${role} ${endpoint.method} ${endpoint.path}`).toContain(res.status);
          // The live stream stays open: this walk only needs its status.
          await res.body?.cancel();
        } else await expectApiError(res, 403, "forbidden");
      }
    }
  });

  it("takes no member's session and no made-up token: authentication_required", async () => {
    const memberToken = await login(api.baseUrl, demoAccounts.free.email);
    for (const endpoint of staffEndpoints) {
      for (const headers of [{}, { Cookie: `rdv_session=${memberToken}` }, { Cookie: `${staffSessionCookieName}=${memberToken}` }, asStaff("made-up")]) {
        await expectApiError(await fetch(`${api.baseUrl}${endpoint.path}`, { method: endpoint.method.toUpperCase(), headers }), 403, "authentication_required");
      }
    }
    // And a staff session is no member's: the member endpoints see a visitor.
    const user = await fetch(`${api.baseUrl}/api/user.php`, { headers: { Cookie: `rdv_session=${tokens.admin}` } });
    expect(await user.json()).toEqual({ user: null });
  });

  it("ends the sessions of a disabled account", async () => {
    const support = await newStaff("support");
    const token = await staffLogin(support, "");
    expect((await fetch(`${api.baseUrl}/api/staff/me.php`, { headers: asStaff(token) })).status).toBe(200);
    await api.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, support.id));
    await expectApiError(await fetch(`${api.baseUrl}/api/staff/me.php`, { headers: asStaff(token) }), 403, "authentication_required");
    // Enabled again, the old session stays ended: only a new login opens one.
    await api.db.update(staffUsers).set({ disabled: false, sessionsValidFrom: new Date() }).where(eq(staffUsers.id, support.id));
    await expectApiError(await fetch(`${api.baseUrl}/api/staff/me.php`, { headers: asStaff(token) }), 403, "authentication_required");
  });

  it("ends the session on logout and clears the cookie", async () => {
    const token = tokens.moderator;
    const res = await fetch(`${api.baseUrl}/api/staff/logout.php`, { method: "POST", headers: asStaff(token) });
    expect(res.status).toBe(200);
    expect(staffCookieOf(res)?.attributes).toEqual(expect.arrayContaining(["Max-Age=0", "Path=/staff"]));
    await expectApiError(await fetch(`${api.baseUrl}/api/staff/me.php`, { headers: asStaff(token) }), 403, "authentication_required");
  });
});

describe("the dashboard", () => {
  it("gives today's figures of the sites a staff member serves; an admin's of every site", async () => {
    const member = await insertMember(api, { passwordHash: "x" });
    const support = await newStaff("support");
    const admin = await newStaff("admin");
    const figures = async (account: Account) => DashboardResponse.parse(await (await fetch(`${api.baseUrl}/api/staff/dashboard.php`, { headers: asStaff(await staffLogin(account, "")) })).json());
    const own = await figures(support);
    expect(own.sites.map((site) => site.id)).toEqual([1]);
    expect(own.sites[0]!.signups_today).toBeGreaterThanOrEqual(1);
    expect(own.open_streams).toBe(0);
    const all = await figures(admin);
    expect(all.sites.length).toBeGreaterThan(1);
    expect(all.sites.find((site) => site.id === 1)?.signups_today).toBe(own.sites[0]!.signups_today);
    // The background jobs in trouble concern every site: for who serves every site only.
    expect(own.jobs).toBeNull();
    expect(all.jobs).toEqual({ push_retrying: expect.any(Number), exports_failed_today: expect.any(Number) });
    // The demo's members signed up on earlier days: today's count is the members made today, not every member.
    const [today] = await api.db.select({ n: sql<number>`count(*)::int` }).from(users).where(sql`${users.siteId} = 1 and ${users.signupDate} >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'`);
    expect(own.sites[0]!.signups_today).toBe(today?.n);
    expect(member.userId).toBeGreaterThan(0);
  });
});

describe("the audit log", () => {
  it("records logins and logouts with who, role and address, lists them newest first for admins, and filters", async () => {
    const admin = await newStaff("admin");
    const moderator = await newStaff("moderator");
    await postJson(api.baseUrl, "/api/staff/login.php", { email: moderator.email, password, code: moderator.recoveryCodes[0] });
    const moderatorToken = await staffLogin(moderator, "");
    await fetch(`${api.baseUrl}/api/staff/logout.php`, { method: "POST", headers: asStaff(moderatorToken) });
    const token = await staffLogin(admin, "");
    const res = await fetch(`${api.baseUrl}/api/staff/audit.php?action=staff.login&staff_id=${admin.id}`, { headers: asStaff(token) });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const { entries } = AuditResponse.parse(await res.json());
    expect(entries.length).toBeGreaterThanOrEqual(1);
    expect(entries[0]).toMatchObject({ staff_id: admin.id, staff_email: admin.email, role: "admin", action: "staff.login", target_type: "staff", target_id: String(admin.id), client_ip: "127.0.0.1" });
    const all = AuditResponse.parse(await (await fetch(`${api.baseUrl}/api/staff/audit.php`, { headers: asStaff(token) })).json()).entries;
    expect(all.map((entry) => entry.id)).toEqual([...all.map((entry) => entry.id)].sort((a, b) => b - a));
    expect(all.some((entry) => entry.action === "staff.login_recovery_code" && entry.staff_id === moderator.id)).toBe(true);
    expect(all.some((entry) => entry.action === "staff.logout" && entry.staff_id === moderator.id)).toBe(true);
    await expectApiError(await fetch(`${api.baseUrl}/api/staff/audit.php?before=0`, { headers: asStaff(token) }), 400, "validation_failed");
  });

  it("filters by a known action and a range of UTC days, and refuses an unknown action or a date that is none", async () => {
    const admin = await newStaff("admin");
    const token = await staffLogin(admin, "");
    const read = async (query: string) => {
      const res = await fetch(`${api.baseUrl}/api/staff/audit.php?staff_id=${admin.id}&${query}`, { headers: asStaff(token) });
      expect(res.status, await res.clone().text()).toBe(200);
      return AuditResponse.parse(await res.json()).entries;
    };
    const today = new Date().toISOString().slice(0, 10);
    // The login of a moment ago is within today (a day runs to its end: "to" is inclusive) and not in a past range.
    expect((await read(`action=staff.login&from=${today}&to=${today}`)).map((e) => e.action)).toContain("staff.login");
    expect(await read(`from=2001-01-01&to=2001-12-31`)).toEqual([]);
    expect(await read(`to=2001-12-31`)).toEqual([]);
    expect((await read(`from=${today}`)).length).toBeGreaterThan(0);
    for (const bad of ["action=no.such.action", "from=2026-13-01", "to=yesterday"]) {
      await expectApiError(await fetch(`${api.baseUrl}/api/staff/audit.php?${bad}`, { headers: asStaff(token) }), 400, "validation_failed");
    }
  });

  it("is append-only: the database refuses to change or delete an entry", async () => {
    // drizzle wraps the database's error: its cause is PostgreSQL's message from the trigger.
    const refusal = (attempt: Promise<unknown>) => attempt.then(() => "changed", (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message));
    expect(await refusal(api.db.update(auditLog).set({ action: "rewritten" }))).toMatch(/audit_log is append-only/);
    expect(await refusal(api.db.delete(auditLog))).toMatch(/audit_log is append-only/);
    expect(await refusal(api.db.execute(sql`truncate audit_log`))).toMatch(/audit_log is append-only/);
    const [count] = await api.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(eq(auditLog.action, "rewritten"));
    expect(count?.n).toBe(0);
  });
});

describe("staff accounts in the console", () => {
  it("an admin adds an account (its set-up link answered once), makes a new link, disables and enables it; each an audit entry", async () => {
    const admin = await newStaff("admin");
    const token = await staffLogin(admin, "");
    const post = (body: unknown) => fetch(`${api.baseUrl}/api/staff/accounts.php`, { method: "POST", headers: { ...asStaff(token), "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const email = `console-${Date.now()}@example.com`;
    const added = StaffAccountOutcome.parse(await (await post({ action: "add", email, name: "Console Moderator", role: "moderator", site_ids: [1] })).json());
    const link = new URL(added.link ?? "");
    expect(link.pathname).toMatch(/^\/staff\/setup\/[\w-]{40,}$/);
    const setup = await fetch(`${api.baseUrl}/api/staff/setup.php?token=${link.pathname.split("/").pop()}`);
    expect(setup.status).toBe(200);
    expect(await setup.json()).toMatchObject({ email });
    await expectApiError(await post({ action: "add", email: email.toUpperCase(), name: "Again", role: "support", site_ids: [1] }), 400, "validation_failed");
    await expectApiError(await post({ action: "add", email: `other-${email}`, name: "Nowhere", role: "support", site_ids: [99999] }), 400, "validation_failed");

    const list = StaffAccountsResponse.parse(await (await fetch(`${api.baseUrl}/api/staff/accounts.php`, { headers: asStaff(token) })).json());
    const account = list.accounts.find((a) => a.email === email);
    expect(account).toMatchObject({ role: "moderator", site_ids: [1], set_up: false, disabled: false });
    const renewed = StaffAccountOutcome.parse(await (await post({ action: "link", id: account!.id })).json());
    expect(renewed.link).not.toBe(added.link);
    // The first link ended with the new one.
    expect((await fetch(`${api.baseUrl}/api/staff/setup.php?token=${link.pathname.split("/").pop()}`)).status).toBe(400);

    // Disabling ends the account's sessions; one's own account cannot be disabled.
    const moderator = await newStaff("moderator");
    const moderatorToken = await staffLogin(moderator, "");
    expect((await post({ action: "disable", id: moderator.id })).status).toBe(200);
    await expectApiError(await fetch(`${api.baseUrl}/api/staff/me.php`, { headers: asStaff(moderatorToken) }), 403, "authentication_required");
    await expectApiError(await post({ action: "disable", id: admin.id }), 400, "validation_failed");
    expect((await post({ action: "enable", id: moderator.id })).status).toBe(200);
    const audited = await api.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.staffUserId, admin.id));
    expect(audited.map((row) => row.action)).toEqual(expect.arrayContaining(["staff.add", "staff.new_setup_link", "staff.disable", "staff.enable"]));
  });
});
