import type { MetaFunction } from "@remix-run/node";
import { discoveryAction, discoveryLoader } from "~/features/discovery/discovery.server";
import { DiscoveryPage } from "~/features/discovery/discovery-page";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { pageMeta } from "~/utils/page-title";

/** The swipe game (docs/product.md §2 /swipe-game): like or pass one member at a time, 4 likes a day (§9). */
export const loader = discoveryLoader("swipe");
export const action = discoveryAction("swipe");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function SwipeGame() {
  return <DiscoveryPage />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
