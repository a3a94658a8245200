import type { AppLoadContext } from "@remix-run/node";
import type { Tracking } from "#contract/account";
import { apiFor } from "~/utils/api.server";
import { endpoints } from "#contract/endpoints/index";

/**
 * Counts a funnel entry (new tracking values, `entry`) or a landing page's first view (`lander`) with POST
 * /api/visit.php, without holding the page: a failure only loses one count.
 */
export function countVisit(request: Request, context: AppLoadContext, tracking: Tracking, visit: { lander?: string; entry: boolean }): void {
  void apiFor(request, context)
    .call(endpoints.recordVisit, { body: { tracking, ...visit } })
    .catch(() => undefined);
}
