import express, { Router, type Request, type Response } from "express";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { creditPackages, payments, profiles } from "../db/schema";
import {
  CreatePaymentRequest,
  DiscountCodeQuery,
  PackagesQuery,
  PaymentQuery,
  RepeatOrderRequest,
  SandboxCheckoutQuery,
  SandboxCheckoutRequest,
  TransactionsQuery,
  type PackagesResponse,
  type PaymentMethodId,
} from "#contract/payments";
import { withUserParam } from "#contract/members";
import type { UserResponse } from "#contract/user";
import { finalFailures } from "#contract/payment-methods";
import { loadMe } from "../domain/me";
import { publicOrigin } from "../domain/accounts/links";
import { methodsFor, packagesFor, paymentCountry, pricePerCredit, retryMethodsFor } from "../domain/payments/catalogue";
import { applyNotification, lastOrder, paymentOf, paymentsOf, receiveNotification, startPayment, toPayment, type PaymentRow } from "../domain/payments/payments";
import { countryOfIp } from "../services/geo";
import { users } from "../db/schema";
import { lookUpCode, priceList, refusalFor, refusalMessage, toActiveDiscount, welcomeDiscountOf, type DiscountMember } from "../domain/payments/discounts";
import type { DiscountRefusal } from "#contract/discounts";
import type { PaymentProviders } from "../services/payments";
import { sandboxCardTokens } from "../services/payments/sandbox";
import { requireMember, memberOf } from "./context";
import { sessionMember, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { bodyLimits } from "./body-cap";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");


export type PaymentDeps = { db: Db; providers: PaymentProviders; limit: ClientLimiter; publicUrl: string; /** DEBIT_LIMIT_30D (docs/payments.md, Direct debit). */ debitLimit30d: number };

/** Credits and payments: packages, starting a payment, its state, transactions, repeat order and the sandbox checkout. */
export function paymentRoutes({ db, providers, limit, publicUrl, debitLimit30d }: PaymentDeps): Router {
  const router = Router();
  const me = (req: Request, res: Response): Promise<UserResponse | undefined> => {
    const m = res.locals.member;
    if (req.query[withUserParam] !== "1" || !m) return Promise.resolve(undefined);
    return loadMe(db, m, res.locals.site.id);
  };
  const origin = (_req: Request, res: Response) => publicOrigin(publicUrl, res.locals.site.domain);
  /** When this api last asked a provider's status service about a payment, by payment id (reconcile). */
  const statusAskedAt = new Map<number, number>();

  // Public (docs/product.md §2 /pricing): a visitor sees the packages too; a member also gets their last order.
  const limitCodeChecks = limit("discount_code", sessionMember);
  on(router, endpoints.packages,
    // A typed code is checked: limited like /api/discountcode.php, so codes cannot be guessed through prices.
    (req, res, next) => (req.query.code && res.locals.member ? limitCodeChecks(req, res, next) : next()),
    handle(async (req, res) => {
      const query = parseInput(res, PackagesQuery, req.query);
      if (!query) return;
      const site = res.locals.site;
      const [asked] = query.package_id
        ? await db
            .select({ country: creditPackages.country })
            .from(creditPackages)
            .where(and(eq(creditPackages.id, query.package_id), eq(creditPackages.siteId, site.id)))
            .limit(1)
        : [];
      const m = res.locals.member;
      const ipCountry = countryOfIp(res.locals.clientIp);
      // The member's profile country counts only when neither the query nor the IP says where they pay from.
      const [profile] =
        !asked && !query.country && !ipCountry && m
          ? await db.select({ country: profiles.country }).from(profiles).where(eq(profiles.id, m.profileId)).limit(1)
          : [];
      const country = asked?.country ?? paymentCountry(site, query.country, ipCountry, profile?.country ?? null);
      const [packages, last, meAnswer, member] = await Promise.all([packagesFor(db, site.id, country), m ? lastOrderToRepeat(db, site.id, m.userId) : null, me(req, res), discountMember(db, m?.userId)]);
      const now = new Date();
      const prices = await priceList(db, site, member, packages, query.code, now, query.package_id ? packages.find((p) => p.id === query.package_id) : undefined);
      const body: PackagesResponse = {
        country,
        countries: site.countries,
        // The price per credit follows the discounted price, so the two never disagree on a card.
        packages: prices.packages.map((p) => (p.discounted_amount === null ? p : { ...p, price_per_credit: pricePerCredit(p.discounted_amount, p.credits) })),
        discount: prices.discount,
        discount_error: prices.discountError,
        // Direct debit goes through our own form when the sandbox takes it (it settles the mandate's debit on command).
        methods: methodsFor(country, providers.forMethod("sdd")?.id === "sandbox", site.transactionCosts).filter((m) => providers.forMethod(m.id) !== null),
        last_order: last,
        refund_days: site.refundDays,
        ...(meAnswer ? { me: meAnswer } : {}),
      };
      (m ? noStore(res) : res.set("Cache-Control", "private, max-age=60")).json(body);
    }),
  );

  on(router, endpoints.startPayment,
    requireMember,
    limit("payment", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, CreatePaymentRequest, req.body);
      if (!body) return;
      const site = res.locals.site;
      const outcome = await startPayment(db, providers, {
        siteId: site.id,
        siteName: site.name,
        userId: memberOf(res).userId,
        packageId: body.package_id,
        method: body.method,
        origin: origin(req, res),
        debitLimit30d,
        discountCode: body.discount_code || null,
      });
      if (outcome.kind === "not_found") return sendError(res, "not_found");
      if (outcome.kind === "discount_refused") return refuseDiscount(res, outcome.refusal);
      if (outcome.kind === "method_unavailable") return sendError(res, "validation_failed", { fields: { method: ["This payment method is not offered for this package's country."] } });
      if (outcome.kind === "provider_unavailable") return providerUnavailable(req, res, outcome.error);
      if (outcome.kind === "debit_refused") return sendError(res, outcome.reason === "blocked" ? "debit_blocked" : "debit_limit");
      noStore(res).status(201).json({ payment_id: outcome.payment.id, redirect_url: outcome.redirectUrl });
    }),
  );

  on(router, endpoints.payment,
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, PaymentQuery, req.query);
      if (!query) return;
      let row = await paymentOf(db, memberOf(res).userId, query.id);
      if (!row) return sendError(res, "not_found");
      if (row.status === "pending") row = (await reconcile(db, providers, statusAskedAt, row, req)) ?? row;
      const meAnswer = await me(req, res);
      const failed = (finalFailures as readonly string[]).includes(row.status);
      const retryMethods = failed ? retryMethodsFor(row.country, row.method, (method) => providers.forMethod(method) !== null) : [];
      noStore(res).json({ payment: toPayment(row), retry_methods: retryMethods, ...(meAnswer ? { me: meAnswer } : {}) });
    }),
  );

  on(router, endpoints.transactions,
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, TransactionsQuery, req.query);
      if (!query) return;
      const [rows, meAnswer] = await Promise.all([paymentsOf(db, memberOf(res).userId), me(req, res)]);
      noStore(res).json({ transactions: rows.map(toPayment), ...(meAnswer ? { me: meAnswer } : {}) });
    }),
  );

  on(router, endpoints.transaction,
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, PaymentQuery, req.query);
      if (!query) return;
      const [row, meAnswer] = await Promise.all([paymentOf(db, memberOf(res).userId, query.id), me(req, res)]);
      if (!row) return sendError(res, "not_found");
      const site = res.locals.site;
      noStore(res).json({ payment: toPayment(row), company: res.locals.company, site_name: site.name, refund_days: site.refundDays, ...(meAnswer ? { me: meAnswer } : {}) });
    }),
  );

  on(router, endpoints.repeatOrder,
    requireMember,
    limit("payment", sessionMember),
    handle(async (req, res) => {
      if (!parseInput(res, RepeatOrderRequest, req.body ?? {})) return;
      const m = memberOf(res);
      const last = await lastOrder(db, m.userId);
      if (!last || last.packageId === null) return sendError(res, "not_found");
      const site = res.locals.site;
      const outcome = await startPayment(db, providers, {
        siteId: site.id,
        siteName: site.name,
        userId: m.userId,
        packageId: last.packageId,
        method: last.method as PaymentMethodId,
        origin: origin(req, res),
        debitLimit30d,
        storedCard: last.method === "cards" ? last.storedCard : null,
      });
      if (outcome.kind === "discount_refused") return refuseDiscount(res, outcome.refusal);
      if (outcome.kind === "provider_unavailable") return providerUnavailable(req, res, outcome.error);
      if (outcome.kind === "debit_refused") return sendError(res, outcome.reason === "blocked" ? "debit_blocked" : "debit_limit");
      if (outcome.kind !== "created") return sendError(res, "not_found");
      noStore(res).status(201).json({ payment_id: outcome.payment.id, redirect_url: outcome.redirectUrl });
    }),
  );

  // docs/product.md §7 GET /api/discountcode.php: welcome=true answers the member's welcome discount (null when none);
  // code=... checks a typed code (against package_id's package when given).
  on(router, endpoints.discountCode,
    requireMember,
    limit("discount_code", sessionMember),
    handle(async (req, res) => {
      const query = parseInput(res, DiscountCodeQuery, req.query);
      if (!query) return;
      const site = res.locals.site;
      const member = await discountMember(db, memberOf(res).userId);
      if (!member) return sendError(res, "authentication_required");
      const now = new Date();
      let body: { discount: ReturnType<typeof toActiveDiscount> | null; refusal: DiscountRefusal | null } = { discount: null, refusal: null };
      if (query.code) {
        const found = await lookUpCode(db, site, member, query.code, now);
        const [pkg] = query.package_id
          ? await db
              .select()
              .from(creditPackages)
              .where(and(eq(creditPackages.id, query.package_id), eq(creditPackages.siteId, site.id), eq(creditPackages.active, true)))
              .limit(1)
          : [];
        if (query.package_id && !pkg) return sendError(res, "not_found");
        const refusal = "refusal" in found ? found.refusal : pkg ? refusalFor(found.discount, pkg) : null;
        body = refusal ? { discount: null, refusal } : { discount: "discount" in found ? toActiveDiscount(found.discount) : null, refusal: null };
      } else if (query.welcome) {
        const welcome = welcomeDiscountOf(member, site, now);
        body = { discount: welcome ? toActiveDiscount(welcome) : null, refusal: null };
      }
      noStore(res).json(body);
    }),
  );

  // The sandbox provider's hosted checkout: the token (our reference at the sandbox) is its only key, as at a real provider.
  // Without the sandbox (production default) its checkout does not exist.
  router.use("/api/sandbox-checkout.php", (_req, res, next) => (providers.sandboxEnabled ? next() : sendError(res, "not_found")));

  on(router, endpoints.sandboxCheckout,
    handle(async (req, res) => {
      const query = parseInput(res, SandboxCheckoutQuery, req.query);
      if (!query) return;
      const [row] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.provider, "sandbox"), eq(payments.reference, query.token)))
        .limit(1);
      if (!row) return sendError(res, "not_found");
      noStore(res).json({
        payment_id: row.id,
        site_name: res.locals.site.name,
        description: `${row.credits} credits`,
        amount: row.amount,
        currency: row.currency,
        method: row.method,
        decided: row.sandboxOutcome !== null,
      });
    }),
  );

  on(router, endpoints.completeSandboxCheckout,
    handle(async (req, res) => {
      const body = parseInput(res, SandboxCheckoutRequest, req.body);
      if (!body) return;
      // The payer decides once; a second submit (back button, double click) changes nothing.
      const [row] = await db
        .update(payments)
        .set({ sandboxOutcome: body.outcome })
        .where(and(eq(payments.provider, "sandbox"), eq(payments.reference, body.token), isNull(payments.sandboxOutcome)))
        .returning();
      if (row) {
        const storedCard = row.method === "cards" && body.outcome === "paid" ? sandboxCardTokens[body.card ?? "ok"] : undefined;
        providers.sandbox.notifyOutcome({ reference: row.reference, status: body.outcome, amount: row.amount, currency: row.currency, storedCard });
        noStore(res).json({ payment_id: row.id });
        return;
      }
      const [existing] = await db
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.provider, "sandbox"), eq(payments.reference, body.token)))
        .limit(1);
      if (!existing) return sendError(res, "not_found");
      noStore(res).json({ payment_id: existing.id });
    }),
  );

  return router;
}

