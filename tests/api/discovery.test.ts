import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, inArray, ne } from "drizzle-orm";
import { DiscoveryDecisionResponse, DiscoveryResponse, type DiscoveryGame } from "#contract/discovery";
import { blocks, discoveryDecisions, likes, profiles, sessions, sites } from "../../api/db/schema";
import { hashToken } from "../../api/domain/sessions";
import { call, expectApiError, insertMember, startApi, testSessionSecret, type Harness } from "./harness";

/** GET and POST /api/discovery.php: the swipe game and the match finder. */
let api: Harness;
let defaultSiteId: number;
const day = 86_400_000;

type Gender = "male" | "female";
type Sexuality = "hetero" | "gay" | "lesbian" | "bi";
type TestMember = { profileId: number; token: string };

beforeAll(async () => {
  api = await startApi();
  const [site] = await api.db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true));
  defaultSiteId = site?.id ?? 0;
  expect(defaultSiteId).toBeGreaterThan(0);
});

afterAll(async () => {
  await api?.close();
});

/** A fresh active member with a session of its own (no password hashing per member). */
async function member(gender: Gender, sexuality: Sexuality = "hetero", host = "localhost"): Promise<TestMember> {
  const inserted = await insertMember(api, { passwordHash: "unused", host });
  await api.db.update(profiles).set({ gender, sexuality }).where(eq(profiles.id, inserted.profileId));
  const token = `discovery-${inserted.userId}-${Math.random().toString(36).slice(2)}`;
  await api.db.insert(sessions).values({ userId: inserted.userId, tokenHash: hashToken(token, testSessionSecret), expiresAt: new Date(Date.now() + day) });
  return { profileId: inserted.profileId, token };
}

async function next(viewer: TestMember, game: DiscoveryGame, match?: number): Promise<DiscoveryResponse> {
  const res = await call(api, "GET", `/api/discovery.php?game=${game}${match ? `&match=${match}` : ""}`, { token: viewer.token });
  expect(res.status).toBe(200);
  return DiscoveryResponse.parse(await res.json());
}

function decide(viewer: TestMember, game: DiscoveryGame, id: number, decision: "like" | "pass"): Promise<Response> {
  return call(api, "POST", "/api/discovery.php", { token: viewer.token, body: { game, id, decision } });
}

async function decided(viewer: TestMember, game: DiscoveryGame, id: number, decision: "like" | "pass"): Promise<DiscoveryDecisionResponse> {
  const res = await decide(viewer, game, id, decision);
  expect(res.status, await res.clone().text()).toBe(200);
  return DiscoveryDecisionResponse.parse(await res.json());
}

/** Every candidate the viewer is shown in `game`, passing each one to get the next. */
async function allCandidates(viewer: TestMember, game: DiscoveryGame): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const { profile } = await next(viewer, game);
    if (!profile) return seen;
    expect(seen).not.toContain(profile.id);
    seen.push(profile.id);
    await decided(viewer, game, profile.id, "pass");
  }
  throw new Error("the candidates never ran out");
}

/** Active members of the default site of these genders, as ids (the candidates before exclusions). */
async function activeOnDefaultSite(genders: Gender[], except: number): Promise<number[]> {
  const rows = await api.db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.siteId, defaultSiteId), eq(profiles.status, "active"), eq(profiles.invisible, false), inArray(profiles.gender, genders), ne(profiles.id, except)));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

async function likeRow(liker: number, liked: number) {
  const [row] = await api.db.select().from(likes).where(and(eq(likes.likerProfileId, liker), eq(likes.likedProfileId, liked)));
  return row ?? null;
}

async function swipeLikesOf(profileId: number): Promise<number> {
  const [row] = await api.db
    .select({ n: count() })
    .from(discoveryDecisions)
    .where(and(eq(discoveryDecisions.profileId, profileId), eq(discoveryDecisions.game, "swipe"), eq(discoveryDecisions.decision, "like")));
  return row?.n ?? 0;
}

