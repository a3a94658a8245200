import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, desc, eq, or, sql } from "drizzle-orm";
import { BlockResponse, BlocksResponse } from "#contract/blocks";
import { MemberResponse, MembersResponse, trafficSourceHeader } from "#contract/members";
import { blocks, likes, profiles, sites } from "../../api/db/schema";
import { clearSiteCache } from "../../api/domain/sites";
import { hashPassword } from "../../api/domain/passwords";
import { memberSearchWhere } from "../../api/domain/members";
import { call, expectApiError, insertMember, login, startApi, type Harness } from "./harness";

/**
 * Blocking and who sees whom (docs/product.md §4, ADR 004): POST/DELETE /api/block.php, GET /api/blocks.php,
 * the blocked member's 403 on the blocker's page, search without blocked pairs and invisible members, and
 * visitors' search on a logged_out_search_trafficsource site. Each site here is a copy of the default site
 * with only this file's members, so every search result is known.
 */
const host = "blocks.localhost";
const trafficHost = "traffic.localhost";
const password = "blocks-password-1";

let api: Harness;
type Member = { userId: number; profileId: number; email: string; name: string; token: string };
let alice: Member;
let bob: Member;
let carol: Member;
let ivy: Member;
let trafficMember: Member;
let otherSiteProfileId: number;

async function copyDefaultSite(domain: string, flags: { loggedOutSearch: boolean; loggedOutSearchTrafficsource: boolean }): Promise<void> {
  const [base] = await api.db.select().from(sites).where(eq(sites.isDefault, true));
  if (!base) throw new Error("no default site");
  const { id: _id, ...copy } = base;
  await api.db.insert(sites).values({ ...copy, ...flags, domain, isDefault: false });
}

async function addMember(passwordHash: string, name: string, siteHost = host): Promise<Member> {
  const m = await insertMember(api, { passwordHash, host: siteHost });
  await api.db.update(profiles).set({ name }).where(eq(profiles.id, m.profileId));
  return { ...m, name, token: await login(api.baseUrl, m.email, password, siteHost) };
}

