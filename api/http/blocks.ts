import { Router, type Response } from "express";
import type { Db } from "../db/client";
import { BlockQuery, BlockRequest, BlocksQuery, blocksPageSize, type BlockResponse } from "#contract/blocks";
import { blockedMembers, blockProfile, unblockProfile } from "../domain/blocks";
import { requireMember, memberOf } from "./context";
import { handle, parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";


/** Block, unblock and the list of blocked members (contract/blocks.ts); always for the session's own profile. */
export function blockRoutes(db: Db): Router {
  const router = Router();
  const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");

  on(router, endpoints.block,
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, BlockRequest, req.body);
      if (!body) return;
      const outcome = await blockProfile(db, res.locals.site.id, memberOf(res).profileId, body.id);
      if (outcome === "not_found") return sendError(res, "not_found");
      noStore(res).json({ blocked: true } satisfies BlockResponse);
    }),
  );

  on(router, endpoints.unblock,
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, BlockQuery, req.query);
      if (!query) return;
      const outcome = await unblockProfile(db, res.locals.site.id, memberOf(res).profileId, query.id);
      if (outcome === "not_found") return sendError(res, "not_found");
      noStore(res).json({ blocked: false } satisfies BlockResponse);
    }),
  );

  on(router, endpoints.blocks,
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, BlocksQuery, req.query);
      if (!query) return;
      noStore(res).json(await blockedMembers(db, memberOf(res).profileId, query.page, blocksPageSize));
    }),
  );

  return router;
}
