import { Router, type Request, type Response } from "express";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { conversationMembers, memberPresence } from "../db/schema";
import { LastEventId, TypingRequest } from "#contract/events";
import { emitEventsNow } from "../events/emit";
import type { EventHub } from "../events/hub";
import { eitherBlocked } from "../domain/visibility";
import { requireMember, type Member } from "./context";
import { sessionMember, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { refererPath } from "./likes";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

function member(res: Response): Member {
  const m = res.locals.member;
  if (!m) throw new Error("requireMember must run first");
  return m;
}


/** The live stream (contract/events.ts), typing, and the page's visibility for presence. */
export function eventRoutes(db: Db, hub: EventHub, limit: ClientLimiter): Router {
  const router = Router();

  on(router, endpoints.events,
    requireMember,
    handle(async (req, res) => {
      // EventSource sends Last-Event-ID on a reconnect; ?last_event_id= does the same for a first connection.
      const raw = req.get("Last-Event-ID") ?? req.query.last_event_id;
      const lastEventId = raw === undefined || raw === "" ? null : LastEventId.safeParse(raw).data;
      if (lastEventId === undefined) return sendError(res, "validation_failed", { fields: { last_event_id: ["must be an event id"] } });
      const m = member(res);
      await hub.open(res, { profileId: m.profileId, siteId: res.locals.site.id, token: m.token, clientIp: res.locals.clientIp }, lastEventId);
    }),
  );

  on(router, endpoints.typing,
    requireMember,
    limit("typing", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, TypingRequest, req.body);
      if (!body) return;
      const me = member(res);
      const [side] = await db
        .select({ other: conversationMembers.otherProfileId })
        .from(conversationMembers)
        .where(and(eq(conversationMembers.conversationId, body.conversation), eq(conversationMembers.profileId, me.profileId), sql`${conversationMembers.deletedAt} is null`));
      if (!side) return sendError(res, "not_found");
      if (!(await eitherBlocked(db, me.profileId, side.other))) {
        await emitEventsNow(db, [{ profileId: side.other, kind: "typing", fromProfileId: me.profileId, conversationId: body.conversation }]);
      }
      res.status(204).end();
    }),
  );

  const setHidden = (hidden: boolean) => async (req: Request, res: Response) => {
    const m = res.locals.member;
    if (m) {
      await db
        .insert(memberPresence)
        .values({ profileId: m.profileId, hidden, streamUntil: sql`now()` })
        .onConflictDoUpdate({ target: memberPresence.profileId, set: { hidden } });
    }
    // docs/product.md §4 "lb enables page-bounce logging": one line per hidden page, the body is not read.
    if (hidden) req.log.info({ memberId: m?.userId ?? null, page: refererPath(req.get("Referer")) }, "page hidden");
    res.status(204).end();
  };
  on(router, endpoints.pageHidden, handle(setHidden(true)));
  on(router, endpoints.pageVisible, handle(setHidden(false)));

  return router;
}
