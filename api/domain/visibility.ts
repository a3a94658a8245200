import { and, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { blocks, profiles } from "../db/schema";
import type { Bindable } from "../db/prepared";

/*
 * Who may see whom (docs/product.md §4 Likes, §6 Blocked user). One place for the rules every list applies:
 * search, likes, discovery and the member page.
 *
 * - Invisible members (profiles.invisible) never appear in search, likes or discovery lists of others.
 * - A pair where either blocked the other never appears in each other's lists.
 * - The member page: the blocked member gets blocked_by_member; the blocker still sees the page (to unblock).
 */

/**
 * Conditions on `profiles` for listing them to `viewerProfileId` (null: a visitor). The pairs with a block are read
 * once per query (an uncorrelated subquery: the ids the viewer blocked or was blocked by, by the blocks' two indexes)
 * rather than probed for every row a list reads.
 */
export function listableTo(viewerProfileId: Bindable<number> | null): SQL | undefined {
  if (viewerProfileId === null) return eq(profiles.invisible, false);
  return and(
    eq(profiles.invisible, false),
    sql`not (${profiles.id} = any(array(select ${blocks.blockedProfileId} from ${blocks} where ${blocks.blockerProfileId} = ${viewerProfileId} union all select ${blocks.blockerProfileId} from ${blocks} where ${blocks.blockedProfileId} = ${viewerProfileId})))`,
  );
}

/** The genders a member looks for, from their own gender and sexuality. */
export function soughtGenders(gender: "male" | "female", sexuality: "hetero" | "gay" | "lesbian" | "bi"): ("male" | "female")[] {
  if (sexuality === "bi") return ["male", "female"];
  if (sexuality === "hetero") return [gender === "male" ? "female" : "male"];
  return [gender];
}

/**
 * Conditions on `profiles` for the members offered to `me` (signup matches, discovery, auto-likes):
 * other active members of the site, listable to them, of the genders they look for.
 */
export function offeredTo(siteId: number, me: { id: number; gender: "male" | "female"; sexuality: "hetero" | "gay" | "lesbian" | "bi" }): SQL | undefined {
  return and(
    eq(profiles.siteId, siteId),
    eq(profiles.status, "active"),
    ne(profiles.id, me.id),
    inArray(profiles.gender, soughtGenders(me.gender, me.sexuality)),
    listableTo(me.id),
  );
}

/** Whether either of the two profiles blocked the other. */
export async function eitherBlocked(db: Db, a: number, b: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(or(and(eq(blocks.blockerProfileId, a), eq(blocks.blockedProfileId, b)), and(eq(blocks.blockerProfileId, b), eq(blocks.blockedProfileId, a))))
    .limit(1);
  return Boolean(row);
}

/** Whether `blocker` blocked `blocked`. */
export async function hasBlocked(db: Db, blocker: number, blocked: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(and(eq(blocks.blockerProfileId, blocker), eq(blocks.blockedProfileId, blocked)))
    .limit(1);
  return Boolean(row);
}
