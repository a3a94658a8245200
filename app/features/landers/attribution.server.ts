import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import type { Tracking } from "#contract/account";
import { apiFor } from "~/utils/api.server";

const Counted = z.object({ ok: z.literal(true) });

/** Counts a funnel entry (POST /api/visit.php) without holding the page: a failure only loses one count. */
export function countVisit(request: Request, context: AppLoadContext, tracking: Tracking): void {
  void apiFor(request, context)
    .post("/api/visit.php", Counted, { tracking })
    .catch(() => undefined);
}
