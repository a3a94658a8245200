import { randomBytes } from "node:crypto";
import { countPaymentPaid, countPaymentRefunded } from "../analytics/rollups";
import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { creditLedger, creditPackages, paymentEvents, payments, sites, users } from "../../db/schema";
import type { DiscountRefusal } from "#contract/discounts";
import type { Payment, PaymentMethodId, PaymentStatus } from "#contract/payments";
import { transactionCostsFor } from "#contract/payment-methods";
import type { PaymentProviders } from "../../services/payments";
import type { NotificationInput, PaymentProvider, ProviderNotification } from "../../services/payments/types";
import { methodOffered } from "./catalogue";
import { countPayment } from "../../metrics";
import { holdDiscount, lookUpCode, priceWith, refusalFor, releaseHeldDiscount, timeBonusOf, useHeldDiscount, welcomeDiscountOf, type Discount, type DiscountMember, type DiscountSite, type Order } from "./discounts";

export type PaymentRow = typeof payments.$inferSelect;

export function toPayment(row: PaymentRow): Payment {
  return {
    payment_id: row.id,
    date: row.createdAt.toISOString(),
    // A refund being claimed is not a refund yet: the member sees the payment paid until it is settled.
    status: row.status === "refunding" ? "paid" : row.status,
    package_id: row.packageId,
    credits: row.credits,
    amount: row.amount,
    transaction_costs: row.transactionCosts,
    currency: row.currency,
    method: row.method as PaymentMethodId,
    country: row.country,
    stored_card: row.usedStoredCard,
    paid_at: row.paidAt?.toISOString() ?? null,
    refunded_at: row.status === "refunded" ? (row.refundedAt?.toISOString() ?? null) : null,
    refunded_credits: row.refundedCredits,
    discount_code: row.discountCode,
    discount_amount: row.discountAmount,
    mandate: row.mandateId !== null,
    sandbox: row.provider === "sandbox",
  };
}


export type CreateOutcome =
  | { kind: "created"; payment: PaymentRow; redirectUrl: string }
  | { kind: "not_found" }
  | { kind: "method_unavailable" }
  /** A direct debit the member may not make: blocked after a bounce, or over the 30-day limit. */
  | { kind: "debit_refused"; reason: "blocked" | "limit" }
  /** The provider did not answer (or failed): the payment is ended as failed; the payer tries again later. */
  | { kind: "provider_unavailable"; error: unknown }
  | { kind: "discount_refused"; refusal: DiscountRefusal };

class HoldLost extends Error {}
class DebitRefused extends Error {
  constructor(readonly reason: "blocked" | "limit") {
    super(reason);
  }
}

/**
 * Whether a member may make a direct debit of `amount` (docs/payments.md, Direct debit): not blocked after a bounce, and
 * their direct debits of 30 days (pending, paid, being refunded) with it within `limit30d`. Run under the member's row
 * lock so debits started at once are counted one after another.
 */
export async function debitRefusalFor(db: Db | Tx, userId: number, amount: number, limit30d: number, now: Date): Promise<"not_found" | "blocked" | "limit" | null> {
  const [user] = await db.select({ blocked: users.debitBlockedAt }).from(users).where(eq(users.id, userId));
  if (!user) return "not_found";
  if (user.blocked) return "blocked";
  const [used] = await db
    .select({ sum: sql<number>`coalesce(sum(${payments.amount}), 0)::int` })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.method, "sdd"), inArray(payments.status, ["pending", "paid", "refunding"]), gte(payments.createdAt, new Date(now.getTime() - 30 * 86_400_000))));
  return Number(used?.sum ?? 0) + amount > limit30d ? "limit" : null;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The discount a payment gets: the code the member typed (refused with its reason when it does not
 * apply), else the member's time bonus, else their welcome discount, when one applies to the order.
 */
export async function discountForOrder(
  db: Db,
  site: DiscountSite,
  member: DiscountMember,
  order: Order,
  typed: string | null | undefined,
  now: Date,
): Promise<{ discount: Discount | null } | { refusal: DiscountRefusal }> {
  if (typed) {
    const found = await lookUpCode(db, site, member, typed, now);
    if ("refusal" in found) return found;
    const refusal = refusalFor(found.discount, order);
    return refusal ? { refusal } : found;
  }
  for (const rule of [timeBonusOf(member, now), welcomeDiscountOf(member, site, now)]) {
    if (!rule || refusalFor(rule, order)) continue;
    const found = await lookUpCode(db, site, member, rule.code, now);
    if ("discount" in found) return found;
  }
  return { discount: null };
}

