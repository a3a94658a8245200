import { Router } from "express";
import type { Db } from "../db/client";
import { TeasersQuery } from "#contract/members";
import { teasers } from "../domain/members";
import type { ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";

/**
 * Funnels: GET /api/teasers.php answers member landings and landers what a visitor may see of
 * the site's members (name, age, city, region, main photo), without a session.
 */
export function teaserRoutes(deps: { db: Db; limit: ClientLimiter }): Router {
  const router = Router();
  router.get(
    "/api/teasers.php",
    deps.limit("teasers"),
    handle(async (req, res) => {
      const query = parseInput(res, TeasersQuery, req.query);
      if (!query) return;
      const body = await teasers(deps.db, res.locals.site.id, query);
      if (query.id !== undefined && body.member === null) return sendError(res, "not_found");
      res.set("Cache-Control", "public, max-age=60").json(body);
    }),
  );
  return router;
}
