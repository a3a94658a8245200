import { Router } from "express";
import type { Db } from "../db/client";
import { VisitRequest } from "#contract/account";
import { recordVisit } from "../domain/attribution";
import type { ClientLimiter } from "./limits";
import { handle, parseInput } from "./respond";

/** POST /api/visit.php counts an entry through a tracked funnel URL or a landing page's first view (web sends it; docs/attribution.md). */
export function attributionRoutes(deps: { db: Db; limit: ClientLimiter }): Router {
  const router = Router();
  router.post(
    "/api/visit.php",
    deps.limit("visit"),
    handle(async (req, res) => {
      const body = parseInput(res, VisitRequest, req.body);
      if (!body) return;
      await recordVisit(deps.db, res.locals.site.id, body.tracking, new Date(), { lander: body.lander, entry: body.entry });
      res.set("Cache-Control", "no-store").json({ ok: true });
    }),
  );
  return router;
}
