import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { discoveryDecisions, likes, profiles } from "../db/schema";
import { swipeLikesPerDay, type DiscoveryCard, type DiscoveryDecision, type DiscoveryDecisionResponse, type DiscoveryGame, type DiscoveryResponse } from "#contract/discovery";
import type { MemberCard } from "#contract/members";
import { likeProfile, likesEachOther } from "./likes";
import { memberCards } from "./members";
import { listableTo, offeredTo } from "./visibility";

/*
 * Discovery: /swipe-game and /match-finder show one candidate at a time to like or pass.
 * - A candidate is an active member of the viewer's site, listable to the viewer (not invisible, no block
 *   either way), not the viewer, not yet decided on in this game and not yet liked by the viewer, of a
 *   gender the viewer looks for (soughtGenders: hetero the other gender, gay and lesbian their own, bi both).
 * - The swipe game allows swipeLikesPerDay likes per UTC calendar day; passing is unlimited.
 * - The match finder has no daily limit: it is the unlimited way of browsing one profile at a time.
 */

/** Midnight UTC at the start of the calendar day of `now`: the swipe game's likes count from here. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Likes left in the swipe game after `likedToday` likes since the start of the UTC day (never below 0). */
export function swipeLikesLeft(likedToday: number): number {
  return Math.max(0, swipeLikesPerDay - likedToday);
}

/** How long the start of the about-me text on a card is, in characters. */
const aboutMeSnippetLength = 200;
/** How many interests a card shows. */
const cardInterests = 5;

