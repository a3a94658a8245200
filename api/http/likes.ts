import { Router, type Response } from "express";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { profiles } from "../db/schema";
import { LikeQuery, LikeRequest, LikesQuery, likesListCap, likesPageSize } from "#contract/likes";
import { withUserParam } from "#contract/members";
import { loadMe } from "../domain/me";
import { autoLike, likeProfile, likesOverview, unlikeProfile } from "../domain/likes";
import { memberCards } from "../domain/members";
import { hasBlocked } from "../domain/visibility";
import { requireMember, memberOf } from "./context";
import { handle, parseInput, sendError } from "./respond";


const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");

/** The path of a Referer header, never its query (which may carry tokens); null when there is none. */
export function refererPath(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).pathname.slice(0, 300);
  } catch {
    return null;
  }
}

/** Likes (docs/product.md §2 and §4): like, unlike, the likes lists, the like modal's auto-like and the page-bounce beacon. */
export function likeRoutes(db: Db): Router {
  const router = Router();

  router.post(
    "/api/like.php",
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, LikeRequest, req.body);
      if (!body) return;
      const me = memberOf(res);
      const site = res.locals.site;
      const outcome = await likeProfile(db, site.id, me.profileId, body.id);
      if (outcome.kind === "not_found") return sendError(res, "not_found");
      const [target] = await db.select().from(profiles).where(eq(profiles.id, body.id)).limit(1);
      if (!target) return sendError(res, "not_found");
      if (outcome.kind === "blocked") {
        // As on member.php: a member who blocked the viewer says so; one the viewer blocked is not theirs to like.
        if (await hasBlocked(db, target.id, me.profileId)) return sendError(res, "blocked_by_member", { params: { name: target.name } });
        return sendError(res, "not_found");
      }
      const [card] = await memberCards(db, [target]);
      if (!card) return sendError(res, "not_found");
      const mainImage = card.main_image ? { ...card.main_image, match: outcome.match } : null;
      noStore(res).json({ match: outcome.match, profile: { ...card, main_image: mainImage } });
    }),
  );

  router.delete(
    "/api/like.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, LikeQuery, req.query);
      if (!query) return;
      noStore(res).json({ removed: await unlikeProfile(db, memberOf(res).profileId, query.id) });
    }),
  );

  router.get(
    "/api/likes.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, LikesQuery, req.query);
      if (!query) return;
      const tab = query.tab && { tab: query.tab, page: query.page ?? 1, pageSize: likesPageSize };
      const overview = await likesOverview(db, res.locals.site.id, memberOf(res).profileId, likesListCap, tab);
      const me = req.query[withUserParam] === "1" ? await loadMe(db, memberOf(res), res.locals.site.id) : undefined;
      noStore(res).json(me ? { ...overview, me } : overview);
    }),
  );

  router.get(
    "/api/auto-like.php",
    requireMember,
    handle(async (_req, res) => {
      noStore(res).json({ profile: await autoLike(db, res.locals.site.id, memberOf(res).profileId) });
    }),
  );

  return router;
}
