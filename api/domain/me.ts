import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { profiles, users } from "../db/schema";
import type { UserResponse } from "#contract/user";
import type { SessionMember } from "./sessions";
import { newLikesQuery } from "./likes";
import { mainImageColumn, userOfRow } from "./members";

/**
 * What GET /api/user.php answers (and `me` with with_user=1), in one query: the member with their main
 * image, and the badge counts (spec 3 chat state totals; unread messages stay 0 until chats exist).
 * The new-likes count is newLikesCount's own query as a subquery: inside it, `profiles` is the liker's row.
 */
export async function loadMe(db: Db, member: Pick<SessionMember, "userId" | "profileId">, siteId: number): Promise<UserResponse> {
  const [row] = await db
    .select({ users, profiles, mainImage: mainImageColumn, newLikes: sql<number>`(${newLikesQuery(db, siteId, member.profileId)})` })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.id, member.userId), eq(users.siteId, siteId), inArray(users.status, ["not_confirmed", "active"])))
    .limit(1);
  const user = row ? userOfRow(row) : null;
  if (!row || !user) return { user: null };
  return { user, counts: { unread_messages: 0, new_likes: Number(row.newLikes) } };
}
