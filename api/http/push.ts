import { Router } from "express";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { pushSubscriptions } from "../db/schema";
import { PushRequest } from "#contract/push";
import { pushEndpointRefusal, type PushEndpointPolicy } from "../services/push-endpoint";
import { handle, parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

/**
 * POST /api/user.php?push=1 (docs/product.md §7): the member's browser subscribed to push (contract/push.ts).
 * An endpoint belongs to one browser: subscribing it again (another member on the same phone) moves it.
 * Only a public push service's endpoint is stored (api/services/push-endpoint.ts); `pushEndpoints` is a test's
 * policy for its own push service. Other POSTs to /api/user.php (login) pass through to the user routes.
 */
export function pushRoutes(db: Db, pushEndpoints: PushEndpointPolicy = {}): Router {
  const router = Router();
  on(router, endpoints.login,
    handle(async (req, res, next) => {
      if (req.query.push === undefined) return next();
      const member = res.locals.member;
      if (!member) return sendError(res, "authentication_required");
      const body = parseInput(res, PushRequest, req.body);
      if (!body) return;
      if (body.subscription === null) {
        await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, member.userId), eq(pushSubscriptions.endpoint, body.endpoint)));
        return void res.set("Cache-Control", "no-store").json({ subscribed: false });
      }
      const { endpoint, keys } = body.subscription;
      if (await pushEndpointRefusal(endpoint, pushEndpoints)) {
        return sendError(res, "validation_failed", { fields: { "subscription.endpoint": ["must be the https address of a public push service"] } });
      }
      await db
        .insert(pushSubscriptions)
        .values({ userId: member.userId, endpoint, p256dh: keys.p256dh, auth: keys.auth })
        .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId: member.userId, p256dh: keys.p256dh, auth: keys.auth, createdAt: new Date() } });
      res.set("Cache-Control", "no-store").json({ subscribed: true });
    }),
  );
  return router;
}
