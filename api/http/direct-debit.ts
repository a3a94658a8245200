import { Router, type Response } from "express";
import { and, eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../db/client";
import { payments, users } from "../db/schema";
import { DebitCodeResendRequest, DebitConfirmRequest, DebitRequestQuery, DirectDebitRequest } from "#contract/direct-debit";
import { SandboxDebitRequest } from "#contract/payments";
import type { Locale } from "#contract/locales";
import { publicOrigin } from "../domain/accounts/links";
import { blockDebitsOf, confirmDebit, debitRequestOf, requestDebit, resendCode, type DebitConfig, type DebitRefusal } from "../domain/payments/direct-debit";
import { applyNotification } from "../domain/payments/payments";
import type { PaymentProviders } from "../services/payments";
import type { SmsSender } from "../services/sms";
import { mailText } from "../services/mail";
import { requireMember, memberOf } from "./context";
import { refuseDiscount } from "./payments";
import { sessionMember, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";

const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");

export type DirectDebitDeps = { db: Db; providers: PaymentProviders; limit: ClientLimiter; sms: SmsSender; config: DebitConfig; publicUrl: string; logger: Logger };

/** Direct debit with an SMS code (contract/direct-debit.ts). */
export function directDebitRoutes({ db, providers, limit, sms, config, publicUrl, logger }: DirectDebitDeps): Router {
  const router = Router();

  /** The code in the member's language; a gateway that refuses it is logged without the number. */
  const sender = (res: Response) => async (phone: string, code: string) => {
    const [user] = await db.select({ language: users.language }).from(users).where(eq(users.id, memberOf(res).userId));
    const text = mailText((user?.language ?? "en") as Locale, "sms.debitCode", { site: res.locals.site.name, code, minutes: 10 });
    await sms.send({ to: phone, text });
    logger.info({ userId: memberOf(res).userId, sms: sms.id }, "direct debit code sent");
  };
  const refuse = (res: Response, outcome: DebitRefusal) => {
    if (outcome.kind === "blocked") return sendError(res, "debit_blocked");
    if (outcome.kind === "limit") return sendError(res, "debit_limit");
    if (outcome.kind === "discount_refused") return refuseDiscount(res, outcome.refusal);
    return sendError(res, "not_found");
  };
  const smsFailed = (res: Response, error: unknown) => {
    logger.warn({ err: error instanceof Error ? error.message.replace(/\+?\d{6,}/g, "[number]") : "unknown", userId: memberOf(res).userId }, "direct debit code not sent");
    sendError(res, "sms_failed");
  };

  router.post(
    "/api/directdebit.php",
    requireMember,
    limit("sms", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, DirectDebitRequest, req.body);
      if (!body) return;
      try {
        const outcome = await requestDebit(db, config, sender(res), { siteId: res.locals.site.id, userId: memberOf(res).userId, body });
        if (outcome.kind !== "sent") return refuse(res, outcome);
        noStore(res).status(201).json(outcome.request);
      } catch (error) {
        if (isSmsError(error)) return smsFailed(res, error);
        throw error;
      }
    }),
  );

  router.get(
    "/api/directdebit.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, DebitRequestQuery, req.query);
      if (!query) return;
      const request = await debitRequestOf(db, res.locals.site.id, memberOf(res).userId, query.request);
      if (!request) return sendError(res, "not_found");
      noStore(res).json(request);
    }),
  );

  router.post(
    "/api/directdebit-code.php",
    requireMember,
    limit("sms", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, DebitCodeResendRequest, req.body);
      if (!body) return;
      try {
        const outcome = await resendCode(db, config, sender(res), { siteId: res.locals.site.id, userId: memberOf(res).userId, requestId: body.request_id });
        if (outcome.kind === "not_found") return sendError(res, "not_found");
        if (outcome.kind !== "sent") return sendError(res, "too_many_requests");
        noStore(res).json(outcome.request);
      } catch (error) {
        if (isSmsError(error)) return smsFailed(res, error);
        throw error;
      }
    }),
  );

  router.post(
    "/api/directdebit-confirm.php",
    requireMember,
    limit("payment", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, DebitConfirmRequest, req.body);
      if (!body) return;
      const site = res.locals.site;
      const outcome = await confirmDebit(db, providers, config, {
        siteId: site.id,
        siteName: site.name,
        userId: memberOf(res).userId,
        requestId: body.request_id,
        otp: body.otp,
        origin: publicOrigin(publicUrl, site.domain),
      });
      if (outcome.kind === "confirmed") {
        noStore(res).status(201).json({ payment_id: outcome.paymentId });
        return;
      }
      if (outcome.kind === "invalid") return sendError(res, "code_invalid", { params: { tries_left: outcome.triesLeft } });
      if (outcome.kind === "expired") return sendError(res, "code_expired");
      return refuse(res, outcome);
    }),
  );

  // The sandbox's bank (a test page's buttons, like its checkout): collects a pending direct debit, or returns it
  // (bounced: the payment fails and the member is blocked for direct debits). Off without the sandbox.
  router.post(
    "/api/sandbox-debit.php",
    requireMember,
    handle(async (req, res) => {
      if (!providers.sandboxEnabled) return sendError(res, "not_found");
      const body = parseInput(res, SandboxDebitRequest, req.body);
      if (!body) return;
      const userId = memberOf(res).userId;
      const [row] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.id, body.payment_id), eq(payments.userId, userId), eq(payments.provider, "sandbox"), eq(payments.method, "sdd")));
      if (!row || row.mandateId === null) return sendError(res, "not_found");
      if (row.status === "pending") {
        if (body.outcome === "bounced") await blockDebitsOf(db, userId);
        const status = body.outcome === "paid" ? "paid" : "failed";
        await applyNotification(db, providers.sandbox, { reference: row.reference, status, amount: row.amount, currency: row.currency, eventId: `sandbox-debit-${body.outcome}` });
      }
      noStore(res).json({ payment_id: row.id });
    }),
  );

  return router;
}

function isSmsError(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError" || /MessageBird|fetch failed|ECONNREFUSED/.test(error.message));
}
