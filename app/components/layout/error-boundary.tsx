import { whenShown } from "~/utils/when-shown";

/**
 * The general error page (error-page.tsx) for the root's and the routes' ErrorBoundary. The server renders it as it
 * is; the browser loads its code when a page shows it, not with every page (docs/performance-history.md, the 100 kB budget).
 */
export const GeneralErrorBoundary = whenShown("GeneralErrorBoundary", () => import("./error-page").then((m) => m.GeneralErrorBoundary));