/**
 * Starts a payment for a package: the amount always comes from the package on the server. The payer
 * then goes to the provider's checkout; a stored card (repeat order) is charged at once.
 */
export async function startPayment(
  db: Db,
  providers: PaymentProviders,
  input: {
    siteId: number;
    siteName: string;
    userId: number;
    packageId: number;
    method: PaymentMethodId;
    origin: string;
    /** DEBIT_LIMIT_30D: a direct debit (method sdd) is held to it however it is started. */
    debitLimit30d: number;
    storedCard?: string | null;
    discountCode?: string | null;
    mandateId?: number | null;
  },
  now = new Date(),
): Promise<CreateOutcome> {
  const [pkg] = await db
    .select()
    .from(creditPackages)
    .where(and(eq(creditPackages.id, input.packageId), eq(creditPackages.siteId, input.siteId), eq(creditPackages.active, true)))
    .limit(1);
  if (!pkg) return { kind: "not_found" };
  const provider = providers.forMethod(input.method);
  if (!methodOffered(pkg.country, input.method) || !provider) return { kind: "method_unavailable" };
  // A direct debit with our own mandate form: only the sandbox takes the mandate; it settles the debit on command.
  if (input.mandateId && provider.id !== "sandbox") return { kind: "method_unavailable" };
  const [member] = await db
    .select({
      userId: users.id,
      signupDate: users.signupDate,
      paidUser: users.paidUser,
      welcomeDiscountHours: sites.welcomeDiscountHours,
      transactionCosts: sites.transactionCosts,
      network: users.network,
      ref: users.ref,
      sub1: users.sub1,
      sub2: users.sub2,
      sub3: users.sub3,
    })
    .from(users)
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(eq(users.id, input.userId))
    .limit(1);
  if (!member) return { kind: "not_found" };
  const site = { id: input.siteId, welcomeDiscountHours: member.welcomeDiscountHours };
  const found = await discountForOrder(db, site, member, { amount: pkg.amount, currency: pkg.currency, country: pkg.country, method: input.method }, input.discountCode, now);
  if ("refusal" in found) return { kind: "discount_refused", refusal: found.refusal };
  const insert = (discount: Discount | null) =>
    db.transaction(async (tx) => {
      const price = discount ? priceWith(discount, pkg.amount) : pkg.amount;
      // The site's costs of this method on the price paid (after the discount), added to it and stored with the payment.
      const transactionCosts = transactionCostsFor(member.transactionCosts[input.method], price);
      if (input.method === "sdd") {
        // The member's lock, held to the commit: direct debits started at once are counted one after another.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for("no key update");
        const refused = await debitRefusalFor(tx, input.userId, price + transactionCosts, input.debitLimit30d, now);
        if (refused === "blocked" || refused === "limit") throw new DebitRefused(refused);
      }
      // The package's count of payments, in the payment's transaction (the packages page reads it, not every payment).
      await tx.update(creditPackages).set({ paymentsCount: sql`${creditPackages.paymentsCount} + 1` }).where(eq(creditPackages.id, pkg.id));
      const [row] = await tx
        .insert(payments)
        .values({
          userId: input.userId,
          siteId: input.siteId,
          packageId: pkg.id,
          credits: pkg.credits,
          amount: price + transactionCosts,
          transactionCosts,
          currency: pkg.currency,
          country: pkg.country,
          method: input.method,
          provider: provider.id,
          reference: randomBytes(24).toString("base64url"),
          usedStoredCard: Boolean(input.storedCard),
          discountCode: discount?.code ?? null,
          discountPercentage: discount?.value_percentage ?? null,
          discountAmount: pkg.amount - price,
          mandateId: input.mandateId ?? null,
          // Attribution: the funnel that brought the member, with each payment.
          network: member.network,
          ref: member.ref,
          sub1: member.sub1,
          sub2: member.sub2,
          sub3: member.sub3,
          createdAt: now,
        })
        .returning();
      if (!row) throw new Error("payment insert returned nothing");
      // Held in the payment's own transaction: a payment that loses the race for a code is not created.
      if (discount && !(await holdDiscount(tx, discount, { userId: input.userId, paymentId: row.id }, now))) throw new HoldLost();
      return row;
    });
  let payment: PaymentRow;
  try {
    payment = await insert(found.discount);
  } catch (error) {
    if (error instanceof DebitRefused) return { kind: "debit_refused", reason: error.reason };
    if (!(error instanceof HoldLost)) throw error;
    // Another payment took the code first: a typed code is refused; an automatic discount is just not given.
    if (input.discountCode) return { kind: "discount_refused", refusal: { reason: "used", code: input.discountCode } };
    payment = await insert(null);
  }
  countPayment(payment.provider, "pending");
  const reference = payment.reference;
  // A direct debit stays pending until the provider collects it (or the bank returns it): nowhere to send the payer.
  if (payment.mandateId) return { kind: "created", payment, redirectUrl: `/payment/${payment.id}` };
  const created = await provider
    .createPayment({
      paymentId: payment.id,
      reference,
      amount: payment.amount,
      currency: payment.currency,
      method: input.method,
      description: `${pkg.credits} credits - ${input.siteName}`,
      returnUrl: `${input.origin}/payment/${payment.id}`,
      storedCard: input.storedCard,
    })
    .catch(async (error: unknown) => {
      await finish(db, payment, "failed", now);
      return { failed: error };
    });
  if ("failed" in created) return { kind: "provider_unavailable", error: created.failed };
  if ("charged" in created) {
    await applyNotification(db, provider, created.charged, now);
    return { kind: "created", payment, redirectUrl: `/payment/${payment.id}` };
  }
  // The provider's id of the order (PAY.): its status service is asked by it, the refund is made with it.
  if (created.providerReference) {
    const [stored] = await db.update(payments).set({ providerReference: created.providerReference }).where(eq(payments.id, payment.id)).returning();
    if (stored) payment = stored;
  }
  return { kind: "created", payment, redirectUrl: created.redirectUrl };
}

