import { createHash, timingSafeEqual } from "node:crypto";
import express, { Router, type Request, type Response } from "express";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { sites, users } from "../db/schema";
import { withUserParam } from "#contract/members";
import { MailEventsRequest, NotificationSettingsRequest, UnsubscribeRequest, type MailEventsResponse, type NotificationSettingsResponse } from "#contract/notifications";
import { isLocale } from "#contract/locales";
import { loadMe } from "../domain/me";
import { clearDisabledReasons, disabledPairsOf, recordDisabledReason, settingsOf, verifyUnsubscribeToken, type DisabledReason } from "../domain/notifications";
import { normaliseDomain } from "../domain/sites";
import { memberOf, requireMember } from "./context";
import { sessionMember, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { bodyLimits } from "./body-cap";
import { countMail } from "../metrics";

const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");

/** /notifications: the member's switches and the reasons mail stopped (contract/notifications.ts). */
export function notificationRoutes(deps: { db: Db; limit: ClientLimiter; unsubscribeKey: Buffer }): Router {
  const { db, limit, unsubscribeKey } = deps;
  const router = Router();

  async function answer(req: Request, res: Response, userId: number): Promise<void> {
    const [row] = await db.select({ settings: users.notificationSettings, reasons: users.notificationsDisabled }).from(users).where(eq(users.id, userId));
    if (!row) return sendError(res, "authentication_required");
    const m = res.locals.member;
    const me = req.query[withUserParam] === "1" && m ? await loadMe(db, m, res.locals.site.id) : undefined;
    const body: NotificationSettingsResponse = { settings: settingsOf(row.settings), notifications_disabled: row.reasons, ...(me ? { me } : {}) };
    noStore(res).json(body);
  }

  router.get(
    "/api/notifications.php",
    requireMember,
    handle(async (req, res) => answer(req, res, memberOf(res).userId)),
  );

  router.put(
    "/api/notifications.php",
    requireMember,
    limit("notification_settings", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, NotificationSettingsRequest, req.body);
      if (!body) return;
      const { userId } = memberOf(res);
      const off = disabledPairsOf(body.settings);
      await db.update(users).set({ notificationSettings: off }).where(eq(users.id, userId));
      req.log.info({ userId, off }, "notification settings saved");
      await answer(req, res, userId);
    }),
  );

  // The member explicitly turns e-mail back on: lifts an unsubscribe and a spam complaint, never a bounce
  // (the address itself does not take mail: a new address lifts that, api/domain/accounts/email-change.ts).
  router.post(
    "/api/notifications-resume.php",
    requireMember,
    limit("notification_settings", sessionMember),
    handle(async (req, res) => {
      const { userId } = memberOf(res);
      const left = await clearDisabledReasons(db, userId, ["fbl", "listunsubscribe"]);
      req.log.info({ userId, left }, "e-mail notifications turned back on");
      await answer(req, res, userId);
    }),
  );

  // A person who opens the List-Unsubscribe link in a browser gets web's page, which asks before it unsubscribes.
  router.get(
    "/api/unsubscribe.php",
    limit("unsubscribe"),
    handle(async (req, res) => {
      const token = typeof req.query.token === "string" ? req.query.token : "";
      const userId = verifyUnsubscribeToken(unsubscribeKey, res.locals.site.id, token);
      const [row] = userId ? await db.select({ language: users.language }).from(users).where(eq(users.id, userId)) : [];
      const prefix = row && isLocale(row.language) && row.language !== "en" ? `/${row.language}` : "";
      const query = UnsubscribeRequest.safeParse({ token }).success ? `?token=${encodeURIComponent(token)}` : "";
      res.set("Cache-Control", "no-store").redirect(303, `${prefix}/unsubscribe${query}`);
    }),
  );

  // RFC 8058 one-click: the mailbox provider POSTs "List-Unsubscribe=One-Click" to the header's URL, with no
  // session and no cookie. The token is the only key; a made-up one is 400 and changes nothing.
  router.post(
    "/api/unsubscribe.php",
    limit("unsubscribe"),
    express.urlencoded({ extended: false, limit: "4kb", parameterLimit: 10 }),
    handle(async (req, res) => {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const oneClick = form["List-Unsubscribe"];
      if (oneClick !== undefined && oneClick !== "One-Click") return sendError(res, "validation_failed", { fields: { "List-Unsubscribe": ["must be One-Click"] } });
      const token = typeof req.query.token === "string" ? req.query.token : form.token;
      const parsed = parseInput(res, UnsubscribeRequest, { token });
      if (!parsed) return;
      const userId = verifyUnsubscribeToken(unsubscribeKey, res.locals.site.id, parsed.token);
      const found = userId ? await recordDisabledReason(db, [userId], "listunsubscribe") : [];
      if (found.length === 0) return sendError(res, "link_invalid");
      req.log.info({ userId, reason: "listunsubscribe" }, "e-mail notifications disabled");
      res.set("Cache-Control", "no-store").json({ unsubscribed: true });
    }),
  );

  return router;
}

/**
 * POST /api/mail-events.php: the mail provider reports hard bounces (-> bounce) and spam complaints
 * (-> fbl). Mounted before the api's JSON parser: the shared secret is checked before the body is read.
 * docs/notifications.md has the format and an example.
 */
export function mailEventRoutes(deps: { db: Db; limit: ClientLimiter; secret?: string }): Router {
  const { db, limit } = deps;
  const router = Router();
  const expected = deps.secret ? createHash("sha256").update(deps.secret).digest() : null;
  router.post(
    "/api/mail-events.php",
    limit("mail_events"),
    (req, res, next) => {
      // Not configured: the endpoint does not exist for this deployment.
      if (!expected) return sendError(res, "not_found");
      const header = req.get("authorization");
      const match = header ? /^Bearer\s+(\S{1,512})$/i.exec(header) : null;
      if (!match) {
        res.set("WWW-Authenticate", 'Bearer realm="mail-events"');
        return sendError(res, "secret_required");
      }
      const given = createHash("sha256").update(match[1]!).digest();
      if (!timingSafeEqual(given, expected)) {
        req.log.warn({ limit: "mail_events" }, "mail events with a wrong secret");
        return sendError(res, "secret_wrong");
      }
      next();
    },
    express.json({ limit: bodyLimits.jsonBytes }),
    handle(async (req, res) => {
      const body = parseInput(res, MailEventsRequest, req.body);
      if (!body) return;
      const result: MailEventsResponse = { applied: 0, unknown: 0, ignored: 0 };
      for (const event of body.events) {
        if (event.type === "bounce" && event.bounce_type === "soft") {
          result.ignored += 1;
          continue;
        }
        const reason: DisabledReason = event.type === "complaint" ? "fbl" : "bounce";
        countMail(event.type === "complaint" ? "complained" : "bounced");
        const accounts = await db
          .select({ id: users.id })
          .from(users)
          .innerJoin(sites, eq(sites.id, users.siteId))
          .where(and(sql`lower(${users.email}) = ${event.email}`, event.site ? sql`lower(${sites.domain}) = ${normaliseDomain(event.site)}` : undefined));
        const found = await recordDisabledReason(
          db,
          accounts.map((a) => a.id),
          reason,
        );
        if (found.length === 0) result.unknown += 1;
        else result.applied += found.length;
        for (const userId of found) req.log.info({ userId, reason, occurredAt: event.occurred_at ?? null }, "e-mail notifications disabled");
      }
      res.set("Cache-Control", "no-store").json(result);
    }),
  );
  return router;
}
