import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { profiles, users } from "../db/schema";
import type { UserResponse } from "#contract/user";
import type { SessionMember } from "./sessions";
import { newLikesQuery } from "./likes";
import { unreadTotalQuery } from "./chat";
import { mainImageColumn, userOfRow } from "./members";

/**
 * What GET /api/user.php answers (and `me` with with_user=1), in one query: the member with their main
 * image, and the badge counts (spec 3 chat state totals).
 * The counts are newLikesCount's and unreadTotal's own queries as subqueries: inside them, `profiles` is the other member's row.
 */
export async function loadMe(db: Db, member: Pick<SessionMember, "userId" | "profileId">, siteId: number): Promise<UserResponse> {
  const [row] = await db
    .select({ users, profiles, mainImage: mainImageColumn, newLikes: sql<number>`(${newLikesQuery(db, siteId, member.profileId)})`, unread: sql<number>`(${unreadTotalQuery(db, siteId, member.profileId)})` })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.id, member.userId), eq(users.siteId, siteId), inArray(users.status, ["not_confirmed", "active"])))
    .limit(1);
  const user = row ? userOfRow(row) : null;
  if (!row || !user) return { user: null };
  return { user, counts: { unread_messages: Number(row.unread), new_likes: Number(row.newLikes) } };
}
