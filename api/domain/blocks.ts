import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { blocks, profiles } from "../db/schema";
import type { BlocksResponse } from "#contract/blocks";
import { removeLikesBetween } from "./likes";
import { removeConversationsBetween } from "./chat";
import { memberCards } from "./members";

/*
 * Blocking (docs/product.md §4 Likes: "A blocked user loses chats and likes"; §6 Blocked user: "cannot view the
 * blocker's profile or contact them"). Who sees whom once blocked is visibility.ts's business; here the
 * block itself and what it takes away.
 */

/** Another profile of the site that the viewer may block or unblock; `activeOnly` for blocking. */
async function blockableProfile(db: Db, siteId: number, viewerProfileId: number, targetProfileId: number, activeOnly: boolean): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, targetProfileId), eq(profiles.siteId, siteId), ne(profiles.id, viewerProfileId), activeOnly ? eq(profiles.status, "active") : undefined))
    .limit(1);
  return Boolean(row);
}

/**
 * `blockerProfileId` blocks `blockedProfileId` (an active member of the same site, not oneself). In one
 * transaction the pair's likes and conversations go both ways (they do not come back on unblocking) and the block is stored.
 * Blocking twice is harmless: the first block stays as it was.
 */
export async function blockProfile(db: Db, siteId: number, blockerProfileId: number, blockedProfileId: number): Promise<"blocked" | "not_found"> {
  if (!(await blockableProfile(db, siteId, blockerProfileId, blockedProfileId, true))) return "not_found";
  await db.transaction(async (tx) => {
    await removeLikesBetween(tx, blockerProfileId, blockedProfileId);
    await removeConversationsBetween(tx, blockerProfileId, blockedProfileId);
    await tx.insert(blocks).values({ blockerProfileId, blockedProfileId }).onConflictDoNothing();
  });
  return "blocked";
}

/** Takes the viewer's block of a member back (any status, so old blocks can always be lifted); unblocking twice is harmless. */
export async function unblockProfile(db: Db, siteId: number, blockerProfileId: number, blockedProfileId: number): Promise<"unblocked" | "not_found"> {
  if (!(await blockableProfile(db, siteId, blockerProfileId, blockedProfileId, false))) return "not_found";
  await db.delete(blocks).where(and(eq(blocks.blockerProfileId, blockerProfileId), eq(blocks.blockedProfileId, blockedProfileId)));
  return "unblocked";
}

/** The members `blockerProfileId` blocked, newest block first, `pageSize` a page. */
export async function blockedMembers(db: Db, blockerProfileId: number, page: number, pageSize: number): Promise<BlocksResponse> {
  const mine = eq(blocks.blockerProfileId, blockerProfileId);
  const [countRow] = await db.select({ n: sql<number>`count(*)::int` }).from(blocks).where(mine);
  const ids = await db
    .select({ id: blocks.blockedProfileId })
    .from(blocks)
    .where(mine)
    .orderBy(desc(blocks.createdAt), desc(blocks.blockedProfileId))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const rows = ids.length ? await db.select().from(profiles).where(inArray(profiles.id, ids.map((r) => r.id))) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.flatMap((r) => byId.get(r.id) ?? []);
  return { pageNumber: page, pageSize, numResults: countRow?.n ?? 0, results: await memberCards(db, ordered) };
}
