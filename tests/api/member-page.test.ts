import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, ne } from "drizzle-orm";
import { ApiError } from "#contract/errors";
import { MemberResponse, MembersResponse } from "#contract/members";
import { UserResponse } from "#contract/user";
import { profiles, sites, users } from "../../api/db/schema";
import { call, demoAccounts, login, startApi, type Harness } from "./harness";

/** GET /api/member.php: another member's profile, on the member's own site only. */
let api: Harness;
let token: string;
let ownProfileId: number;
let otherProfileId: number;
let otherSiteProfileId: number;

beforeAll(async () => {
  api = await startApi();
  token = await login(api.baseUrl, demoAccounts.free.email);
  const [defaultSite] = await api.db.select().from(sites).where(eq(sites.isDefault, true));
  const [own] = await api.db.select({ id: profiles.id }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(users.email, demoAccounts.free.email));
  const [other] = await api.db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.siteId, defaultSite?.id ?? 0), eq(profiles.status, "active"), ne(profiles.id, own?.id ?? 0)))
    .limit(1);
  const [elsewhere] = await api.db.select({ id: profiles.id }).from(profiles).where(and(ne(profiles.siteId, defaultSite?.id ?? 0), eq(profiles.status, "active"))).limit(1);
  ownProfileId = own?.id ?? 0;
  otherProfileId = other?.id ?? 0;
  otherSiteProfileId = elsewhere?.id ?? 0;
  expect([ownProfileId, otherProfileId, otherSiteProfileId].every((id) => id > 0)).toBe(true);
});

afterAll(async () => {
  await api.close();
});

describe("GET /api/member.php", () => {
  it("shows an active member of the same site with age and photos", async () => {
    const res = await call(api, "GET", `/api/member.php?id=${otherProfileId}`, { token });
    expect(res.status).toBe(200);
    const { profile } = MemberResponse.parse(await res.json());
    expect(profile.id).toBe(otherProfileId);
    expect(profile.age).toBeGreaterThanOrEqual(18);
    expect(profile.photos.length).toBeGreaterThan(0);
  });

  it("shows only the profile details the site shows (visible_profile_fields)", async () => {
    await api.db.update(profiles).set({ hairColor: "red", bodyType: "curvy", tattoos: "many", signupReason: "chat" }).where(eq(profiles.id, otherProfileId));
    const [site] = await api.db.select({ fields: sites.visibleProfileFields }).from(sites).where(eq(sites.isDefault, true));
    // The demo site shows hair colour and body type but neither tattoos nor the reason for signing up.
    expect(site?.fields).toEqual(expect.arrayContaining(["hair_color", "body_type"]));
    expect(site?.fields).not.toContain("tattoos");
    expect(site?.fields).not.toContain("signup_reason");
    const { profile } = MemberResponse.parse(await (await call(api, "GET", `/api/member.php?id=${otherProfileId}`, { token })).json());
    expect(profile.details).toMatchObject({ hair_color: "red", body_type: "curvy" });
    expect(profile.details).not.toHaveProperty("tattoos");
    expect(profile.details).not.toHaveProperty("signup_reason");
  });

  it("answers 404 for the viewer's own profile, another site's member and an unknown id", async () => {
    for (const id of [ownProfileId, otherSiteProfileId, 999_999]) {
      const res = await call(api, "GET", `/api/member.php?id=${id}`, { token });
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      expect(ApiError.parse(await res.json()).error).toBe("not_found");
    }
  });

  it("answers 400 for an id that is not a number", async () => {
    const res = await call(api, "GET", "/api/member.php?id=abc", { token });
    expect(res.status).toBe(400);
    expect(ApiError.parse(await res.json()).error).toBe("validation_failed");
  });

  it("asks a visitor to log in where logged-out search is off", async () => {
    const res = await call(api, "GET", `/api/member.php?id=${otherProfileId}`);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("authentication_required");
  });
});

describe("with_user=1: the page's call answers the member too", () => {
  it("member.php and members.php carry `me`, as GET /api/user.php answers it; without the flag they do not", async () => {
    const user = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token })).json());
    expect(user.user?.email).toBe(demoAccounts.free.email);
    const member = MemberResponse.parse(await (await call(api, "GET", `/api/member.php?id=${otherProfileId}&with_user=1`, { token })).json());
    expect(member.profile.id).toBe(otherProfileId);
    // Opening the page may clear a new like first: the counts are the ones after it.
    expect(member.me?.user).toEqual(user.user);
    expect(member.me?.counts).toEqual({ unread_messages: user.counts?.unread_messages, new_likes: expect.any(Number) });
    const members = MembersResponse.parse(await (await call(api, "GET", "/api/members.php?with_user=1", { token })).json());
    expect(members.results.length).toBeGreaterThan(0);
    expect(members.me).toEqual(user);
    expect(MembersResponse.parse(await (await call(api, "GET", "/api/members.php", { token })).json()).me).toBeUndefined();
    expect(MemberResponse.parse(await (await call(api, "GET", `/api/member.php?id=${otherProfileId}`, { token })).json()).me).toBeUndefined();
  });

  it("answers `me` with no user for a visitor, where visitors may search", async () => {
    const res = await call(api, "GET", "/api/members.php?with_user=1");
    if (res.status === 200) expect(MembersResponse.parse(await res.json()).me).toEqual({ user: null });
    else expect(ApiError.parse(await res.json()).error).toBe("authentication_required");
  });
});
