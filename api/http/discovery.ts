import { Router } from "express";
import type { Db } from "../db/client";
import { DiscoveryDecisionRequest, DiscoveryQuery } from "#contract/discovery";
import { decide, discoveryState } from "../domain/discovery";
import { requireMember, memberOf } from "./context";
import { handle, parseInput, sendError } from "./respond";


/** Discovery: the swipe game and the match finder, one candidate at a time. */
export function discoveryRoutes(db: Db): Router {
  const router = Router();

  router.get(
    "/api/discovery.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, DiscoveryQuery, req.query);
      if (!query) return;
      const state = await discoveryState(db, res.locals.site.id, memberOf(res), query.game, query.match);
      res.set("Cache-Control", "private, no-store").json(state);
    }),
  );

  router.post(
    "/api/discovery.php",
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, DiscoveryDecisionRequest, req.body);
      if (!body) return;
      const outcome = await decide(db, res.locals.site.id, memberOf(res), body.game, body.id, body.decision);
      if (outcome.kind === "not_found") return sendError(res, "not_found");
      if (outcome.kind === "limit_reached") return sendError(res, "swipe_limit_reached", { params: { limit: outcome.limit } });
      res.set("Cache-Control", "private, no-store").json(outcome.answer);
    }),
  );

  return router;
}
