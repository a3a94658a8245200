import type { MetaFunction } from "@remix-run/node";
import { discoveryAction, discoveryLoader } from "~/features/discovery/discovery.server";
import { DiscoveryPage } from "~/features/discovery/discovery-page";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { pageMeta } from "~/utils/page-title";

/** The match finder (docs/product.md §2 /match-finder): like or pass one member at a time, without a daily limit. */
export const loader = discoveryLoader("match_finder");
export const action = discoveryAction("match_finder");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function MatchFinder() {
  return <DiscoveryPage />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