async function finish(db: Db, payment: Pick<PaymentRow, "id" | "provider">, status: PaymentStatus, now: Date) {
  const ended = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(payments)
      .set({ status, finishedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
      .returning({ id: payments.id });
    if (row) await releaseHeldDiscount(tx, payment.id);
    return Boolean(row);
  });
  if (ended) countPayment(payment.provider, status);
}

export type ApplyOutcome = "applied" | "ignored" | "mismatch" | "unknown" | "unconfirmed";

/**
 * A verified notification changes a pending payment once: a conditional UPDATE from `pending`, and for
 * `paid`, the credits, paid_user and the ledger row in the same transaction. Replays, a notification
 * racing the browser's return, and statuses after the final one find no pending row and change nothing.
 * An amount or currency other than the payment's is recorded and changes nothing; `paid` must state both.
 */
export async function applyNotification(db: Db, provider: Pick<PaymentProvider, "id">, n: ProviderNotification, now = new Date()): Promise<ApplyOutcome> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider.id), eq(payments.reference, n.reference)))
    .limit(1);
  const event = { provider: provider.id, eventId: n.eventId?.slice(0, 100) ?? null, status: n.status, receivedAt: now };
  if (!payment) {
    await db.insert(paymentEvents).values({ ...event, paymentId: null, outcome: "ignored" });
    return "unknown";
  }
  const unstated = n.status === "paid" && (n.amount === null || n.currency === null);
  if (unstated || (n.amount !== null && n.amount !== payment.amount) || (n.currency !== null && n.currency !== payment.currency)) {
    await db.insert(paymentEvents).values({ ...event, paymentId: payment.id, outcome: "mismatch" });
    return "mismatch";
  }
  if (n.status === "pending") {
    await db.insert(paymentEvents).values({ ...event, paymentId: payment.id, outcome: "ignored" });
    return "ignored";
  }
  const outcome = await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(payments)
      .set({
        status: n.status,
        finishedAt: now,
        paidAt: n.status === "paid" ? now : null,
        providerReference: n.providerReference ?? payment.providerReference,
        storedCard: n.status === "paid" ? (n.storedCard ?? null) : null,
      })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
      .returning({ userId: payments.userId, credits: payments.credits });
    if (changed && n.status === "paid") {
      const [user] = await tx
        .update(users)
        .set({ credits: sql`${users.credits} + ${changed.credits}`, paidUser: true })
        .where(eq(users.id, changed.userId))
        .returning({ credits: users.credits });
      if (!user) throw new Error("credits update found no user");
      await tx.insert(creditLedger).values({ userId: changed.userId, delta: changed.credits, balanceAfter: user.credits, reason: "purchase", reference: `payment:${payment.id}`, createdAt: now });
      await useHeldDiscount(tx, payment.id, now);
      await countPaymentPaid(tx, payment.id);
    } else if (changed) {
      // Ended unpaid: the discount it held is free again (a cancelled payment does not use a code up).
      await releaseHeldDiscount(tx, payment.id);
    }
    await tx.insert(paymentEvents).values({ ...event, paymentId: payment.id, outcome: changed ? "applied" : "ignored" });
    return changed ? "applied" : "ignored";
  });
  if (outcome === "applied") countPayment(provider.id, n.status);
  return outcome;
}

