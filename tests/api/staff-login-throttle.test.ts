import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../api/db/schema";
import { totpCode } from "../../api/domain/staff/totp";
import { expectApiError, insertMember, postJson, startApi, type Harness } from "./harness";
import { hashPassword } from "../../api/domain/passwords";
import { newStaff, staffPassword, type StaffAccount } from "./staff-support";

/**
 * Staff login throttling with the production limits (CLIENT_LIMIT_SCALE 1): failures count per account and address
 * together, so nobody can lock a staff member out without their password; known and unknown addresses answer alike
 * (members too); failures and lock-outs are in the audit log; successful logins do not use up an address's limit.
 */
let api: Harness;
let ipCounter = 0;
/** A client address of its own (X-Client-IP from loopback, as web sends it): limits count per address. */
const newAddress = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  api = await startApi({ env: { CLIENT_LIMIT_SCALE: "1" } });
});
afterAll(async () => api?.close());

const staffLogin = (body: { email: string; password: string; code: string }, address: string) => postJson(api.baseUrl, "/api/staff/login.php", body, { "X-Client-IP": address });
const wrongCodeOf = (account: StaffAccount) => (totpCode(account.totpSecret) === "000000" ? "111111" : "000000");
const auditOf = (action: string, staffId: number) =>
  api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.staffUserId, staffId)));

describe("staff login throttle", () => {
  it("five wrong passwords from one address block that address only: the account's owner logs in from another", async () => {
    const account = await newStaff(api, "support");
    const attacker = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await staffLogin({ email: account.email, password: "not-the-password", code: "123456" }, attacker)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    const res = await staffLogin({ email: account.email, password: staffPassword, code: totpCode(account.totpSecret) }, newAddress());
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("an unknown address answers as a known one: 401 four times, then 429", async () => {
    const account = await newStaff(api, "operator");
    const answers = async (email: string) => {
      const address = newAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await staffLogin({ email, password: "not-the-password", code: "123456" }, address)).status);
      return statuses;
    };
    expect(await answers(`nobody-${Date.now()}@example.com`)).toEqual(await answers(account.email));
  });

  it("records wrong codes and the lock-out in the audit log", async () => {
    const account = await newStaff(api, "moderator");
    const address = newAddress();
    for (let i = 0; i < 5; i++) await staffLogin({ email: account.email, password: staffPassword, code: wrongCodeOf(account) }, address);
    expect(await auditOf("staff.login_failed", account.id)).toHaveLength(5);
    const [locked] = await auditOf("staff.login_locked", account.id);
    expect(locked).toMatchObject({ targetType: "staff", targetId: String(account.id), clientIp: address });
  });

  it("successful logins do not count toward the address's limit: an office behind one address logs in 25 times", async () => {
    const office = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const account = await newStaff(api, "operator");
      statuses.push((await staffLogin({ email: account.email, password: staffPassword, code: totpCode(account.totpSecret) }, office)).status);
    }
    expect(statuses).toEqual(Array(25).fill(200));
  });
});

describe("member login answers alike for known and unknown addresses", () => {
  it("five wrong passwords: 401 four times, then 429, for an account and for an address nobody has", async () => {
    const { email } = await insertMember(api, { passwordHash: await hashPassword("member-password-1") });
    const answers = async (address: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await postJson(api.baseUrl, "/api/user.php", { email: address, password: "not-the-password" }, { "X-Forwarded-Host": "localhost", "X-Client-IP": newAddress() });
        statuses.push(res.status);
      }
      return statuses;
    };
    const known = await answers(email);
    expect(known).toEqual([401, 401, 401, 401, 429, 429]);
    expect(await answers(`nobody-${Date.now()}@example.com`)).toEqual(known);
    await expectApiError(await postJson(api.baseUrl, "/api/user.php", { email: `nobody2-${Date.now()}@example.com`, password: "x" }, { "X-Forwarded-Host": "localhost", "X-Client-IP": newAddress() }), 401, "login_failed");
  });
});
