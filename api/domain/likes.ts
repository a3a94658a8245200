import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { preparedPerDatabase, type Bindable } from "../db/prepared";
import { blocks, likes, profiles, type likeSources } from "../db/schema";
import type { MemberCard } from "#contract/members";
import type { LikesResponse, likesTabs } from "#contract/likes";
import { badgeCountCap } from "#contract/user";
import { memberCards } from "./members";
import { eitherBlocked, listableTo, offeredTo } from "./visibility";
import { emitEventsNow } from "../events/emit";

/*
 * Likes between profiles (docs/product.md §4 Likes): like, unlike, a match when both like. The receiver's
 * like_new flag (likes.isNew) is cleared when they open the liker's profile.
 */

export type LikeSource = (typeof likeSources)[number];

type LikesTab = (typeof likesTabs)[number];

export type LikeOutcome =
  | { kind: "liked"; match: boolean; alreadyLiked: boolean }
  | { kind: "not_found" }
  | { kind: "blocked" };

/**
 * `likerProfileId` likes `targetProfileId` (an active, visible profile of the same site, not oneself).
 * Liking twice is harmless: the first like stays as it was (its time and like_new flag).
 * Invisible members' likes are stored too; lists hide them while the liker is invisible.
 */
export async function likeProfile(db: Db, siteId: number, likerProfileId: number, targetProfileId: number, source: LikeSource = "profile"): Promise<LikeOutcome> {
  if (likerProfileId === targetProfileId) return { kind: "not_found" };
  const [target] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, targetProfileId), eq(profiles.siteId, siteId), eq(profiles.status, "active")))
    .limit(1);
  if (!target) return { kind: "not_found" };
  if (await eitherBlocked(db, likerProfileId, targetProfileId)) return { kind: "blocked" };
  const inserted = await db
    .insert(likes)
    .values({ likerProfileId, likedProfileId: targetProfileId, source })
    .onConflictDoNothing()
    .returning({ liker: likes.likerProfileId });
  const match = await likesEachOther(db, likerProfileId, targetProfileId);
  if (inserted.length > 0) {
    // Live delivery: the liked member hears of it; a match reaches both.
    await emitEventsNow(db, [
      { profileId: targetProfileId, kind: match ? "match" : "like", fromProfileId: likerProfileId },
      ...(match ? [{ profileId: likerProfileId, kind: "match" as const, fromProfileId: targetProfileId }] : []),
    ]);
  }
  return { kind: "liked", match, alreadyLiked: inserted.length === 0 };
}

/** Takes a like back; a match between the two ends with it. Returns whether there was a like. */
export async function unlikeProfile(db: Db, likerProfileId: number, targetProfileId: number): Promise<boolean> {
  const deleted = await db
    .delete(likes)
    .where(and(eq(likes.likerProfileId, likerProfileId), eq(likes.likedProfileId, targetProfileId)))
    .returning({ liker: likes.likerProfileId });
  return deleted.length > 0;
}

export async function likesEachOther(db: Db, a: number, b: number): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(likes)
    .where(sql`(${likes.likerProfileId} = ${a} and ${likes.likedProfileId} = ${b}) or (${likes.likerProfileId} = ${b} and ${likes.likedProfileId} = ${a})`);
  return (row?.n ?? 0) === 2;
}

/** On every member page a member opens (api/db/prepared.ts). */
const markLikeSeenQuery = preparedPerDatabase((db) =>
  db
    .update(likes)
    .set({ isNew: false })
    .where(and(eq(likes.likerProfileId, sql.placeholder("likerProfileId")), eq(likes.likedProfileId, sql.placeholder("viewerProfileId")), eq(likes.isNew, true)))
    .prepare("mark_like_seen"),
);

/** Opening a liked profile clears its new-like flag (docs/product.md §4 Unread): `viewer` opened `liker`'s page. */
export async function markLikeSeen(db: Db, viewerProfileId: number, likerProfileId: number): Promise<void> {
  await markLikeSeenQuery(db).execute({ viewerProfileId, likerProfileId });
}

/** Removes the pair's likes in both directions (blocking, docs/product.md §4: "A blocked user loses chats and likes"). */
export async function removeLikesBetween(db: Pick<Db, "delete">, a: number, b: number): Promise<void> {
  await db
    .delete(likes)
    .where(sql`(${likes.likerProfileId} = ${a} and ${likes.likedProfileId} = ${b}) or (${likes.likerProfileId} = ${b} and ${likes.likedProfileId} = ${a})`);
}

