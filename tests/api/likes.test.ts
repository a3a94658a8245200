import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { AutoLikeResponse, LikeResponse, LikesResponse, UnlikeResponse } from "#contract/likes";
import { UserResponse } from "#contract/user";
import { blocks, likes, profiles } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { call, expectApiError, insertMember, login, startApi, type Harness } from "./harness";

/** Like and unlike, GET /api/likes.php, counts in user.php, auto-like and the page-hidden beacon. */
let api: Harness;
let passwordHash: string;
const password = "likes-test-password";

type Member = { userId: number; profileId: number; email: string; token: string };

async function newMember(options: { host?: string; gender?: "male" | "female"; sexuality?: "hetero" | "gay" | "lesbian" | "bi" } = {}): Promise<Member> {
  const inserted = await insertMember(api, { passwordHash, host: options.host });
  if (options.gender || options.sexuality) {
    await api.db
      .update(profiles)
      .set({ gender: options.gender ?? "male", sexuality: options.sexuality ?? "hetero" })
      .where(eq(profiles.id, inserted.profileId));
  }
  return { ...inserted, token: await login(api.baseUrl, inserted.email, password, options.host) };
}

async function like(who: Member, id: number | string) {
  return call(api, "POST", "/api/like.php", { token: who.token, body: { id } });
}

async function likesOf(who: Member) {
  const res = await call(api, "GET", "/api/likes.php", { token: who.token });
  expect(res.status).toBe(200);
  return LikesResponse.parse(await res.json());
}

async function newLikesOf(who: Member): Promise<number | undefined> {
  const res = await call(api, "GET", "/api/user.php", { token: who.token });
  return UserResponse.parse(await res.json()).counts?.new_likes;
}

beforeAll(async () => {
  api = await startApi();
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
});

describe("likes need a member", () => {
  it("answers 403 authentication_required to a visitor", async () => {
    await expectApiError(await call(api, "POST", "/api/like.php", { body: { id: 1 } }), 403, "authentication_required");
    await expectApiError(await call(api, "DELETE", "/api/like.php?id=1"), 403, "authentication_required");
    await expectApiError(await call(api, "GET", "/api/likes.php"), 403, "authentication_required");
    await expectApiError(await call(api, "GET", "/api/auto-like.php"), 403, "authentication_required");
  });

  it("gives a visitor no counts in user.php", async () => {
    const body = UserResponse.parse(await (await call(api, "GET", "/api/user.php")).json());
    expect(body).toEqual({ user: null });
  });
});

