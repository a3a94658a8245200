import { z } from "zod";
import { id, queryId, wholeNumber } from "./input";
import { MemberCard } from "./members";

/*
 * Blocking (docs/product.md §4: "A blocked user loses chats and likes"; §6: "Blocked user: cannot view the
 * blocker's profile or contact them"). All answer ApiError (contract/errors.ts) on failure; every call
 * needs a member (403 authentication_required for visitors) and acts for the session's own profile only.
 *
 *   POST   /api/block.php     BlockRequest -> BlockResponse. Removes the pair's likes both ways (and their chats)
 *                             and blocks; blocking twice is harmless. 404 not_found for an unknown id, one's own
 *                             profile, a member of another site or one who is not active.
 *   DELETE /api/block.php?id= BlockQuery -> BlockResponse. Unblocks (removed likes stay removed);
 *                             unblocking someone not blocked is harmless. 404 not_found as above (any status).
 *   GET    /api/blocks.php    BlocksQuery -> BlocksResponse: the members the viewer blocked, newest block first.
 */

/** POST /api/block.php */
export const BlockRequest = z.object({ id });
export type BlockRequest = z.infer<typeof BlockRequest>;
/** DELETE /api/block.php?id=, and the id of web's /members/{id}/block. */
export const BlockQuery = z.object({ id: queryId });

/** Whether the viewer now blocks the member. */
export const BlockResponse = z.object({ blocked: z.boolean() });
export type BlockResponse = z.infer<typeof BlockResponse>;

export const blocksPageSize = 20;

export const BlocksQuery = z.object({ page: wholeNumber(1, 10_000).default(1) });

export const BlocksResponse = z.object({
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  numResults: z.number().int(),
  results: z.array(MemberCard),
});
export type BlocksResponse = z.infer<typeof BlocksResponse>;
