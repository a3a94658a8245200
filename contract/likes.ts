import { z } from "zod";
import { MemberCard } from "./members";
import { id, queryId } from "./input";
import { MainImage, UserResponse, badgeCountCap } from "./user";

/*
 * Likes (docs/product.md §4 Likes; §7 likes.php, auto-like.php, page-hidden.php). All answer ApiError (contract/errors.ts)
 * on failure; every call but page-hidden.php is for members only (403 authentication_required otherwise).
 *
 *   POST   /api/like.php          (member) LikeRequest -> LikeResponse. Liking twice is harmless (the first like stays).
 *                                 404 not_found: unknown id, oneself, another site's member, an inactive profile, or a
 *                                 member the viewer blocked (the page offers to unblock instead);
 *                                 403 blocked_by_member {name}: the member blocked the viewer (as member.php says too).
 *   DELETE /api/like.php?id=      (member) UnlikeResponse; a match ends with it. Unknown ids answer removed: false.
 *   GET    /api/likes.php?tab=    (member) LikesQuery -> LikesResponse: always the session's own likes (there is no id
 *                                 parameter); `tab` (received, sent, matches) answers that list only.
 *   GET    /api/auto-like.php     (member) AutoLikeResponse: a fictional profile of the site that fits the member likes
 *                                 them (source "auto"); at most one per member per 24 hours, else profile null.
 *   POST   /api/page-hidden.php   beacon with an empty JSON body: one log line "page hidden" with the member id and
 *                                 the Referer's path (no query); 204.
 *
 * Invisible members and pairs where either blocked the other never appear in the lists or the counts.
 */

/** POST /api/like.php */
export const LikeRequest = z.object({ id });
/** DELETE /api/like.php?id=, and the id of web's /members/{id}/like. */
export const LikeQuery = z.object({ id: queryId });

/** docs/product.md §3: "In the match modal it [main_image] also has a match field". */
export const MatchImage = MainImage.extend({ match: z.boolean() });

export const LikeResponse = z.object({
  /** Both like each other now. */
  match: z.boolean(),
  /** The liked member, for the match modal. */
  profile: MemberCard.extend({ main_image: MatchImage.nullable() }),
});
export type LikeResponse = z.infer<typeof LikeResponse>;

export const UnlikeResponse = z.object({ removed: z.boolean() });

/** Each list holds at most this many entries, the newest first (received: the new ones before the others). */
export const likesListCap = 200;

/** The tabs of /likes, each one list of LikesResponse. */
export const likesTabs = ["received", "sent", "matches"] as const;

/** A tab's page (LikesQuery): pages of this many, up to likesListCap in all. */
export const likesPageSize = 40;

/**
 * GET /api/likes.php: `tab` answers that tab's list only (the others empty), `page` of it (likesPageSize a page),
 * what the /likes/{type} page shows; without it all three, each up to likesListCap. The counts come either way.
 */
export const LikesQuery = z.object({
  tab: z.enum(likesTabs).optional(),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(likesListCap / likesPageSize)
    .optional(),
});
export type LikesQuery = z.infer<typeof LikesQuery>;

/** A member the viewer liked (docs/product.md §3: "likes are profiles"), with when and whether it is a match. */
export const LikedProfile = MemberCard.extend({ liked_at: z.string(), match: z.boolean() });
export type LikedProfile = z.infer<typeof LikedProfile>;

/** docs/product.md §3: "liked_by entries have id and a like_new flag"; liked_at and match added for the list. */
export const LikedBy = z.object({ id: z.number().int(), like_new: z.boolean(), liked_at: z.string(), match: z.boolean() });
export type LikedBy = z.infer<typeof LikedBy>;

export const MatchProfile = MemberCard.extend({ matched_at: z.string() });
export type MatchProfile = z.infer<typeof MatchProfile>;

/** GET /api/likes.php: the three tabs of /likes (received, sent, matches). */
export const LikesResponse = z.object({
  /** Sent: members the viewer liked, newest like first. */
  profiles: z.array(LikedProfile),
  /** Received: who liked the viewer, new likes first, then older, each by time (newest first). */
  liked_by: z.array(LikedBy),
  /** The cards of `liked_by`, in the same order. */
  liked_by_profiles: z.array(MemberCard),
  /** Members who like the viewer and whom the viewer likes, newest match first. */
  matches: z.array(MatchProfile),
  /** All new likes (docs/product.md §3 "total new likes"), also beyond the lists' cap, up to badgeCountCap (contract/user.ts: that many or more). */
  new_likes: z.number().int().min(0).max(badgeCountCap),
  /** The cap of each list (likesListCap). */
  limit: z.number().int(),
  /** With `tab`: whether the tab has a next page (within likesListCap). */
  has_more: z.boolean(),
  /** With `with_user=1` (contract/members.ts withUserParam): the member and counts, as GET /api/user.php answers. */
  me: UserResponse.optional(),
});
export type LikesResponse = z.infer<typeof LikesResponse>;

/** GET /api/auto-like.php: the profile for the like modal, or null. */
export const AutoLikeResponse = z.object({ profile: MemberCard.nullable() });
export type AutoLikeResponse = z.infer<typeof AutoLikeResponse>;