/** The start of a text, cut at a word boundary with an ellipsis when it is longer than `max`. */
export function snippet(text: string, max = aboutMeSnippetLength): string {
  const clean = text.trim().replace(/\s+/g, " ");
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s.,;:!?-]+$/, "")}…`;
}

type Viewer = { profileId: number };
type Executor = Pick<Db, "select">;

async function swipeLikesToday(db: Executor, viewerProfileId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(discoveryDecisions)
    .where(
      and(
        eq(discoveryDecisions.profileId, viewerProfileId),
        eq(discoveryDecisions.game, "swipe"),
        eq(discoveryDecisions.decision, "like"),
        gte(discoveryDecisions.createdAt, startOfUtcDay(now)),
      ),
    );
  return row?.n ?? 0;
}

/** Likes left today in `game`: a number in the swipe game, null (no limit) in the match finder. */
async function likesLeftIn(db: Executor, game: DiscoveryGame, viewerProfileId: number, now: Date): Promise<number | null> {
  return game === "swipe" ? swipeLikesLeft(await swipeLikesToday(db, viewerProfileId, now)) : null;
}

/** The card of a member of the site that the viewer may see (active, listable), or null. */
async function visibleCard(db: Db, siteId: number, viewerProfileId: number, profileId: number, now: Date): Promise<MemberCard | null> {
  if (profileId === viewerProfileId) return null;
  const rows = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.siteId, siteId), eq(profiles.status, "active"), listableTo(viewerProfileId)))
    .limit(1);
  const [card] = await memberCards(db, rows, now);
  return card ?? null;
}

/** The next candidate for `viewer` in `game` (newest members first), or null when none is left. */
export async function nextCandidate(db: Db, siteId: number, viewer: Viewer, game: DiscoveryGame, now = new Date()): Promise<DiscoveryCard | null> {
  const [me] = await db.select({ gender: profiles.gender, sexuality: profiles.sexuality }).from(profiles).where(eq(profiles.id, viewer.profileId));
  if (!me) return null;
  const rows = await db
    .select()
    .from(profiles)
    .where(
      and(
        offeredTo(siteId, { id: viewer.profileId, ...me }),
        sql`not exists (select 1 from ${discoveryDecisions} where ${discoveryDecisions.profileId} = ${viewer.profileId} and ${discoveryDecisions.targetProfileId} = ${profiles.id} and ${discoveryDecisions.game} = ${game})`,
        sql`not exists (select 1 from ${likes} where ${likes.likerProfileId} = ${viewer.profileId} and ${likes.likedProfileId} = ${profiles.id})`,
      ),
    )
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const [card] = await memberCards(db, [row], now);
  if (!card) return null;
  return { ...card, about_me: snippet(row.aboutMe), interests: row.interests.slice(0, cardInterests) };
}

/** GET /api/discovery.php: the next card, the likes left today and, when asked, the card of a member the viewer matched with. */
export async function discoveryState(db: Db, siteId: number, viewer: Viewer, game: DiscoveryGame, matchId?: number, now = new Date()): Promise<DiscoveryResponse> {
  const [profile, likesLeft, matched] = await Promise.all([
    nextCandidate(db, siteId, viewer, game, now),
    likesLeftIn(db, game, viewer.profileId, now),
    matchId === undefined ? null : matchedCard(db, siteId, viewer.profileId, matchId, now),
  ]);
  return { profile, likes_left_today: likesLeft, daily_like_limit: game === "swipe" ? swipeLikesPerDay : null, matched };
}

async function matchedCard(db: Db, siteId: number, viewerProfileId: number, otherProfileId: number, now: Date): Promise<MemberCard | null> {
  if (!(await likesEachOther(db, viewerProfileId, otherProfileId))) return null;
  return visibleCard(db, siteId, viewerProfileId, otherProfileId, now);
}

export type DecisionOutcome = { kind: "decided"; answer: DiscoveryDecisionResponse } | { kind: "not_found" } | { kind: "limit_reached"; limit: number };

/** Rolls a decision's transaction back when the like turns out impossible (target gone or blocked in between). */
class LikeRefused extends Error {}

/**
 * POST /api/discovery.php: records the viewer's decision on `targetId` in `game`; a like goes through
 * likeProfile (source swipe or match_finder) and may make a match.
 * The swipe game's likes are counted and inserted in one transaction with the viewer's profile row
 * locked, so parallel requests cannot pass the daily limit together. Deciding again on the same
 * member answers the first decision again and changes nothing.
 */
export async function decide(
  db: Db,
  siteId: number,
  viewer: Viewer,
  game: DiscoveryGame,
  targetId: number,
  decision: DiscoveryDecision,
  now = new Date(),
): Promise<DecisionOutcome> {
  const target = await visibleCard(db, siteId, viewer.profileId, targetId, now);
  if (!target) return { kind: "not_found" };
  const answer = (stood: DiscoveryDecision, match: boolean, likesLeft: number | null): DecisionOutcome => ({
    kind: "decided",
    answer: { decision: stood, match, matched: match ? target : null, likes_left_today: likesLeft },
  });
  try {
    return await db.transaction(async (tx) => {
      const limited = game === "swipe" && decision === "like";
      // Serialises this member's swipe likes: the count below sees every like committed before it.
      if (limited) await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, viewer.profileId)).for("update");
      const decisionSoFar = async () => {
        const [row] = await tx
          .select({ decision: discoveryDecisions.decision })
          .from(discoveryDecisions)
          .where(and(eq(discoveryDecisions.profileId, viewer.profileId), eq(discoveryDecisions.targetProfileId, targetId), eq(discoveryDecisions.game, game)));
        return row?.decision;
      };
      const standing = async (stood: DiscoveryDecision): Promise<DecisionOutcome> => {
        const match = stood === "like" && (await likesEachOther(tx, viewer.profileId, targetId));
        return answer(stood, match, await likesLeftIn(tx, game, viewer.profileId, now));
      };
      const earlier = await decisionSoFar();
      if (earlier) return standing(earlier);
      if (limited && (await swipeLikesToday(tx, viewer.profileId, now)) >= swipeLikesPerDay) {
        return { kind: "limit_reached", limit: swipeLikesPerDay } as const;
      }
      const inserted = await tx
        .insert(discoveryDecisions)
        .values({ profileId: viewer.profileId, targetProfileId: targetId, game, decision, createdAt: now })
        .onConflictDoNothing()
        .returning({ decision: discoveryDecisions.decision });
      // A parallel request decided on this member first (the match finder takes no lock): its decision stands.
      if (inserted.length === 0) return standing((await decisionSoFar()) ?? decision);
      let match = false;
      if (decision === "like") {
        const liked = await likeProfile(tx, siteId, viewer.profileId, targetId, game);
        if (liked.kind !== "liked") throw new LikeRefused();
        match = liked.match;
      }
      return answer(decision, match, await likesLeftIn(tx, game, viewer.profileId, now));
    });
  } catch (error) {
    if (error instanceof LikeRefused) return { kind: "not_found" };
    throw error;
  }
}
