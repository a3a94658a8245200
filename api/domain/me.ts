import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDatabase } from "../db/prepared";
import { profiles, sites, users } from "../db/schema";
import { automaticDiscount, toActiveDiscount } from "./payments/discounts";
import type { UserResponse } from "#contract/user";
import type { SessionMember } from "./sessions";
import { newLikesQuery } from "./likes";
import { unreadTotalQuery } from "./chat";
import { mainImageColumn, userOfRow } from "./members";

/** loadMe's query, on every page a member opens: built once (api/db/prepared.ts). */
const loadMeQuery = preparedPerDatabase((db) => {
  const [userId, profileId, siteId] = [sql.placeholder("userId"), sql.placeholder("profileId"), sql.placeholder("siteId")];
  return db
    .select({ users, profiles, mainImage: mainImageColumn, newLikes: sql<number>`(${newLikesQuery(db, siteId, profileId)})`, unread: sql<number>`(${unreadTotalQuery(db, siteId, profileId)})`, welcomeHours: sites.welcomeDiscountHours })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(and(eq(users.id, userId), eq(users.siteId, siteId), inArray(users.status, ["not_confirmed", "active"])))
    .limit(1)
    .prepare("load_me");
});

/**
 * What GET /api/user.php answers (and `me` with with_user=1), in one query: the member with their main
 * image, the badge counts (docs/product.md §3 chat state totals) and their offer (§4: the time bonus is loaded
 * with the member, so it comes on login and is gone on logout).
 * The counts are newLikesCount's and unreadTotal's own queries as subqueries: inside them, `profiles` is the other member's row.
 */
export async function loadMe(db: Db, member: Pick<SessionMember, "userId" | "profileId">, siteId: number): Promise<UserResponse> {
  const [row] = await loadMeQuery(db).execute({ userId: member.userId, profileId: member.profileId, siteId });
  const user = row ? userOfRow(row) : null;
  if (!row || !user) return { user: null };
  const discount = automaticDiscount(row.users, { welcomeDiscountHours: row.welcomeHours }, new Date());
  return { user, counts: { unread_messages: Number(row.unread), new_likes: Number(row.newLikes) }, discount: discount && toActiveDiscount(discount) };
}