/**
 * Provider notifications (webhooks, postbacks), reachable without a session: the signature is checked
 * before anything else is read; a bad one gets 400 and changes nothing. Registered before the JSON body
 * parser, so the signature is checked over the raw body.
 */
export function paymentNotifyRoutes({ db, providers }: Pick<PaymentDeps, "db" | "providers">): Router {
  const router = Router();
  const rawBody = express.text({ type: () => true, limit: bodyLimits.notifyBytes });
  const notified = handle(async (req, res) => {
      const provider = typeof req.query.provider === "string" ? providers.byId(req.query.provider) : null;
      if (!provider) return sendError(res, "not_found");
      const outcome = await receiveNotification(
        db,
        provider,
        {
          query: req.query as Record<string, unknown>,
          rawBody: typeof req.body === "string" ? req.body : "",
          // The sandbox's signature, and PAY.'s (HMAC of the body; its key id, method and algorithm).
          headers: Object.fromEntries(["x-sandbox-signature", "signature", "signature-keyid", "signature-method", "signature-algorithm"].map((name) => [name, req.get(name)])),
        },
        new Date(),
        (error) => req.log.warn({ err: error, provider: provider.id }, "payment status service failed"),
      );
      if (!outcome) {
        req.log.warn({ provider: provider.id }, "payment notification with a bad signature");
        return sendError(res, "validation_failed", { fields: { signature: ["The signature does not match."] } });
      }
      // Signed, but for no payment of ours, for another amount, or not confirmed by the provider: nothing changed; the operator should look.
      if (outcome === "mismatch" || outcome === "unknown" || outcome === "unconfirmed") req.log.warn({ provider: provider.id, outcome }, "payment notification changed nothing");
      // Still "OK" when unconfirmed: Verotel refunds a card sale it gets no OK for, and the status service is asked again (reconcile, the settle job).
      const reply = provider.acknowledge();
      res.status(reply.status).type(reply.contentType).send(reply.body);
    });
  // A postback (GET) or a webhook (POST): the same check of the signature.
  on(router, endpoints.paymentNotifyReturn, rawBody, notified);
  on(router, endpoints.paymentNotify, rawBody, notified);
  return router;
}

