import { boolean, primaryKey, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { profileRef } from "./members";

/** What members do to each other: likes, blocks and the discovery games' decisions. api/db/schema.ts gathers every domain's tables for drizzle and the api. */

export const likeSources = ["profile", "swipe", "match_finder", "auto"] as const;

/**
 * docs/product.md §4 likes between profiles: a match when both like. `isNew` is the receiver's like_new flag,
 * cleared when they open the liker's profile.
 */
export const likes = pgTable(
  "likes",
  {
    likerProfileId: profileRef("liker_profile_id"),
    likedProfileId: profileRef("liked_profile_id"),
    isNew: boolean("is_new").notNull().default(true),
    source: text("source", { enum: likeSources }).notNull().default("profile"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.likerProfileId, t.likedProfileId] }),
    index("likes_liked_idx").on(t.likedProfileId, t.createdAt),
    // The likes page's received likes, new first and then newest first (api/domain/likes.ts likesOverview).
    index("likes_received_idx").on(t.likedProfileId, t.isNew, t.createdAt),
  ],
);

/** docs/product.md §6 blocking: the blocked member cannot view the blocker's profile or contact them. */
export const blocks = pgTable(
  "blocks",
  {
    blockerProfileId: profileRef("blocker_profile_id"),
    blockedProfileId: profileRef("blocked_profile_id"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerProfileId, t.blockedProfileId] }), index("blocks_blocked_idx").on(t.blockedProfileId)],
);

export const discoveryGames = ["swipe", "match_finder"] as const;

/** Like or pass decisions in /swipe-game and /match-finder: a profile is offered once per game; swipe likes per day are counted here. */
export const discoveryDecisions = pgTable(
  "discovery_decisions",
  {
    profileId: profileRef("profile_id"),
    targetProfileId: profileRef("target_profile_id"),
    game: text("game", { enum: discoveryGames }).notNull(),
    decision: text("decision", { enum: ["like", "pass"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.targetProfileId, t.game] }), index("discovery_decisions_day_idx").on(t.profileId, t.game, t.createdAt)],
);