describe("POST and DELETE /api/like.php", () => {
  it("likes a member, lists them as sent and the liker as received, and unlikes", async () => {
    const a = await newMember();
    const b = await newMember();
    const res = await like(a, b.profileId);
    expect(res.status).toBe(200);
    const liked = LikeResponse.parse(await res.json());
    expect(liked.match).toBe(false);
    expect(liked.profile.id).toBe(b.profileId);

    expect((await likesOf(a)).profiles.map((p) => p.id)).toEqual([b.profileId]);
    const received = await likesOf(b);
    expect(received.liked_by).toEqual([expect.objectContaining({ id: a.profileId, like_new: true, match: false })]);
    expect(received.liked_by_profiles.map((p) => p.id)).toEqual([a.profileId]);
    expect(await newLikesOf(b)).toBe(1);

    const unliked = await call(api, "DELETE", `/api/like.php?id=${b.profileId}`, { token: a.token });
    expect(UnlikeResponse.parse(await unliked.json())).toEqual({ removed: true });
    const again = await call(api, "DELETE", `/api/like.php?id=${b.profileId}`, { token: a.token });
    expect(UnlikeResponse.parse(await again.json())).toEqual({ removed: false });
    expect((await likesOf(a)).profiles).toEqual([]);
    expect((await likesOf(b)).liked_by).toEqual([]);
    expect(await newLikesOf(b)).toBe(0);
  });

  it("keeps the first like when a member likes twice", async () => {
    const a = await newMember();
    const b = await newMember();
    expect((await like(a, b.profileId)).status).toBe(200);
    const first = (await likesOf(b)).liked_by[0];
    expect((await like(a, b.profileId)).status).toBe(200);
    const after = await likesOf(b);
    expect(after.liked_by).toHaveLength(1);
    expect(after.liked_by[0]).toEqual(first);
  });

  it("answers 404 for oneself, another site's member, an unknown and an inactive profile, and 400 for a bad id", async () => {
    const a = await newMember();
    const elsewhere = await newMember({ host: "she.localhost" });
    const inactive = await insertMember(api, { passwordHash, status: "deleted" });
    for (const id of [a.profileId, elsewhere.profileId, 999_999, inactive.profileId]) {
      const res = await like(a, id);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      await expectApiError(res, 404, "not_found");
    }
    await expectApiError(await like(a, "abc"), 400, "validation_failed");
    await expectApiError(await call(api, "DELETE", "/api/like.php?id=abc", { token: a.token }), 400, "validation_failed");
    expect((await likesOf(a)).profiles).toEqual([]);
  });

  it("makes a match when both like, listed under matches for both", async () => {
    const a = await newMember();
    const b = await newMember();
    expect(LikeResponse.parse(await (await like(a, b.profileId)).json()).match).toBe(false);
    const back = LikeResponse.parse(await (await like(b, a.profileId)).json());
    expect(back.match).toBe(true);
    expect(back.profile.id).toBe(a.profileId);

    const ofA = await likesOf(a);
    const ofB = await likesOf(b);
    expect(ofA.matches.map((m) => m.id)).toEqual([b.profileId]);
    expect(ofB.matches.map((m) => m.id)).toEqual([a.profileId]);
    expect(ofA.profiles[0]).toMatchObject({ id: b.profileId, match: true });
    expect(ofB.liked_by[0]).toMatchObject({ id: a.profileId, match: true });

    // Taking a like back ends the match on both sides.
    await call(api, "DELETE", `/api/like.php?id=${a.profileId}`, { token: b.token });
    expect((await likesOf(a)).matches).toEqual([]);
    expect((await likesOf(b)).matches).toEqual([]);
  });
});