/**
 * A pending payment at a provider that posts back only approved sales (Verotel): its status service,
 * asked server to server, settles a declined one. The sandbox notifies every outcome, so it is not asked.
 * A provider that cannot be reached leaves the payment pending.
 */
const statusAskEveryMs = 10_000;

async function reconcile(db: Db, providers: PaymentProviders, statusAskedAt: Map<number, number>, row: PaymentRow, req: Request): Promise<PaymentRow | null> {
  const provider = providers.byId(row.provider);
  if (!provider || provider.id === "sandbox") return null;
  // At most once per 10 s per payment, however often the page refreshes (bounded memory).
  const now = Date.now();
  if (now - (statusAskedAt.get(row.id) ?? 0) < statusAskEveryMs) return null;
  statusAskedAt.delete(row.id);
  statusAskedAt.set(row.id, now);
  if (statusAskedAt.size > 10_000) statusAskedAt.delete(statusAskedAt.keys().next().value!);
  const answer = await provider.readStatus(row.reference, row.providerReference).catch((error: unknown) => {
    req.log.warn({ err: error, provider: provider.id }, "payment status service failed");
    return null;
  });
  if (!answer || answer.status === "pending") return null;
  // applyNotification checks the amount and currency the status service states against the payment's.
  await applyNotification(db, provider, answer);
  return paymentOf(db, row.userId, row.id);
}

