import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";

/**
 * The error page of a request that server/request-guard.ts refused before any route read it (a post
 * from another site, a body too large, not a form): the root layout in the visitor's language with
 * the refusal's status. Opened directly, it is an unknown page.
 */
export function loader({ context }: LoaderFunctionArgs) {
  const refusal = context.refusal;
  if (!refusal) throw data(null, { status: 404 });
  throw data({ refusal: refusal.reason }, { status: refusal.status });
}

export const meta: MetaFunction = () => [{ name: "robots", content: "noindex" }];

export default function Refused() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