export async function paymentOf(db: Db, userId: number, paymentId: number): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function paymentsOf(db: Db, userId: number, limit = 200): Promise<PaymentRow[]> {
  return db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt), desc(payments.id)).limit(limit);
}

/** The member's last paid order (docs/product.md §2 /credits/repeat-order): its package, method and stored card. */
export async function lastOrder(db: Db, userId: number): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, "paid")))
    .orderBy(desc(payments.paidAt), desc(payments.id))
    .limit(1);
  return row ?? null;
}

export type RefundOutcome =
  | { kind: "refunded"; takenBack: number; shortfall: number; manual: boolean }
  /** The provider failed: the payment is `paid` again and the failure is kept in payment_events (`refund_failed`); try again. */
  | { kind: "provider_failed"; error: unknown }
  | { kind: "not_found" | "not_paid" | "window_passed" }
  /** A partial amount larger than the payment's, or below one cent. */
  | { kind: "bad_amount" };

/**
 * The credits a refund of `amount` (minor units) of a payment takes back: all of them for the whole amount, else the
 * same share of the credits, rounded down (a member keeps a credit they paid part of). Integers only, so the ledger's
 * entry matches what the provider pays back.
 */
export function creditsForRefund(payment: { amount: number; credits: number }, amount: number): number {
  if (amount >= payment.amount) return payment.credits;
  return Math.floor((payment.credits * amount) / payment.amount);
}

/** A claim older than this is taken to be from a process that died before the provider answered: it may be claimed again. */
export const staleRefundClaimMs = 10 * 60_000;

/**
 * Refund by an operator (npm run refund) or staff, within the site's refund_days of the payment (docs/payments.md
 * Refunds). A conditional update claims the payment first (paid -> refunding), so however many refunds run at once
 * the provider is asked once; then one transaction settles it (refunding -> refunded) with the ledger entry. Credits
 * already spent are not taken: the balance never goes below zero, and the shortfall is recorded on the payment. The
 * member stays premium only with another paid payment. A provider failure puts the payment back to `paid`.
 */
