import { and, eq, inArray, sql, type Placeholder } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDatabase } from "../db/prepared";
import { alias } from "drizzle-orm/pg-core";
import { profiles, sessions, sites, users } from "../db/schema";
import { automaticDiscount, toActiveDiscount } from "./payments/discounts";
import type { UserResponse } from "#contract/user";
import { liveSessionOfSite, sessionValues, type SessionMember } from "./sessions";
import { newLikesQuery } from "./likes";
import { unreadTotalQuery } from "./chat";
import { mainImageOf, userOfRow } from "./members";

/**
 * What loadMe answers, as columns of a query whose member's own profile row is `viewer`: inside the badge counts'
 * subqueries (newLikesCount's and unreadTotal's own queries), `profiles` is the other member's row.
 */
function meColumns(db: Db, siteId: Placeholder) {
  const viewer = alias(profiles, "viewer");
  const columns = {
    users,
    profiles: viewer,
    mainImage: mainImageOf(viewer.id),
    newLikes: sql<number>`(${newLikesQuery(db, siteId, viewer.id)})`,
    unread: sql<number>`(${unreadTotalQuery(db, siteId, viewer.id)})`,
    welcomeHours: sites.welcomeDiscountHours,
  };
  return { viewer, columns };
}

/** loadMe's query, on every page a member opens: built once (api/db/prepared.ts). */
const loadMeQuery = preparedPerDatabase((db) => {
  const siteId = sql.placeholder("siteId");
  const { viewer, columns } = meColumns(db, siteId);
  return db
    .select(columns)
    .from(users)
    .innerJoin(viewer, eq(viewer.userId, users.id))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(and(eq(users.id, sql.placeholder("userId")), eq(users.siteId, siteId), inArray(users.status, ["not_confirmed", "active"])))
    .limit(1)
    .prepare("load_me");
});

/** What loadMe and sessionAndMe answer for the row their query found. */
function meOfRow(row: Awaited<ReturnType<ReturnType<typeof loadMeQuery>["execute"]>>[number] | undefined): UserResponse {
  const user = row ? userOfRow(row) : null;
  if (!row || !user) return { user: null };
  const discount = automaticDiscount(row.users, { welcomeDiscountHours: row.welcomeHours }, new Date());
  return { user, counts: { unread_messages: Number(row.unread), new_likes: Number(row.newLikes) }, discount: discount && toActiveDiscount(discount) };
}

/**
 * What GET /api/user.php answers (and `me` with with_user=1), in one query: the member with their main
 * image, the badge counts (docs/product.md §3 chat state totals) and their offer (§4: the time bonus is loaded
 * with the member, so it comes on login and is gone on logout).
 */
export async function loadMe(db: Db, member: Pick<SessionMember, "userId">, siteId: number): Promise<UserResponse> {
  const [row] = await loadMeQuery(db).execute({ userId: member.userId, siteId });
  return meOfRow(row);
}

/**
 * sessionMember and loadMe in one statement, for a request that reads the member before it changes anything
 * (api/http/context.ts). A member whose account is neither active nor unconfirmed keeps their session, with
 * `{ user: null }`, as the two statements answer.
 */
const sessionMeQuery = preparedPerDatabase((db) => {
  const siteId = sql.placeholder("siteId");
  const { viewer, columns } = meColumns(db, siteId);
  return db
    .select(columns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(viewer, eq(viewer.userId, users.id))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(liveSessionOfSite(siteId))
    .limit(1)
    .prepare("session_me");
});

/** The member of a live session of `siteId` and what loadMe answers for them, or null without one. */
export async function sessionAndMe(db: Db, token: string, secret: string, siteId: number): Promise<{ member: SessionMember; me: UserResponse } | null> {
  const [row] = await sessionMeQuery(db).execute(sessionValues(token, secret, siteId));
  if (!row) return null;
  return { member: { userId: row.users.id, profileId: row.profiles.id, paidUser: row.users.paidUser }, me: meOfRow(row) };
}
