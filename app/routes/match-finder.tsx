import type { MetaFunction } from "@remix-run/node";
import { discoveryAction, discoveryLoader } from "~/discovery.server";
import { DiscoveryPage } from "~/components/discovery-card";
import { GeneralErrorBoundary } from "~/components/error-page";
import { pageMeta } from "~/page-title";

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