/** The relation of the viewer to a member shown on the member page. */
export type Relation = { liked: boolean; liked_me: boolean; match: boolean; blocked_by_me: boolean };

const relationQuery = preparedPerDatabase((db) => {
  const [viewer, other] = [sql.placeholder("viewerProfileId"), sql.placeholder("otherProfileId")];
  return db
    .select({
      liked: sql<boolean>`exists(select 1 from ${likes} where ${likes.likerProfileId} = ${viewer} and ${likes.likedProfileId} = ${other})`,
      likedMe: sql<boolean>`exists(select 1 from ${likes} where ${likes.likerProfileId} = ${other} and ${likes.likedProfileId} = ${viewer})`,
      blockedByMe: sql<boolean>`exists(select 1 from ${blocks} where ${blocks.blockerProfileId} = ${viewer} and ${blocks.blockedProfileId} = ${other})`,
      blockedMe: sql<boolean>`exists(select 1 from ${blocks} where ${blocks.blockerProfileId} = ${other} and ${blocks.blockedProfileId} = ${viewer})`,
    })
    .from(profiles)
    .where(eq(profiles.id, other))
    .prepare("relation_to");
});

/** The relation, and whether the other member blocked the viewer (docs/product.md §6: then the page is refused), in one query. */
export async function relationTo(db: Db, viewerProfileId: number, otherProfileId: number): Promise<Relation & { blockedMe: boolean }> {
  const [row] = await relationQuery(db).execute({ viewerProfileId, otherProfileId });
  const liked = Boolean(row?.liked);
  const likedMe = Boolean(row?.likedMe);
  return { liked, liked_me: likedMe, match: liked && likedMe, blocked_by_me: Boolean(row?.blockedByMe), blockedMe: Boolean(row?.blockedMe) };
}

/** Conditions on `profiles` for the other side of a like shown to `viewer`: same site, active, listable (not invisible, no block). */
function shownTo(siteId: Bindable<number>, viewerProfileId: Bindable<number>) {
  return and(eq(profiles.siteId, siteId), eq(profiles.status, "active"), listableTo(viewerProfileId));
}

/**
 * The viewer's likes for GET /api/likes.php: sent (docs/product.md §3 "likes are profiles"), received (liked_by, new first,
 * then older, each newest first) and matches. Each list holds at most `cap` entries; with `tab`, that list's page alone
 * (the /likes/{type} page shows one; pages end at `cap`), the others empty.
 */
export async function likesOverview(db: Db, siteId: number, viewerProfileId: number, cap: number, tab?: { tab: LikesTab; page: number; pageSize: number }, today = new Date()): Promise<LikesResponse> {
  const back = alias(likes, "back");
  const wants = (list: LikesTab) => tab === undefined || tab.tab === list;
  // A page and one more row (is there a next page?), never past the cap: the offset is at most cap - pageSize.
  const offset = tab ? (tab.page - 1) * tab.pageSize : 0;
  const take = tab ? Math.min(tab.pageSize + 1, cap - offset) : cap;
  const sent = !wants("sent") ? [] : await db
    .select({ profile: profiles, likedAt: likes.createdAt, match: sql<boolean>`${back.likerProfileId} is not null` })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likedProfileId))
    .leftJoin(back, and(eq(back.likerProfileId, likes.likedProfileId), eq(back.likedProfileId, likes.likerProfileId)))
    .where(and(eq(likes.likerProfileId, viewerProfileId), shownTo(siteId, viewerProfileId)))
    .orderBy(desc(likes.createdAt), desc(profiles.id))
    .limit(take)
    .offset(offset);
  const received = !wants("received") ? [] : await db
    .select({ profile: profiles, likedAt: likes.createdAt, isNew: likes.isNew, match: sql<boolean>`${back.likerProfileId} is not null` })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likerProfileId))
    .leftJoin(back, and(eq(back.likerProfileId, likes.likedProfileId), eq(back.likedProfileId, likes.likerProfileId)))
    .where(and(eq(likes.likedProfileId, viewerProfileId), shownTo(siteId, viewerProfileId)))
    .orderBy(desc(likes.isNew), desc(likes.createdAt), desc(profiles.id))
    .limit(take)
    .offset(offset);
  const matchedAt = sql<Date>`greatest(${likes.createdAt}, ${back.createdAt})`;
  const matched = !wants("matches") ? [] : await db
    .select({ profile: profiles, matchedAt: sql<string>`${matchedAt}` })
    .from(likes)
    .innerJoin(back, and(eq(back.likerProfileId, likes.likedProfileId), eq(back.likedProfileId, likes.likerProfileId)))
    .innerJoin(profiles, eq(profiles.id, likes.likedProfileId))
    .where(and(eq(likes.likerProfileId, viewerProfileId), shownTo(siteId, viewerProfileId)))
    .orderBy(desc(matchedAt), desc(profiles.id))
    .limit(take)
    .offset(offset);

  const hasMore = tab !== undefined && [sent, received, matched].some((rows) => rows.length > tab.pageSize);
  if (tab) for (const rows of [sent, received, matched]) rows.splice(tab.pageSize);
  const cards = await memberCards(db, [...sent, ...received, ...matched].map((r) => r.profile), today);
  const sentCards = cards.slice(0, sent.length);
  const receivedCards = cards.slice(sent.length, sent.length + received.length);
  const matchCards = cards.slice(sent.length + received.length);
  return {
    profiles: sentCards.map((card, i) => ({ ...card, liked_at: iso(sent[i]?.likedAt), match: Boolean(sent[i]?.match) })),
    liked_by: received.map((r) => ({ id: r.profile.id, like_new: r.isNew, liked_at: iso(r.likedAt), match: Boolean(r.match) })),
    liked_by_profiles: receivedCards,
    matches: matchCards.map((card, i) => ({ ...card, matched_at: iso(matched[i]?.matchedAt) })),
    new_likes: await newLikesCount(db, siteId, viewerProfileId),
    limit: cap,
    has_more: hasMore,
  };
}

