import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscountCodeResponse } from "#contract/payments";
import sharp from "sharp";
import { MemberResponse } from "#contract/members";
import { CatalogueOutcome, DiscountCodesResponse, InvitationOutcome, InvitationsResponse } from "#contract/staff-catalogue";
import { SiteRunProfile } from "#contract/staff-profiles";
import { auditLog, sites } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { clearSiteCache } from "../../api/domain/sites";
import { call, expectApiError, insertMember, login, startApi, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";

/**
 * The catalogue (docs/staff.md): discount codes and invitations made in the console are usable at once, and each
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
      staffCall(api, admin, "POST", "/api/staff/discount-codes.php", { action: "create", form_key: randomUUID(), site_id: 1, percentage: 25, validity: "once_per_user", max_uses: null, minimum_order_value: 0, currency: null, country: null, expires_at: null, ...body });
    const form = { code: "console25", form_key: randomUUID() };
    expect((await create(form)).status).toBe(201);
    // The same form again makes nothing and says so (not "exists already": it is the same code, made once).
    const again = await create(form);
    expect(again.status).toBe(200);
    expect(CatalogueOutcome.parse(await again.json()).replay).toBe(true);
    const lookUp = async () => DiscountCodeResponse.parse(await (await call(api, "GET", "/api/discountcode.php?code=CoNsOlE25", { token })).json());
    expect((await lookUp()).discount).toMatchObject({ code: "CONSOLE25", value_percentage: 25 });
    await expectApiError(await create({ code: "CONSOLE25" }), 400, "validation_failed");
    await expectApiError(await create({ code: "OTHER", validity: "uses" }), 400, "validation_failed");
    await expectApiError(await create({ code: "x" }), 400, "validation_failed");
    // Dates out of range are refused with a message, never a 500.
    for (const expires_at of ["0000-01-01", "0001-01-01", "9999-12-31"]) {
      const refused = await expectApiError(await create({ code: `YEAR${expires_at.slice(0, 4)}`, expires_at }), 400, "validation_failed");
      expect(refused.fields?.expires_at, expires_at).toBeDefined();
    }
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
      const invite = async () => InvitationOutcome.parse(await (await staffCall(api, admin, "POST", "/api/staff/invitations.php", { action: "create", site_id: 1, days: 7, form_key: randomUUID() })).json());
      const created = await invite();
      expect(created.replay).toBeUndefined();
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

describe("site-run profiles", () => {
  it("an admin makes a site-run profile members see at once, gives it a photo, edits it and disables it", async () => {
    const member = await insertMember(api, { passwordHash: await hashPassword(password) });
    const token = await login(api.baseUrl, member.email, password);
    const act = (body: Record<string, unknown>) => staffCall(api, admin, "POST", "/api/staff/profile.php", body);
    const fields = { name: "Console Carla", gender: "female", date_of_birth: "1994-04-04", country: "NL", city: "Utrecht", about_me: "Made in the console." };
    await expectApiError(await act({ action: "create", site_id: 1, ...fields, date_of_birth: "2015-01-01" }), 400, "validation_failed");
    const created = SiteRunProfile.parse(await (await act({ action: "create", site_id: 1, ...fields })).json());
    expect(created).toMatchObject({ name: "Console Carla", active: true, site: { id: 1 }, photos: [] });
    const seen = async () => (await call(api, "GET", `/api/member.php?id=${created.id}`, { token })).status;
    expect(await seen()).toBe(200);
    const page = MemberResponse.parse(await (await call(api, "GET", `/api/member.php?id=${created.id}`, { token })).json());
    expect(page.profile.fictional).toBe(true);

    const image = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#884422" } }).jpeg().toBuffer();
    const form = new FormData();
    form.append("photo", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "carla.jpg");
    const uploaded = await fetch(`${api.baseUrl}/api/staff/profile-photo.php?id=${created.id}`, { method: "POST", headers: { Cookie: `rdv_staff=${admin}` }, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    expect(SiteRunProfile.parse(await uploaded.json()).photos).toHaveLength(1);

    const edited = SiteRunProfile.parse(await (await act({ action: "update", id: created.id, ...fields, city: "Delft" })).json());
    expect(edited.city).toBe("Delft");
    expect((await act({ action: "disable", id: created.id })).status).toBe(200);
    expect(await seen()).toBe(404);
    // Members' own profiles are no site-run profiles.
    await expectApiError(await act({ action: "disable", id: member.profileId }), 404, "not_found");
    // Dates of birth out of range: 400 with a message (year 0 was a 500, year 1 a 2,025-year-old profile).
    for (const date_of_birth of ["0000-01-01", "0001-01-01", "1800-01-01"]) {
      const refused = await expectApiError(await act({ action: "create", site_id: 1, ...fields, date_of_birth }), 400, "validation_failed");
      expect(refused.fields?.date_of_birth, date_of_birth).toBeDefined();
    }
    expect(await audited("profile.create")).toBe(1);
    expect(await audited("profile.add_photo")).toBe(1);
    expect(await audited("profile.update")).toBe(1);
    expect(await audited("profile.disable")).toBe(1);
  });
});

describe("site-run profile photos", () => {
  it("deleting another profile's photo through a profile answers 404, deletes nothing and audits nothing", async () => {
    const act = (body: Record<string, unknown>) => staffCall(api, admin, "POST", "/api/staff/profile.php", body);
    const fields = { gender: "female", date_of_birth: "1990-02-02", country: "NL", city: null, about_me: "Made in the console." };
    const one = SiteRunProfile.parse(await (await act({ action: "create", site_id: 1, name: "Photo One", ...fields })).json());
    const two = SiteRunProfile.parse(await (await act({ action: "create", site_id: 1, name: "Photo Two", ...fields })).json());
    const image = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#228844" } }).jpeg().toBuffer();
    const form = new FormData();
    form.append("photo", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "two.jpg");
    const uploaded = SiteRunProfile.parse(await (await fetch(`${api.baseUrl}/api/staff/profile-photo.php?id=${two.id}`, { method: "POST", headers: { Cookie: `rdv_staff=${admin}` }, body: form })).json());
    const photoId = uploaded.photos[0]!.id;
    const deletions = async () => (await api.db.select().from(auditLog).where(and(eq(auditLog.action, "profile.delete_photo"), eq(auditLog.targetId, String(photoId))))).length;

    await expectApiError(await act({ action: "delete_photo", id: one.id, photo_id: photoId }), 404, "not_found");
    expect(await deletions()).toBe(0);
    expect(SiteRunProfile.parse(await (await staffCall(api, admin, "GET", `/api/staff/profile.php?id=${two.id}`)).json()).photos).toHaveLength(1);
    // Through its own profile: deleted, and audited once.
    expect(SiteRunProfile.parse(await (await act({ action: "delete_photo", id: two.id, photo_id: photoId })).json()).photos).toHaveLength(0);
    expect(await deletions()).toBe(1);
  });
});