describe("GET /api/likes.php liked_by and the new-like flag", () => {
  it("lists new likes first, then older ones, and clears a flag when the receiver opens the liker's page", async () => {
    const receiver = await newMember();
    const [first, second, third] = [await newMember(), await newMember(), await newMember()];
    for (const liker of [first!, second!, third!]) expect((await like(liker, receiver.profileId)).status).toBe(200);
    let list = await likesOf(receiver);
    // All new: newest first.
    expect(list.liked_by.map((l) => [l.id, l.like_new])).toEqual([
      [third!.profileId, true],
      [second!.profileId, true],
      [first!.profileId, true],
    ]);
    expect(list.new_likes).toBe(3);
    expect(await newLikesOf(receiver)).toBe(3);

    // Opening the newest liker's page clears that flag only: it moves behind the new ones.
    expect((await call(api, "GET", `/api/member.php?id=${third!.profileId}`, { token: receiver.token })).status).toBe(200);
    list = await likesOf(receiver);
    expect(list.liked_by.map((l) => [l.id, l.like_new])).toEqual([
      [second!.profileId, true],
      [first!.profileId, true],
      [third!.profileId, false],
    ]);
    expect(list.liked_by_profiles.map((p) => p.id)).toEqual(list.liked_by.map((l) => l.id));
    expect(list.new_likes).toBe(2);
    expect(await newLikesOf(receiver)).toBe(2);

    // Opening it again changes nothing; another member opening the page clears nothing of the receiver's.
    await call(api, "GET", `/api/member.php?id=${third!.profileId}`, { token: receiver.token });
    await call(api, "GET", `/api/member.php?id=${second!.profileId}`, { token: first!.token });
    expect(await newLikesOf(receiver)).toBe(2);
  });

  it("answers one tab's list with ?tab= (the /likes/{type} page), the counts either way, and 400 for an unknown tab", async () => {
    const viewer = await newMember();
    const [liker, liked] = [await newMember(), await newMember()];
    expect((await like(liker, viewer.profileId)).status).toBe(200);
    expect((await like(viewer, liked.profileId)).status).toBe(200);
    expect((await like(viewer, liker.profileId)).status).toBe(200);
    const tab = async (name: string) => {
      const res = await call(api, "GET", `/api/likes.php?tab=${name}`, { token: viewer.token });
      expect(res.status).toBe(200);
      const body = LikesResponse.parse(await res.json());
      return { sent: body.profiles.map((p) => p.id), received: body.liked_by.map((l) => l.id), cards: body.liked_by_profiles.length, matches: body.matches.map((m) => m.id), new: body.new_likes };
    };
    expect(await tab("received")).toEqual({ sent: [], received: [liker.profileId], cards: 1, matches: [], new: 1 });
    expect(await tab("sent")).toEqual({ sent: [liker.profileId, liked.profileId], received: [], cards: 0, matches: [], new: 1 });
    expect(await tab("matches")).toEqual({ sent: [], received: [], cards: 0, matches: [liker.profileId], new: 1 });
    await expectApiError(await call(api, "GET", "/api/likes.php?tab=all", { token: viewer.token }), 400, "validation_failed");
  });

  it("pages a tab 40 at a time up to the list's cap of 200 (?page=1-5), with has_more", async () => {
    const receiver = await newMember();
    const likers: { profileId: number }[] = [];
    for (let i = 0; i < 45; i++) likers.push(await insertMember(api, { passwordHash }));
    await api.db.insert(likes).values(likers.map((liker) => ({ likerProfileId: liker.profileId, likedProfileId: receiver.profileId })));
    const page = async (n: number) => {
      const res = await call(api, "GET", `/api/likes.php?tab=received&page=${n}`, { token: receiver.token });
      expect(res.status).toBe(200);
      const body = LikesResponse.parse(await res.json());
      return { ids: body.liked_by.map((l) => l.id), cards: body.liked_by_profiles.length, more: body.has_more };
    };
    const [first, second] = [await page(1), await page(2)];
    expect({ n: first.ids.length, cards: first.cards, more: first.more }).toEqual({ n: 40, cards: 40, more: true });
    expect({ n: second.ids.length, more: second.more }).toEqual({ n: 5, more: false });
    expect(new Set([...first.ids, ...second.ids])).toEqual(new Set(likers.map((liker) => liker.profileId)));
    expect(await page(5)).toEqual({ ids: [], cards: 0, more: false });
    await expectApiError(await call(api, "GET", "/api/likes.php?tab=received&page=6", { token: receiver.token }), 400, "validation_failed");
    await expectApiError(await call(api, "GET", "/api/likes.php?tab=received&page=0", { token: receiver.token }), 400, "validation_failed");
  });

  it("counts new likes up to 100, which the badges show as 99+ (the api reads at most 100 likes for it)", async () => {
    const receiver = await newMember();
    const likers: { profileId: number }[] = [];
    for (let i = 0; i < 101; i++) likers.push(await insertMember(api, { passwordHash }));
    await api.db.insert(likes).values(likers.slice(0, 99).map((liker) => ({ likerProfileId: liker.profileId, likedProfileId: receiver.profileId })));
    expect({ user: await newLikesOf(receiver), page: (await likesOf(receiver)).new_likes }).toEqual({ user: 99, page: 99 });
    await api.db.insert(likes).values(likers.slice(99).map((liker) => ({ likerProfileId: liker.profileId, likedProfileId: receiver.profileId })));
    expect({ user: await newLikesOf(receiver), page: (await likesOf(receiver)).new_likes }).toEqual({ user: 100, page: 100 });
  });

  it("leaves out an invisible liker from liked_by, profiles, matches and the counts", async () => {
    const viewer = await newMember();
    const hidden = await newMember();
    expect((await like(hidden, viewer.profileId)).status).toBe(200);
    expect((await like(viewer, hidden.profileId)).status).toBe(200);
    expect((await likesOf(viewer)).matches).toHaveLength(1);
    await api.db.update(profiles).set({ invisible: true }).where(eq(profiles.id, hidden.profileId));
    const list = await likesOf(viewer);
    expect(list.liked_by).toEqual([]);
    expect(list.liked_by_profiles).toEqual([]);
    expect(list.profiles).toEqual([]);
    expect(list.matches).toEqual([]);
    expect(list.new_likes).toBe(0);
    expect(await newLikesOf(viewer)).toBe(0);
    await api.db.update(profiles).set({ invisible: false }).where(eq(profiles.id, hidden.profileId));
    expect(await newLikesOf(viewer)).toBe(1);
  });

  it("shows a blocked pair nowhere and lets neither like the other", async () => {
    const blocker = await newMember();
    const blocked = await newMember();
    // Likes from before the block (blocking through the api removes them; here they stay to prove the lists hide them).
    await api.db.insert(likes).values([
      { likerProfileId: blocker.profileId, likedProfileId: blocked.profileId },
      { likerProfileId: blocked.profileId, likedProfileId: blocker.profileId },
    ]);
    await api.db.insert(blocks).values({ blockerProfileId: blocker.profileId, blockedProfileId: blocked.profileId });
    for (const who of [blocker, blocked]) {
      const list = await likesOf(who);
      expect({ sent: list.profiles, received: list.liked_by, matches: list.matches, new: list.new_likes }).toEqual({ sent: [], received: [], matches: [], new: 0 });
      expect(await newLikesOf(who)).toBe(0);
    }
    const refused = await expectApiError(await like(blocked, blocker.profileId), 403, "blocked_by_member");
    expect(refused.params?.name).toBeTruthy();
    await expectApiError(await like(blocker, blocked.profileId), 404, "not_found");
  });

  it("always lists the session's own likes: an id parameter shows nobody else's", async () => {
    const a = await newMember();
    const b = await newMember();
    const c = await newMember();
    await like(b, c.profileId);
    const own = await likesOf(a);
    const res = await call(api, "GET", `/api/likes.php?id=${b.profileId}`, { token: a.token });
    expect(LikesResponse.parse(await res.json())).toEqual(own);
    expect(own.profiles).toEqual([]);
  });
});