export async function refundPayment(
  db: Db,
  providers: PaymentProviders,
  paymentId: number,
  now = new Date(),
  /** Runs inside the settling transaction (the staff side's audit entry): only when the refund happened. */
  onRefunded?: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0], outcome: { takenBack: number; shortfall: number; userId: number; siteId: number; amount: number; currency: string }) => Promise<void>,
  /** A part of the amount (minor units; default the whole) and why (the console asks both). */
  options: { amount?: number; reason?: string } = {},
): Promise<RefundOutcome> {
  const [found] = await db
    .select({ payment: payments, refundDays: sites.refundDays })
    .from(payments)
    .innerJoin(sites, eq(sites.id, payments.siteId))
    .where(eq(payments.id, paymentId))
    .limit(1);
  if (!found) return { kind: "not_found" };
  const { payment, refundDays } = found;
  if ((payment.status !== "paid" && payment.status !== "refunding") || !payment.paidAt) return { kind: "not_paid" };
  if (now.getTime() - payment.paidAt.getTime() > refundDays * 86_400_000) return { kind: "window_passed" };
  const amount = options.amount ?? payment.amount;
  if (!Number.isInteger(amount) || amount < 1 || amount > payment.amount) return { kind: "bad_amount" };
  const credits = creditsForRefund(payment, amount);
  const provider = providers.byId(payment.provider);
  if (!provider) throw new Error(`provider ${payment.provider} is not configured`);
  // The claim: only one refund gets past it, so the provider is asked once. refunded_at holds when it was claimed.
  const [claimed] = await db
    .update(payments)
    .set({ status: "refunding", refundedAt: now })
    .where(
      and(
        eq(payments.id, payment.id),
        or(eq(payments.status, "paid"), and(eq(payments.status, "refunding"), lt(payments.refundedAt, new Date(now.getTime() - staleRefundClaimMs)))),
      ),
    )
    .returning({ id: payments.id });
  if (!claimed) return { kind: "not_paid" };
  let manual: boolean;
  try {
    ({ manual } = await provider.refund({ reference: payment.reference, providerReference: payment.providerReference, amount, currency: payment.currency }));
  } catch (error) {
    await db.transaction(async (tx) => {
      await tx
        .update(payments)
        .set({ status: "paid", refundedAt: null })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "refunding")));
      const reason = error instanceof Error ? error.message : String(error);
      await tx.insert(paymentEvents).values({ provider: payment.provider, eventId: reason.slice(0, 100), status: "refund", receivedAt: now, paymentId: payment.id, outcome: "refund_failed" });
    });
    return { kind: "provider_failed", error };
  }
  const outcome = await db.transaction(async (tx) => {
    const [marked] = await tx
      .update(payments)
      .set({ status: "refunded", refundedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "refunding")))
      .returning({ id: payments.id });
    if (!marked) return { kind: "not_paid" } as const;
    const result = await tx.execute<{ before: number; after: number }>(sql`
      with old as (select id, credits from users where id = ${payment.userId} for update)
      update users u
         set credits = greatest(u.credits - ${credits}, 0),
             paid_user = u.paid_user and exists (select 1 from payments p where p.user_id = u.id and p.status = 'paid' and p.id <> ${payment.id})
        from old
       where u.id = old.id
   returning old.credits as before, u.credits as after`);
    const row = (result as unknown as { rows: { before: number; after: number }[] }).rows[0];
    if (!row) throw new Error("refund found no user");
    const takenBack = Number(row.before) - Number(row.after);
    if (takenBack > 0) {
      await tx.insert(creditLedger).values({ userId: payment.userId, delta: -takenBack, balanceAfter: Number(row.after), reason: "refund", reference: `payment:${payment.id}`, createdAt: now });
    }
    const shortfall = credits - takenBack;
    await tx
      .update(payments)
      .set({ refundedCredits: takenBack, refundShortfall: shortfall, refundAmount: amount, refundReason: options.reason ?? null })
      .where(eq(payments.id, payment.id));
    // After the refund's amount is on the payment: the analytics subtract what was refunded (a part or the whole).
    await countPaymentRefunded(tx, payment.id);
    await onRefunded?.(tx, { takenBack, shortfall, userId: payment.userId, siteId: payment.siteId, amount, currency: payment.currency });
    return { kind: "refunded", takenBack, shortfall, manual } as const;
  });
  if (outcome.kind === "refunded") countPayment(payment.provider, "refunded");
  return outcome;
}

/**
 * Verifies one notification, has the provider confirm it (server to server) while its payment is pending,
 * and applies what was confirmed: what it did, or false when it is not authentic. Not confirmed
 * ("unconfirmed"): recorded, and the payment stays pending (the status service is asked again later).
 */
