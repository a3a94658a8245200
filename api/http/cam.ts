import { Router } from "express";
import { CamClickRequest } from "#contract/cam-click";
import { recordCamClick } from "../domain/cam";
import type { Db } from "../db/client";
import type { ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

/** POST /api/cam-click.php (docs/product.md §1 live-cam tiles): counts the click and answers the partner's address. */
export function camRoutes(deps: { db: Db; limit: ClientLimiter }): Router {
  const router = Router();
  on(router, endpoints.camClick,
    deps.limit("cam_click"),
    handle(async (req, res) => {
      const body = parseInput(res, CamClickRequest, req.body);
      if (!body) return;
      const url = await recordCamClick(deps.db, res.locals.site, res.locals.member, body.tracking);
      // A site without tiles has nothing to click.
      if (!url) return sendError(res, "not_found");
      res.set("Cache-Control", "private, no-store").json({ url });
    }),
  );
  return router;
}