describe("GET /api/auto-like.php", () => {
  async function autoLike(who: Member) {
    const res = await call(api, "GET", "/api/auto-like.php", { token: who.token });
    expect(res.status).toBe(200);
    return AutoLikeResponse.parse(await res.json()).profile;
  }

  it("gives a fictional profile of the sought gender that likes the member, once in 24 hours", async () => {
    const man = await newMember({ gender: "male", sexuality: "hetero" });
    const profile = await autoLike(man);
    expect(profile).not.toBeNull();
    const [row] = await api.db.select().from(profiles).where(eq(profiles.id, profile!.id));
    expect({ fictional: row?.fictional, gender: row?.gender, invisible: row?.invisible }).toEqual({ fictional: true, gender: "female", invisible: false });
    const list = await likesOf(man);
    expect(list.liked_by[0]).toMatchObject({ id: profile!.id, like_new: true });
    const [stored] = await api.db.select().from(likes).where(and(eq(likes.likerProfileId, profile!.id), eq(likes.likedProfileId, man.profileId)));
    expect(stored?.source).toBe("auto");
    expect(await newLikesOf(man)).toBe(1);

    expect(await autoLike(man)).toBeNull();
    // A day later the next one may come.
    await api.db.update(likes).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(likes.likedProfileId, man.profileId));
    const next = await autoLike(man);
    expect(next).not.toBeNull();
    expect(next!.id).not.toBe(profile!.id);
  });

  it("picks the member's own gender for a lesbian member", async () => {
    const woman = await newMember({ gender: "female", sexuality: "lesbian" });
    const profile = await autoLike(woman);
    const [row] = await api.db.select().from(profiles).where(eq(profiles.id, profile?.id ?? 0));
    expect(row?.gender).toBe("female");
  });
});

describe("POST /api/page-hidden.php", () => {
  it("logs one line with the member and the page path, never the query", async () => {
    const member = await newMember();
    const res = await call(api, "POST", "/api/page-hidden.php", {
      token: member.token,
      body: {},
      headers: { Referer: "http://localhost/members/12?lb=1&token=secret-token-value" },
    });
    expect(res.status).toBe(204);
    const lines = api.logLines.filter((line) => line.includes('"page hidden"'));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { memberId: number; page: string };
    expect({ memberId: line.memberId, page: line.page }).toEqual({ memberId: member.userId, page: "/members/12" });
    expect(api.logLines.some((l) => l.includes("secret-token-value"))).toBe(false);
  });
});
