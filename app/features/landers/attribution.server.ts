import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import type { Tracking } from "#contract/account";
import { apiFor } from "~/utils/api.server";

const Counted = z.object({ ok: z.literal(true) });

/**
 * Counts a funnel entry (new tracking values, `entry`) or a landing page's first view (`lander`) with POST
 * /api/visit.php, without holding the page: a failure only loses one count.
 */
export function countVisit(request: Request, context: AppLoadContext, tracking: Tracking, visit: { lander?: string; entry: boolean }): void {
  void apiFor(request, context)
    .post("/api/visit.php", Counted, { tracking, ...visit })
    .catch(() => undefined);
}