/** A timestamp as ISO 8601; raw SQL expressions arrive as strings from node-postgres and PGlite alike. */
function iso(value: Date | string | undefined): string {
  if (value === undefined) return "";
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** docs/product.md §3 "total new likes": likes of the viewer not yet seen, from members the viewer may see. */
export async function newLikesCount(db: Db, siteId: number, viewerProfileId: number): Promise<number> {
  const [row] = await newLikesQuery(db, siteId, viewerProfileId);
  return row?.n ?? 0;
}

/**
 * newLikesCount's query, also usable as a subquery (loadMe): one row with n, at most badgeCountCap
 * (contract/user.ts), which stands for that many or more; it reads at most that many new likes (likes_received_idx).
 */
export function newLikesQuery(db: Db, siteId: Bindable<number>, viewerProfileId: Bindable<number>) {
  const fresh = db
    .select({ one: sql<number>`1`.as("one") })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likerProfileId))
    .where(and(eq(likes.likedProfileId, viewerProfileId), eq(likes.isNew, true), shownTo(siteId, viewerProfileId)))
    .limit(badgeCountCap)
    .as("fresh");
  return db.select({ n: sql<number>`count(*)::int` }).from(fresh);
}

/**
 * docs/product.md §7 auto-like: an active fictional profile of the site that fits the member (the genders they look for),
 * listable to them and with no like either way yet, likes the member (source "auto"). At most one auto-like
 * per member per 24 hours; null when that one was given already or no profile fits.
 * The member's profile row is locked, so two requests at once cannot both give one.
 */
export async function autoLike(db: Db, siteId: number, memberProfileId: number, today = new Date()): Promise<MemberCard | null> {
  return db.transaction(async (tx) => {
    const [me] = await tx.select().from(profiles).where(eq(profiles.id, memberProfileId)).for("update");
    if (!me) return null;
    const [recent] = await tx
      .select({ one: sql<number>`1` })
      .from(likes)
      .where(and(eq(likes.likedProfileId, me.id), eq(likes.source, "auto"), sql`${likes.createdAt} > now() - interval '24 hours'`))
      .limit(1);
    if (recent) return null;
    const [pick] = await tx
      .select()
      .from(profiles)
      .where(
        and(
          offeredTo(siteId, me),
          eq(profiles.fictional, true),
          sql`not exists (select 1 from ${likes} where (${likes.likerProfileId} = ${profiles.id} and ${likes.likedProfileId} = ${me.id}) or (${likes.likerProfileId} = ${me.id} and ${likes.likedProfileId} = ${profiles.id}))`,
        ),
      )
      .orderBy(sql`random()`)
      .limit(1);
    if (!pick) return null;
    await tx.insert(likes).values({ likerProfileId: pick.id, likedProfileId: me.id, source: "auto" }).onConflictDoNothing();
    const [card] = await memberCards(tx, [pick], today);
    return card ?? null;
  });
}
