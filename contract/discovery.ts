import { z } from "zod";
import { id, queryId } from "./input";
import { MemberCard } from "./members";

/*
 * Discovery (docs/product.md §2 routes /match-finder and /swipe-game): one profile at a time, liked or passed.
 * The swipe game allows a few likes per UTC day (docs/product.md §9); the match finder is the unlimited variant.
 */

export const discoveryGames = ["swipe", "match_finder"] as const;
export const DiscoveryGame = z.enum(discoveryGames);
export type DiscoveryGame = z.infer<typeof DiscoveryGame>;

export const DiscoveryDecision = z.enum(["like", "pass"]);
export type DiscoveryDecision = z.infer<typeof DiscoveryDecision>;

/** docs/product.md §9: "Swipe game: 4 likes per day" (a UTC calendar day). */
export const swipeLikesPerDay = 4;

/** GET /api/discovery.php?game=&match= ; `match` asks for the card of a member the viewer matched with (the match notice after a redirect). */
export const DiscoveryQuery = z.object({
  game: DiscoveryGame,
  match: queryId.optional(),
});

/** The card of a candidate: the member card plus the start of their about-me text and a few interests (ids of settings.interests). */
export const DiscoveryCard = MemberCard.extend({
  about_me: z.string(),
  interests: z.array(z.number().int()),
});
export type DiscoveryCard = z.infer<typeof DiscoveryCard>;

/**
 * GET /api/discovery.php (members only): the next candidate, or `profile: null` when none is left.
 * `likes_left_today` and `daily_like_limit` are null in the match finder (no limit there).
 * `matched` is the card asked for with `match` when the two like each other, else null.
 */
export const DiscoveryResponse = z.object({
  profile: DiscoveryCard.nullable(),
  likes_left_today: z.number().int().nullable(),
  daily_like_limit: z.number().int().nullable(),
  matched: MemberCard.nullable(),
});
export type DiscoveryResponse = z.infer<typeof DiscoveryResponse>;

/** POST /api/discovery.php: like or pass one candidate. */
export const DiscoveryDecisionRequest = z.object({
  game: DiscoveryGame,
  id,
  decision: DiscoveryDecision,
});
export type DiscoveryDecisionRequest = z.infer<typeof DiscoveryDecisionRequest>;

/**
 * The answer to a decision. Deciding twice on a member is harmless: the first decision stands and is
 * answered again (`decision`). `match` is true when the two like each other; `matched` is then the other's card.
 * Errors: 404 not_found (unknown, own, other site's, hidden or blocked member), 429 swipe_limit_reached {limit}.
 */
export const DiscoveryDecisionResponse = z.object({
  decision: DiscoveryDecision,
  match: z.boolean(),
  matched: MemberCard.nullable(),
  likes_left_today: z.number().int().nullable(),
});
export type DiscoveryDecisionResponse = z.infer<typeof DiscoveryDecisionResponse>;
