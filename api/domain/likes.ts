import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { blocks, likes, likeSources, profiles } from "../db/schema";
import { eitherBlocked } from "./visibility";

/*
 * Likes between profiles (spec 4 Likes): like, unlike, a match when both like. The receiver's
 * like_new flag (likes.isNew) is cleared when they open the liker's profile.
 */

export type LikeSource = (typeof likeSources)[number];

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

/** Opening a liked profile clears its new-like flag (spec 4 Unread): `viewer` opened `liker`'s page. */
export async function markLikeSeen(db: Db, viewerProfileId: number, likerProfileId: number): Promise<void> {
  await db
    .update(likes)
    .set({ isNew: false })
    .where(and(eq(likes.likerProfileId, likerProfileId), eq(likes.likedProfileId, viewerProfileId), eq(likes.isNew, true)));
}

/** Removes the pair's likes in both directions (blocking, spec 4: "A blocked user loses chats and likes"). */
export async function removeLikesBetween(db: Pick<Db, "delete">, a: number, b: number): Promise<void> {
  await db
    .delete(likes)
    .where(sql`(${likes.likerProfileId} = ${a} and ${likes.likedProfileId} = ${b}) or (${likes.likerProfileId} = ${b} and ${likes.likedProfileId} = ${a})`);
}

/** The relation of the viewer to a member shown on the member page. */
export type Relation = { liked: boolean; liked_me: boolean; match: boolean; blocked_by_me: boolean };

export async function relationTo(db: Db, viewerProfileId: number, otherProfileId: number): Promise<Relation> {
  const [row] = await db
    .select({
      liked: sql<boolean>`exists(select 1 from ${likes} where ${likes.likerProfileId} = ${viewerProfileId} and ${likes.likedProfileId} = ${otherProfileId})`,
      likedMe: sql<boolean>`exists(select 1 from ${likes} where ${likes.likerProfileId} = ${otherProfileId} and ${likes.likedProfileId} = ${viewerProfileId})`,
      blockedByMe: sql<boolean>`exists(select 1 from ${blocks} where ${blocks.blockerProfileId} = ${viewerProfileId} and ${blocks.blockedProfileId} = ${otherProfileId})`,
    })
    .from(profiles)
    .where(eq(profiles.id, otherProfileId));
  const liked = Boolean(row?.liked);
  const likedMe = Boolean(row?.likedMe);
  return { liked, liked_me: likedMe, match: liked && likedMe, blocked_by_me: Boolean(row?.blockedByMe) };
}