export async function receiveNotification(
  db: Db,
  provider: Pick<PaymentProvider, "id" | "verifyNotification" | "confirm">,
  input: NotificationInput,
  now = new Date(),
  onConfirmError: (error: unknown) => void = () => undefined,
): Promise<ApplyOutcome | false> {
  const claim = provider.verifyNotification(input);
  if (!claim) return false;
  const [payment] = await db
    .select({ id: payments.id, status: payments.status })
    .from(payments)
    .where(and(eq(payments.provider, provider.id), eq(payments.reference, claim.reference)))
    .limit(1);
  // Nothing left to decide (no such payment, or no longer pending): recorded as such, without asking the provider.
  if (!payment || payment.status !== "pending") return applyNotification(db, provider, claim, now);
  const confirmed = await provider.confirm(claim).catch((error: unknown) => {
    onConfirmError(error);
    return null;
  });
  if (!confirmed || confirmed.reference !== claim.reference || confirmed.status !== claim.status) {
    await db.insert(paymentEvents).values({ provider: provider.id, eventId: claim.eventId?.slice(0, 100) ?? null, status: claim.status, receivedAt: now, paymentId: payment.id, outcome: "unconfirmed" });
    return "unconfirmed";
  }
  return applyNotification(db, provider, confirmed, now);
}

export type SettleOptions = {
  /** An undecided sandbox checkout expires after this (a provider's checkout session lifetime). */
  checkoutTtlMs: number;
  /** A pending payment at a real provider is asked about after this. */
  askAfterMs: number;
  /** Still unknown to the provider after this: expired here (its order page is long gone). */
  giveUpAfterMs: number;
  batch: number;
};

export const defaultSettleOptions: SettleOptions = { checkoutTtlMs: 30 * 60_000, askAfterMs: 15 * 60_000, giveUpAfterMs: 24 * 60 * 60_000, batch: 50 };

/**
 * The job that keeps no payment pending forever (api/jobs/settle-payments.ts): an abandoned sandbox
 * checkout expires (the sandbox notifies it, as a provider does); a sandbox outcome whose notifications
 * were lost (a restart) is notified again; a real provider is asked for what it knows, and a payment it
 * still does not know after a day expires here. Every change goes through the conditional update.
 */
export async function settleAbandonedPayments(db: Db, providers: PaymentProviders, now = new Date(), options = defaultSettleOptions): Promise<{ expired: number; renotified: number; asked: number }> {
  let expired = 0;
  let renotified = 0;
  let asked = 0;
  if (providers.sandboxEnabled) {
    const abandoned = await db
      .update(payments)
      .set({ sandboxOutcome: "expired" })
      .where(
        and(
          eq(payments.provider, "sandbox"),
          eq(payments.status, "pending"),
          isNull(payments.sandboxOutcome),
          // A direct debit has no checkout to abandon: it waits for its settlement.
          isNull(payments.mandateId),
          lt(payments.createdAt, new Date(now.getTime() - options.checkoutTtlMs)),
        ),
      )
      .returning();
    for (const row of abandoned) providers.sandbox.notifyOutcome({ reference: row.reference, status: "expired", amount: row.amount, currency: row.currency });
    expired += abandoned.length;
    const undelivered = await db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.provider, "sandbox"),
          eq(payments.status, "pending"),
          isNotNull(payments.sandboxOutcome),
          lt(payments.createdAt, new Date(now.getTime() - 60_000)),
        ),
      )
      .limit(options.batch);
    for (const row of undelivered) {
      providers.sandbox.notifyOutcome({ reference: row.reference, status: row.sandboxOutcome as ProviderNotification["status"], amount: row.amount, currency: row.currency });
    }
    renotified = undelivered.length;
  }
  const waiting = await db
    .select()
    .from(payments)
    .where(and(ne(payments.provider, "sandbox"), eq(payments.status, "pending"), lt(payments.createdAt, new Date(now.getTime() - options.askAfterMs))))
    .orderBy(payments.createdAt)
    .limit(options.batch);
  for (const row of waiting) {
    const provider = providers.byId(row.provider);
    if (!provider) continue;
    asked++;
    const answer = await provider.readStatus(row.reference, row.providerReference).catch(() => null);
    if (answer && answer.status !== "pending") {
      await applyNotification(db, provider, answer, now);
    } else if (!answer && now.getTime() - row.createdAt.getTime() > options.giveUpAfterMs) {
      if ((await applyNotification(db, provider, { reference: row.reference, status: "expired", amount: null, currency: null, eventId: "expired-here" }, now)) === "applied") expired++;
    }
  }
  return { expired, renotified, asked };
}
