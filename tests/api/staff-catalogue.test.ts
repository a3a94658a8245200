import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscountCodeResponse } from "#contract/payments";
import { DiscountCodesResponse, InvitationOutcome, InvitationsResponse } from "#contract/staff-catalogue";
import { auditLog, sites } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { clearSiteCache } from "../../api/domain/sites";
import { call, expectApiError, insertMember, login, startApi, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";

/**
 * Issue 26 item 6 (docs/staff.md): discount codes and invitations made in the console are usable at once, and each
 * change is an audit entry.
 */
let api: Harness;
let admin: string;
let adminId: number;
const password = "catalogue-test-password";

beforeAll(async () => {
  api = await startApi();
  const account = await newStaff(api, "admin", []);
  adminId = account.id;
  admin = await staffToken(api, account);
});
afterAll(async () => api?.close());

const audited = async (action: string) => (await api.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.staffUserId, adminId)))).length;

describe("discount codes", () => {
  it("an admin makes a code a member can use at once, refuses a code in use, and expires it", async () => {
    const member = await insertMember(api, { passwordHash: await hashPassword(password) });
    const token = await login(api.baseUrl, member.email, password);
    const create = (body: Record<string, unknown>) =>
      staffCall(api, admin, "POST", "/api/staff/discount-codes.php", { action: "create", site_id: 1, percentage: 25, validity: "once_per_user", max_uses: null, minimum_order_value: 0, currency: null, country: null, expires_at: null, ...body });
    expect((await create({ code: "console25" })).status).toBe(201);
    const lookUp = async () => DiscountCodeResponse.parse(await (await call(api, "GET", "/api/discountcode.php?code=CoNsOlE25", { token })).json());
    expect((await lookUp()).discount).toMatchObject({ code: "CONSOLE25", value_percentage: 25 });
    await expectApiError(await create({ code: "CONSOLE25" }), 400, "validation_failed");
    await expectApiError(await create({ code: "OTHER", validity: "uses" }), 400, "validation_failed");
    await expectApiError(await create({ code: "x" }), 400, "validation_failed");
    const list = DiscountCodesResponse.parse(await (await staffCall(api, admin, "GET", "/api/staff/discount-codes.php")).json());
    const row = list.codes.find((code) => code.code === "CONSOLE25");
    expect(row).toMatchObject({ site: { id: 1 }, percentage: 25, uses: 0, active: true });
    expect((await staffCall(api, admin, "POST", "/api/staff/discount-codes.php", { action: "expire", id: row!.id })).status).toBe(200);
    expect((await lookUp()).discount).toBeNull();
    expect(await audited("discount_code.create")).toBe(1);
    expect(await audited("discount_code.expire")).toBe(1);
  });
});

describe("invitations", () => {
  it("an admin invites one person to an invite-only site; the link signs up once; a revoked one signs up nobody", async () => {
    await api.db.update(sites).set({ signups: "other" }).where(eq(sites.id, 1));
    clearSiteCache();
    try {
      const invite = async () => InvitationOutcome.parse(await (await staffCall(api, admin, "POST", "/api/staff/invitations.php", { action: "create", site_id: 1, days: 7 })).json());
      const created = await invite();
      const code = new URL(created.link ?? "").searchParams.get("invitation");
      expect(new URL(created.link ?? "").pathname).toBe("/signup");
      const signup = (invitation: string, n: number) =>
        call(api, "POST", "/api/signup.php", { body: { email: `invited-${n}-${Date.now()}@example.com`, name: `Invited${n}`, date_of_birth: "1990-03-03", password, invitation } });
      expect((await signup(code!, 1)).status).toBe(201);
      await expectApiError(await signup(code!, 2), 400, "invitation_invalid");

      const second = await invite();
      const list = InvitationsResponse.parse(await (await staffCall(api, admin, "GET", "/api/staff/invitations.php")).json());
      const secondCode = new URL(second.link ?? "").searchParams.get("invitation");
      const row = list.invitations.find((invitation) => invitation.code === secondCode);
      expect(list.sites.find((site) => site.id === 1)?.invite_only).toBe(true);
      expect((await staffCall(api, admin, "POST", "/api/staff/invitations.php", { action: "revoke", id: row!.id })).status).toBe(200);
      await expectApiError(await signup(secondCode!, 3), 400, "invitation_invalid");
      // A used invitation cannot be revoked.
      const used = list.invitations.find((invitation) => invitation.code === code);
      await expectApiError(await staffCall(api, admin, "POST", "/api/staff/invitations.php", { action: "revoke", id: used!.id }), 400, "validation_failed");
      expect(await audited("invitation.create")).toBe(2);
      expect(await audited("invitation.revoke")).toBe(1);
    } finally {
      await api.db.update(sites).set({ signups: "all" }).where(eq(sites.id, 1));
      clearSiteCache();
    }
  });
});
