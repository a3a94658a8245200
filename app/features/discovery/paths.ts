import type { DiscoveryGame } from "#contract/discovery";

/** The two discovery pages (docs/product.md §2 routes). */
export const discoveryPaths: Record<DiscoveryGame, string> = { swipe: "/swipe-game", match_finder: "/match-finder" };
