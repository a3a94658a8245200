import { expect } from "vitest";
import type { StaffRole } from "../../api/db/schema";
import { addStaffAccount } from "../../api/domain/staff/accounts";
import { staffSessionCookieName } from "../../api/domain/staff/sessions";
import { totpCode } from "../../api/domain/staff/totp";
import { postJson, testSessionSecret, type Harness } from "./harness";

/** Staff accounts and sessions for api tests (tests/api/staff*.test.ts). */
export type StaffAccount = { id: number; email: string; role: StaffRole; totpSecret: string; recoveryCodes: string[] };
export const staffPassword = "staff-password-1";
let made = 0;

/** A staff account of its own for a test: a code works once per account, and failures count per account. */
export async function newStaff(api: Harness, role: StaffRole, siteIds = [1]): Promise<StaffAccount> {
  const email = `${role}-${process.pid}-${++made}-staff@example.com`;
  const account = await addStaffAccount(api.db, testSessionSecret, { email, name: `Test ${role} ${made}`, role, siteIds, password: staffPassword });
  return { id: account.id, email, role, totpSecret: account.totpSecret, recoveryCodes: account.recoveryCodes };
}

/** Logs a fresh account in with its current code and answers the session token. */
export async function staffToken(api: Harness, account: StaffAccount): Promise<string> {
  const res = await postJson(api.baseUrl, "/api/staff/login.php", { email: account.email, password: staffPassword, code: totpCode(account.totpSecret) });
  expect(res.status, await res.clone().text()).toBe(200);
  for (const raw of res.headers.getSetCookie()) {
    const [pair = ""] = raw.split(";");
    if (pair.startsWith(`${staffSessionCookieName}=`)) return decodeURIComponent(pair.slice(staffSessionCookieName.length + 1));
  }
  throw new Error("staff login set no cookie");
}

/** A staff request: GET with a query, or POST with a JSON body. */
export function staffCall(api: Harness, token: string, method: "GET" | "POST", pathname: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Cookie: `${staffSessionCookieName}=${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(`${api.baseUrl}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}