describe("access and validation", () => {
  it("asks a visitor to log in (403) for both the next card and a decision", async () => {
    await expectApiError(await call(api, "GET", "/api/discovery.php?game=swipe"), 403, "authentication_required");
    await expectApiError(await call(api, "POST", "/api/discovery.php", { body: { game: "swipe", id: 1, decision: "like" } }), 403, "authentication_required");
  });

  it("answers 400 for a bad game, decision or id", async () => {
    const viewer = await member("male");
    const { profile } = await next(viewer, "match_finder");
    const id = profile?.id ?? 1;
    for (const query of ["", "?game=", "?game=tinder", "?game=swipe&match=abc", "?game=swipe&match=0"]) {
      const res = await call(api, "GET", `/api/discovery.php${query}`, { token: viewer.token });
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
    const bodies: unknown[] = [
      {},
      { game: "tinder", id, decision: "like" },
      { game: "swipe", id, decision: "love" },
      { game: "swipe", id: "abc", decision: "like" },
      { game: "swipe", id: 0, decision: "like" },
      { game: "swipe", id: -3, decision: "pass" },
      { game: "swipe", id: 1.5, decision: "pass" },
      { game: "swipe", decision: "pass" },
    ];
    for (const body of bodies) {
      const res = await call(api, "POST", "/api/discovery.php", { token: viewer.token, body });
      const error = await expectApiError(res, 400, "validation_failed");
      expect(Object.keys(error.fields ?? {}).length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(await swipeLikesOf(viewer.profileId)).toBe(0);
  });

  it("answers 404 for an unknown id, the viewer's own, another site's, a hidden and a blocked member", async () => {
    const viewer = await member("male");
    const elsewhere = await member("female", "hetero", "she.localhost");
    const hidden = await member("female");
    await api.db.update(profiles).set({ invisible: true }).where(eq(profiles.id, hidden.profileId));
    const blocker = await member("female");
    await api.db.insert(blocks).values({ blockerProfileId: blocker.profileId, blockedProfileId: viewer.profileId });
    for (const id of [999_999, viewer.profileId, elsewhere.profileId, hidden.profileId, blocker.profileId]) {
      for (const decision of ["like", "pass"] as const) {
        const res = await decide(viewer, "swipe", id, decision);
        expect({ id, decision, status: res.status }).toEqual({ id, decision, status: 404 });
      }
    }
    expect(await likeRow(viewer.profileId, elsewhere.profileId)).toBeNull();
    expect(await swipeLikesOf(viewer.profileId)).toBe(0);
  });
});

describe("candidates", () => {
  it("are every active member of the sought gender on the site, except the viewer, hidden, blocked, liked and decided ones", async () => {
    const viewer = await member("male", "hetero");
    const hidden = await member("female");
    await api.db.update(profiles).set({ invisible: true }).where(eq(profiles.id, hidden.profileId));
    const blockedByViewer = await member("female");
    const blockingViewer = await member("female");
    await api.db.insert(blocks).values([
      { blockerProfileId: viewer.profileId, blockedProfileId: blockedByViewer.profileId },
      { blockerProfileId: blockingViewer.profileId, blockedProfileId: viewer.profileId },
    ]);
    const liked = await member("female");
    await api.db.insert(likes).values({ likerProfileId: viewer.profileId, likedProfileId: liked.profileId, source: "profile" });
    const passedInSwipe = await member("female");
    await api.db.insert(discoveryDecisions).values({ profileId: viewer.profileId, targetProfileId: passedInSwipe.profileId, game: "swipe", decision: "pass" });
    const disabled = await member("female");
    await api.db.update(profiles).set({ status: "disabled" }).where(eq(profiles.id, disabled.profileId));
    await member("female", "hetero", "she.localhost");

    const excluded = [blockedByViewer, blockingViewer, liked].map((m) => m.profileId);
    const expected = (await activeOnDefaultSite(["female"], viewer.profileId)).filter((id) => !excluded.includes(id));
    expect(expected.length).toBeGreaterThan(10);
    expect(expected).toContain(passedInSwipe.profileId);
    const shown = await allCandidates(viewer, "match_finder");
    // A pass in the swipe game does not hide the member in the match finder, and the other way round.
    expect(sorted(shown)).toEqual(expected);
    const shownInSwipe = await allCandidates(viewer, "swipe");
    expect(sorted(shownInSwipe)).toEqual(expected.filter((id) => id !== passedInSwipe.profileId));
  });

  it("fit the viewer's sexuality: hetero the other gender, gay and lesbian the same, bi both", async () => {
    const cases: { gender: Gender; sexuality: Sexuality; genders: Gender[] }[] = [
      { gender: "female", sexuality: "hetero", genders: ["male"] },
      { gender: "male", sexuality: "gay", genders: ["male"] },
      { gender: "female", sexuality: "lesbian", genders: ["female"] },
      { gender: "male", sexuality: "bi", genders: ["male", "female"] },
    ];
    for (const { gender, sexuality, genders } of cases) {
      const viewer = await member(gender, sexuality);
      const shown = await allCandidates(viewer, "match_finder");
      expect({ gender, sexuality, shown: sorted(shown) }).toEqual({ gender, sexuality, shown: await activeOnDefaultSite(genders, viewer.profileId) });
    }
  });

  it("shows newest members first with the card's fields and an empty state when none is left", async () => {
    const viewer = await member("female", "lesbian");
    const newest = await member("female");
    await api.db.update(profiles).set({ name: "Newest", aboutMe: `${"word ".repeat(100)}end`, interests: [1, 2, 3, 4, 5, 6, 7] }).where(eq(profiles.id, newest.profileId));
    const { profile, likes_left_today, daily_like_limit, matched } = await next(viewer, "swipe");
    expect(profile).toMatchObject({ id: newest.profileId, name: "Newest", country: "NL", interests: [1, 2, 3, 4, 5] });
    expect(profile?.age).toBeGreaterThanOrEqual(18);
    expect(profile?.about_me.length).toBeLessThanOrEqual(201);
    expect(profile?.about_me.endsWith("…")).toBe(true);
    expect({ likes_left_today, daily_like_limit, matched }).toEqual({ likes_left_today: 4, daily_like_limit: 4, matched: null });
    const finder = await next(viewer, "match_finder");
    expect({ left: finder.likes_left_today, limit: finder.daily_like_limit }).toEqual({ left: null, limit: null });
    await allCandidates(viewer, "swipe");
    expect((await next(viewer, "swipe")).profile).toBeNull();
  });
});

describe("decisions", () => {
  it("a like stores a like with the game as its source; a match when the other liked first", async () => {
    const viewer = await member("male");
    const fan = await member("female");
    const other = await member("female");
    await api.db.insert(likes).values({ likerProfileId: fan.profileId, likedProfileId: viewer.profileId, source: "profile" });

    const plain = await decided(viewer, "swipe", other.profileId, "like");
    expect(plain).toEqual({ decision: "like", match: false, matched: null, likes_left_today: 3 });
    expect((await likeRow(viewer.profileId, other.profileId))?.source).toBe("swipe");

    const match = await decided(viewer, "swipe", fan.profileId, "like");
    expect(match).toMatchObject({ decision: "like", match: true, likes_left_today: 2 });
    expect(match.matched?.id).toBe(fan.profileId);
    expect((await likeRow(viewer.profileId, fan.profileId))?.source).toBe("swipe");
    // The match notice after a redirect: only for a member the viewer really matched with.
    expect((await next(viewer, "swipe", fan.profileId)).matched?.id).toBe(fan.profileId);
    expect((await next(viewer, "swipe", other.profileId)).matched).toBeNull();

    const finder = await member("female");
    const finderLike = await decided(viewer, "match_finder", finder.profileId, "like");
    expect(finderLike).toEqual({ decision: "like", match: false, matched: null, likes_left_today: null });
    expect((await likeRow(viewer.profileId, finder.profileId))?.source).toBe("match_finder");
  });

  it("a pass stores no like, and deciding twice keeps the first decision", async () => {
    const viewer = await member("male");
    const target = await member("female");
    expect(await decided(viewer, "swipe", target.profileId, "pass")).toEqual({ decision: "pass", match: false, matched: null, likes_left_today: 4 });
    expect(await decided(viewer, "swipe", target.profileId, "pass")).toMatchObject({ decision: "pass" });
    expect(await decided(viewer, "swipe", target.profileId, "like")).toEqual({ decision: "pass", match: false, matched: null, likes_left_today: 4 });
    expect(await likeRow(viewer.profileId, target.profileId)).toBeNull();

    const liked = await member("female");
    await decided(viewer, "swipe", liked.profileId, "like");
    expect(await decided(viewer, "swipe", liked.profileId, "like")).toMatchObject({ decision: "like", likes_left_today: 3 });
    expect(await swipeLikesOf(viewer.profileId)).toBe(1);
  });
});

describe("the swipe game's daily likes", () => {
  it("allows 4 likes a day: the 5th is 429 swipe_limit_reached, passes and the match finder go on", async () => {
    const viewer = await member("male");
    const targets = await Promise.all(Array.from({ length: 7 }, () => member("female")));
    const left: (number | null)[] = [];
    for (const target of targets.slice(0, 4)) left.push((await decided(viewer, "swipe", target.profileId, "like")).likes_left_today);
    expect(left).toEqual([3, 2, 1, 0]);

    const refused = await expectApiError(await decide(viewer, "swipe", targets[4]!.profileId, "like"), 429, "swipe_limit_reached");
    expect(refused.params).toEqual({ limit: 4 });
    expect(await likeRow(viewer.profileId, targets[4]!.profileId)).toBeNull();
    // The refused member is still a candidate: nothing was recorded.
    const state = await next(viewer, "swipe");
    expect({ left: state.likes_left_today, limit: state.daily_like_limit }).toEqual({ left: 0, limit: 4 });

    expect(await decided(viewer, "swipe", targets[4]!.profileId, "pass")).toMatchObject({ decision: "pass", likes_left_today: 0 });
    // Liking a member already liked today is answered as before, not refused.
    expect(await decided(viewer, "swipe", targets[0]!.profileId, "like")).toMatchObject({ decision: "like", likes_left_today: 0 });
    expect(await decided(viewer, "match_finder", targets[5]!.profileId, "like")).toMatchObject({ decision: "like", likes_left_today: null });
    expect(await likeRow(viewer.profileId, targets[5]!.profileId)).not.toBeNull();
    expect(await swipeLikesOf(viewer.profileId)).toBe(4);
  });

  it("counts only today's likes (UTC): yesterday's do not use up today's", async () => {
    const viewer = await member("male");
    const earlier = await Promise.all(Array.from({ length: 4 }, () => member("female")));
    const startOfToday = new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
    await api.db.insert(discoveryDecisions).values(
      earlier.map((target) => ({ profileId: viewer.profileId, targetProfileId: target.profileId, game: "swipe" as const, decision: "like" as const, createdAt: new Date(startOfToday.getTime() - 60_000) })),
    );
    expect((await next(viewer, "swipe")).likes_left_today).toBe(4);
    const today = await member("female");
    expect((await decided(viewer, "swipe", today.profileId, "like")).likes_left_today).toBe(3);
  });

  it("never passes 4 likes with parallel requests", async () => {
    const viewer = await member("male");
    const targets = await Promise.all(Array.from({ length: 6 }, () => member("female")));
    const answers = await Promise.all(targets.map((target) => decide(viewer, "swipe", target.profileId, "like")));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(await swipeLikesOf(viewer.profileId)).toBe(4);
    const [liked] = await api.db
      .select({ n: count() })
      .from(likes)
      .where(and(eq(likes.likerProfileId, viewer.profileId), eq(likes.source, "swipe")));
    expect(liked?.n).toBe(4);
  });
});
