import { data } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";

/** Every unknown path: docs/product.md §2, a 404 with "This page could not be found" and a link home. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