/** The last paid order as a repeat order would buy it now: its package at today's price, and its method (null when the package is gone). */
async function lastOrderToRepeat(db: Db, siteId: number, userId: number): Promise<PackagesResponse["last_order"]> {
  const last = await lastOrder(db, userId);
  if (!last || last.packageId === null) return null;
  const [pkg] = await db
    .select()
    .from(creditPackages)
    .where(and(eq(creditPackages.id, last.packageId), eq(creditPackages.siteId, siteId), eq(creditPackages.active, true)))
    .limit(1);
  if (!pkg) return null;
  return { package_id: pkg.id, method: last.method as PaymentMethodId, credits: pkg.credits, amount: pkg.amount, currency: pkg.currency, stored_card: Boolean(last.storedCard) };
}

/** What the discount rules need of a member: signup date and whether they ever paid. */
async function discountMember(db: Db, userId: number | undefined): Promise<DiscountMember | null> {
  if (userId === undefined) return null;
  const [row] = await db.select({ userId: users.id, signupDate: users.signupDate, paidUser: users.paidUser }).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** A refused code: 400 with its reason and message on the discount_code field (web shows its translation). */
export function refuseDiscount(res: Response, refusal: DiscountRefusal): void {
  const params = Object.fromEntries(Object.entries(refusal).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
  sendError(res, "validation_failed", { fields: { discount_code: [refusalMessage(refusal)] }, params });
}

/** A provider that did not answer a new payment: logged, and the payer hears to try again later (503); the payment ended as failed. */
function providerUnavailable(req: Request, res: Response, error: unknown): void {
  req.log.error({ err: error }, "payment provider did not answer a new payment");
  res.set("Retry-After", "60");
  sendError(res, "provider_unavailable");
}