async function search(who: Member | null, query = "", options: { siteHost?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return call(api, "GET", `/api/members.php${query}`, { token: who?.token, host: options.siteHost ?? host, headers: options.headers });
}

/** Profile ids in the results and in `similar` of a search that must succeed. */
async function found(who: Member | null, query = ""): Promise<{ results: number[]; similar: number[] }> {
  const res = await search(who, query);
  expect(res.status, query).toBe(200);
  const body = MembersResponse.parse(await res.json());
  return { results: body.results.map((m) => m.id), similar: body.similar.map((m) => m.id) };
}

/** Every profile a member finds: the plain search and the `similar` list of a search nobody matches. */
async function everyoneFoundBy(who: Member): Promise<number[]> {
  const plain = await found(who);
  // Nobody here lives in Japan: page 1 is empty, so `similar` lists the members of the gender instead.
  const narrowed = await found(who, "?gender=male&country=JP");
  expect(narrowed.results).toEqual([]);
  expect([...narrowed.similar].sort()).toEqual([...plain.results].sort());
  return plain.results;
}

const block = (who: Member, id: number | string) => call(api, "POST", "/api/block.php", { token: who.token, host, body: { id } });
const unblock = (who: Member, id: number | string) => call(api, "DELETE", `/api/block.php?id=${id}`, { token: who.token, host });
const memberPage = (who: Member | null, id: number, options: { siteHost?: string; headers?: Record<string, string> } = {}) =>
  call(api, "GET", `/api/member.php?id=${id}`, { token: who?.token, host: options.siteHost ?? host, headers: options.headers });

async function blockedBy(who: Member): Promise<number[]> {
  const res = await call(api, "GET", "/api/blocks.php", { token: who.token, host });
  expect(res.status).toBe(200);
  return BlocksResponse.parse(await res.json()).results.map((m) => m.id);
}

async function likesBetween(a: number, b: number): Promise<number> {
  const rows = await api.db
    .select()
    .from(likes)
    .where(or(and(eq(likes.likerProfileId, a), eq(likes.likedProfileId, b)), and(eq(likes.likerProfileId, b), eq(likes.likedProfileId, a))));
  return rows.length;
}

beforeAll(async () => {
  api = await startApi();
  await copyDefaultSite(host, { loggedOutSearch: false, loggedOutSearchTrafficsource: false });
  await copyDefaultSite(trafficHost, { loggedOutSearch: false, loggedOutSearchTrafficsource: true });
  const passwordHash = await hashPassword(password);
  alice = await addMember(passwordHash, "Alice");
  bob = await addMember(passwordHash, "Bob");
  carol = await addMember(passwordHash, "Carol");
  ivy = await addMember(passwordHash, "Ivy");
  trafficMember = await addMember(passwordHash, "Tess", trafficHost);
  const [elsewhere] = await api.db.select({ id: profiles.id }).from(profiles).innerJoin(sites, eq(sites.id, profiles.siteId)).where(eq(sites.domain, "gay.localhost")).limit(1);
  otherSiteProfileId = elsewhere?.id ?? 0;
  expect(otherSiteProfileId).toBeGreaterThan(0);
});

afterAll(async () => {
  await api?.close();
});

describe("blocking", () => {
  it("asks visitors to log in on block.php and blocks.php", async () => {
    await expectApiError(await call(api, "POST", "/api/block.php", { host, body: { id: bob.profileId } }), 403, "authentication_required");
    await expectApiError(await call(api, "DELETE", `/api/block.php?id=${bob.profileId}`, { host }), 403, "authentication_required");
    await expectApiError(await call(api, "GET", "/api/blocks.php", { host }), 403, "authentication_required");
  });

  it("answers 400 for a bad id and 404 for an unknown id, one's own profile and another site's member", async () => {
    for (const id of ["abc", 0, -3]) await expectApiError(await block(alice, id), 400, "validation_failed");
    await expectApiError(await call(api, "POST", "/api/block.php", { token: alice.token, host, body: {} }), 400, "validation_failed");
    for (const id of [999_999, alice.profileId, otherSiteProfileId]) {
      await expectApiError(await block(alice, id), 404, "not_found");
      await expectApiError(await unblock(alice, id), 404, "not_found");
    }
    expect(await blockedBy(alice)).toEqual([]);
  });

  it("removes the pair's likes both ways, keeps the others, and is harmless twice", async () => {
    await api.db.insert(likes).values([
      { likerProfileId: alice.profileId, likedProfileId: bob.profileId },
      { likerProfileId: bob.profileId, likedProfileId: alice.profileId },
      { likerProfileId: alice.profileId, likedProfileId: carol.profileId },
      { likerProfileId: carol.profileId, likedProfileId: bob.profileId },
    ]);
    const res = await block(alice, bob.profileId);
    expect(res.status).toBe(200);
    expect(BlockResponse.parse(await res.json())).toEqual({ blocked: true });
    expect(await likesBetween(alice.profileId, bob.profileId)).toBe(0);
    expect(await likesBetween(alice.profileId, carol.profileId)).toBe(1);
    expect(await likesBetween(carol.profileId, bob.profileId)).toBe(1);
    expect((await block(alice, bob.profileId)).status).toBe(200);
    const rows = await api.db.select().from(blocks).where(eq(blocks.blockerProfileId, alice.profileId));
    expect(rows.map((r) => r.blockedProfileId)).toEqual([bob.profileId]);
  });

  it("shows the blocked member 403 blocked_by_member with the blocker's name; the blocker still sees the page", async () => {
    const denied = await expectApiError(await memberPage(bob, alice.profileId), 403, "blocked_by_member");
    expect(denied.params).toEqual({ name: "Alice" });
    expect(denied.message).toBe("You're blocked by Alice. You do not have access to this page.");
    const res = await memberPage(alice, bob.profileId);
    expect(res.status).toBe(200);
    const page = MemberResponse.parse(await res.json());
    expect(page.relation).toMatchObject({ blocked_by_me: true, liked: false, liked_me: false, match: false });
    // Someone else is not affected.
    expect((await memberPage(carol, alice.profileId)).status).toBe(200);
  });

  it("hides the pair from each other's search and similar results, but not from others", async () => {
    const byAlice = await everyoneFoundBy(alice);
    expect(byAlice).not.toContain(bob.profileId);
    expect(byAlice).toContain(carol.profileId);
    const byBob = await everyoneFoundBy(bob);
    expect(byBob).not.toContain(alice.profileId);
    expect(byBob).toContain(carol.profileId);
    const byCarol = await everyoneFoundBy(carol);
    expect(byCarol).toEqual(expect.arrayContaining([alice.profileId, bob.profileId]));
  });

  it("lists only the session's own blocks, and nobody can lift another member's block", async () => {
    expect(await blockedBy(alice)).toEqual([bob.profileId]);
    expect(await blockedBy(bob)).toEqual([]);
    // Bob "unblocking" Alice takes back only a block of his own (there is none): Alice's block stays.
    const res = await unblock(bob, alice.profileId);
    expect(res.status).toBe(200);
    expect(BlockResponse.parse(await res.json())).toEqual({ blocked: false });
    await expectApiError(await memberPage(bob, alice.profileId), 403, "blocked_by_member");
    expect(await blockedBy(alice)).toEqual([bob.profileId]);
  });

  it("unblocking restores the page and the search, not the likes", async () => {
    const res = await unblock(alice, bob.profileId);
    expect(res.status).toBe(200);
    expect(BlockResponse.parse(await res.json())).toEqual({ blocked: false });
    expect((await unblock(alice, bob.profileId)).status).toBe(200);
    expect(await blockedBy(alice)).toEqual([]);
    const page = await memberPage(bob, alice.profileId);
    expect(page.status).toBe(200);
    expect(MemberResponse.parse(await page.json()).relation?.blocked_by_me).toBe(false);
    expect(await everyoneFoundBy(alice)).toContain(bob.profileId);
    expect(await everyoneFoundBy(bob)).toContain(alice.profileId);
    expect(await likesBetween(alice.profileId, bob.profileId)).toBe(0);
  });

  it("a block by the other side hides the pair too", async () => {
    expect((await block(bob, carol.profileId)).status).toBe(200);
    expect(await everyoneFoundBy(carol)).not.toContain(bob.profileId);
    expect(await everyoneFoundBy(bob)).not.toContain(carol.profileId);
    await expectApiError(await memberPage(carol, bob.profileId), 403, "blocked_by_member");
    expect((await unblock(bob, carol.profileId)).status).toBe(200);
    expect(await everyoneFoundBy(carol)).toContain(bob.profileId);
  });
});

describe("invisible mode", () => {
  it("keeps an invisible member out of everyone's search, while they still search themselves", async () => {
    expect(await everyoneFoundBy(alice)).toContain(ivy.profileId);
    await api.db.update(profiles).set({ invisible: true }).where(eq(profiles.id, ivy.profileId));
    try {
      for (const viewer of [alice, bob, carol]) expect(await everyoneFoundBy(viewer)).not.toContain(ivy.profileId);
      const byIvy = await everyoneFoundBy(ivy);
      expect(byIvy).toEqual(expect.arrayContaining([alice.profileId, bob.profileId, carol.profileId]));
      expect(byIvy).not.toContain(ivy.profileId);
    } finally {
      await api.db.update(profiles).set({ invisible: false }).where(eq(profiles.id, ivy.profileId));
    }
    expect(await everyoneFoundBy(alice)).toContain(ivy.profileId);
  });
});

describe("fictional profiles", () => {
  it("are flagged on the member page and on search cards", async () => {
    await api.db.update(profiles).set({ fictional: true }).where(eq(profiles.id, carol.profileId));
    try {
      const page = MemberResponse.parse(await (await memberPage(alice, carol.profileId)).json());
      expect(page.profile.fictional).toBe(true);
      const cards = MembersResponse.parse(await (await search(alice)).json()).results;
      expect(cards.find((c) => c.id === carol.profileId)?.fictional).toBe(true);
      expect(cards.find((c) => c.id === bob.profileId)?.fictional).toBe(false);
    } finally {
      await api.db.update(profiles).set({ fictional: false }).where(eq(profiles.id, carol.profileId));
    }
  });
});

describe("visitors and logged_out_search_trafficsource", () => {
  const withSource = { [trafficSourceHeader]: "1" };

  it("lets visitors with a traffic source search and open profiles there, and no one else", async () => {
    await expectApiError(await search(null, "", { siteHost: trafficHost }), 403, "authentication_required");
    await expectApiError(await memberPage(null, trafficMember.profileId, { siteHost: trafficHost }), 403, "authentication_required");
    await expectApiError(await search(null, "", { siteHost: trafficHost, headers: { [trafficSourceHeader]: "0" } }), 403, "authentication_required");

    const res = await search(null, "", { siteHost: trafficHost, headers: withSource });
    expect(res.status).toBe(200);
    expect(MembersResponse.parse(await res.json()).results.map((m) => m.id)).toEqual([trafficMember.profileId]);
    const page = await memberPage(null, trafficMember.profileId, { siteHost: trafficHost, headers: withSource });
    expect(page.status).toBe(200);
    expect(MemberResponse.parse(await page.json()).relation).toBeNull();

    // A site without the setting: the traffic source does not open the search.
    await expectApiError(await search(null, "", { headers: withSource }), 403, "authentication_required");
    await expectApiError(await memberPage(null, alice.profileId, { headers: withSource }), 403, "authentication_required");
  });

  it("follows a change of the site's settings, and hides invisible members from visitors too", async () => {
    await api.db.update(sites).set({ loggedOutSearch: true, loggedOutSearchTrafficsource: false }).where(eq(sites.domain, host));
    clearSiteCache();
    try {
      const visitor = await found(null);
      expect(visitor.results).toEqual(expect.arrayContaining([alice.profileId, bob.profileId, carol.profileId, ivy.profileId]));
      await api.db.update(profiles).set({ invisible: true }).where(eq(profiles.id, ivy.profileId));
      expect((await found(null)).results).not.toContain(ivy.profileId);
    } finally {
      await api.db.update(profiles).set({ invisible: false }).where(eq(profiles.id, ivy.profileId));
      await api.db.update(sites).set({ loggedOutSearch: false }).where(eq(sites.domain, host));
      clearSiteCache();
    }
    await expectApiError(await search(null), 403, "authentication_required");
  });
});

describe("search index", () => {
  it("still uses a search index with a member's visibility conditions on PostgreSQL (EXPLAIN)", async (ctx) => {
    if (api.kind !== "postgres") ctx.skip();
    await api.db.execute(sql`ANALYZE profiles`);
    const [site] = await api.db.select({ id: sites.id }).from(sites).where(eq(sites.domain, host));
    const where = memberSearchWhere(site?.id ?? 0, alice.profileId, { gender: "male", min_age: 30, max_age: 60 });
    const page = api.db.select().from(profiles).where(where).orderBy(desc(profiles.createdAt), desc(profiles.id)).limit(20);
    const plan = await api.db.transaction(async (tx) => {
      // The tables are tiny: without this the planner rightly prefers a sequential scan.
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = (await tx.execute(sql`EXPLAIN ${page}`)) as unknown as { rows: Record<string, string>[] };
      return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toMatch(/profiles_search_gender_(newest|age)_idx/);
    // The block check is answered once from the blocks table's two keys, not by reading it whole.
    expect(plan).toMatch(/InitPlan/);
    expect(plan).toMatch(/Index Scan on blocks_blocker_profile_id_blocked_profile_id_pk|Index (Only )?Scan using blocks_blocker_profile_id_blocked_profile_id_pk/);
    expect(plan).toMatch(/Index Scan on blocks_blocked_idx|Index (Only )?Scan using blocks_blocked_idx/);
  });
});
