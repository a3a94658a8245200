import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { discountCodes, discountUses } from "../../db/schema";
import { discounted, timeBonus, welcomeDiscount } from "#contract/offers";
import type { ActiveDiscount, DiscountRefusal } from "#contract/discounts";
import type { PaymentMethodId } from "#contract/payment-methods";

/**
 * Discounts (docs/product.md §3 Discount code, §4 and §9 Time bonus and Welcome discount).
 *
 * - A code an operator hands out is a row of discount_codes: percentage, minimum order, currency,
 *   country, methods, once per member or a number of uses, expiry.
 * - The time bonus (TIMEBONUS25) and the welcome discount (WELCOME25) are rules on the member: never
 *   paid, and within 14,400 s (time bonus) or the site's welcome_discount_hours (welcome) of signup.
 *   The member gets the active one without typing it: the time bonus while it runs, else the welcome discount.
 * - A payment that gets a discount holds it (discount_uses `reserved`) from its start, in the same
 *   transaction as its insert; the hold becomes `used` when the payment is paid and is given back when it
 *   ends unpaid. A once-per-member code can be held by one payment of the member at a time (a unique index),
 *   a code with a number of uses by at most that many (a conditional update of used_count): however many
 *   payments start at once, one gets the discount and the others are refused.
 */

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Q = Db | Tx;

export type DiscountMember = { userId: number; signupDate: Date; paidUser: boolean };
export type DiscountSite = { id: number; welcomeDiscountHours: number };

/** What a payment is for: the package's price (minor units, before transaction costs), currency, country and method. */
export type Order = { amount: number; currency: string; country: string; method?: PaymentMethodId };

/** A discount found for a member and an order, with what reserving it needs. */
export type Discount = ActiveDiscount & { discountCodeId: number | null; validity: "once_per_user" | "uses"; paymentMethods: string[] | null };

/** docs/product.md §4: the time bonus, while it runs: never paid, and less than 14,400 s since signup. */
export function timeBonusOf(member: Pick<DiscountMember, "signupDate" | "paidUser">, now: Date): Discount | null {
  if (member.paidUser) return null;
  const ends = member.signupDate.getTime() + timeBonus.seconds * 1000;
  if (now.getTime() >= ends) return null;
  return builtin("timebonus", timeBonus.code, timeBonus.percentage, new Date(ends));
}

/** docs/product.md §9: the welcome discount on the first purchase, for the site's welcome_discount_hours after signup. */
export function welcomeDiscountOf(member: Pick<DiscountMember, "signupDate" | "paidUser">, site: Pick<DiscountSite, "welcomeDiscountHours">, now: Date): Discount | null {
  if (member.paidUser || site.welcomeDiscountHours <= 0) return null;
  const ends = member.signupDate.getTime() + site.welcomeDiscountHours * 3_600_000;
  if (now.getTime() >= ends) return null;
  return builtin("welcome", welcomeDiscount.code, welcomeDiscount.percentage, new Date(ends));
}

/** docs/product.md §4: "The active discount is the time bonus if present, otherwise the welcome discount code." */
export function automaticDiscount(member: Pick<DiscountMember, "signupDate" | "paidUser">, site: Pick<DiscountSite, "welcomeDiscountHours">, now: Date): Discount | null {
  return timeBonusOf(member, now) ?? welcomeDiscountOf(member, site, now);
}

function builtin(kind: "timebonus" | "welcome", code: string, percentage: number, expires: Date): Discount {
  return { kind, code, value_percentage: percentage, expires: expires.toISOString(), minimum_order_value: 0, currency: null, country: null, discountCodeId: null, validity: "once_per_user", paymentMethods: null };
}

export function toActiveDiscount(d: Discount): ActiveDiscount {
  return { kind: d.kind, code: d.code, value_percentage: d.value_percentage, expires: d.expires, minimum_order_value: d.minimum_order_value, currency: d.currency, country: d.country };
}

export type CodeLookup = { discount: Discount } | { refusal: DiscountRefusal };

/**
 * The code a member typed, before any order: unknown, expired and used-up codes are refused here.
 * TIMEBONUS25 and WELCOME25 are found only while the member qualifies for them.
 */
export async function lookUpCode(db: Q, site: DiscountSite, member: DiscountMember, code: string, now: Date): Promise<CodeLookup> {
  if (code === timeBonus.code || code === welcomeDiscount.code) {
    const rule = code === timeBonus.code ? timeBonusOf(member, now) : welcomeDiscountOf(member, site, now);
    if (rule) return held(db, member, rule);
    // Known to every member who signed up here; gone once paid or over.
    return { refusal: { reason: member.paidUser ? "used" : "expired", code } };
  }
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.code, code), eq(discountCodes.active, true), or(eq(discountCodes.siteId, site.id), isNull(discountCodes.siteId))))
    .orderBy(sql`${discountCodes.siteId} is null`)
    .limit(1);
  if (!row) return { refusal: { reason: "not_found", code } };
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return { refusal: { reason: "expired", code } };
  if (row.validity === "uses" && row.maxUses !== null && row.usedCount >= row.maxUses) return { refusal: { reason: "used", code } };
  const discount: Discount = {
    kind: "code",
    code: row.code,
    value_percentage: row.percentage,
    expires: row.expiresAt?.toISOString() ?? null,
    minimum_order_value: row.minimumOrderValue,
    currency: row.currency,
    country: row.country,
    discountCodeId: row.id,
    validity: row.validity,
    paymentMethods: row.paymentMethods,
  };
  return row.validity === "once_per_user" ? held(db, member, discount) : { discount };
}

/** A once-per-member discount the member already used (a paid payment) or holds (a running one) is refused. */
async function held(db: Q, member: DiscountMember, discount: Discount): Promise<CodeLookup> {
  const [use] = await db
    .select({ status: discountUses.status })
    .from(discountUses)
    .where(and(eq(discountUses.code, discount.code), eq(discountUses.onceKey, member.userId)))
    .limit(1);
  if (!use) return { discount };
  return { refusal: { reason: use.status === "used" ? "used" : "reserved", code: discount.code } };
}

/** Whether a discount applies to an order: its country, currency, minimum order and methods. */
export function refusalFor(discount: Discount, order: Order): DiscountRefusal | null {
  const code = discount.code;
  if (discount.country && discount.country !== order.country) return { reason: "country", code, country: discount.country };
  if (discount.currency && discount.currency !== order.currency) return { reason: "currency", code, currency: discount.currency };
  if (order.amount < discount.minimum_order_value) return { reason: "minimum_order", code, minimum_order_value: discount.minimum_order_value, currency: discount.currency ?? order.currency };
  if (order.method && discount.paymentMethods && !discount.paymentMethods.includes(order.method)) return { reason: "method", code, method: order.method };
  return null;
}

/** The price of an order with a discount (minor units). */
export function priceWith(discount: Pick<Discount, "value_percentage">, amount: number): number {
  return discounted(amount, discount.value_percentage);
}

/**
 * Holds a discount for a payment just inserted in `tx`: false when another payment holds or used it
 * (the caller rolls the payment back and refuses). Concurrent holds of one code: the unique index
 * (once per member) or the conditional update (a number of uses) lets exactly the allowed number through.
 */
export async function holdDiscount(tx: Tx, discount: Discount, input: { userId: number; paymentId: number }, now: Date): Promise<boolean> {
  if (discount.validity === "uses" && discount.discountCodeId !== null) {
    const [taken] = await tx
      .update(discountCodes)
      .set({ usedCount: sql`${discountCodes.usedCount} + 1` })
      .where(and(eq(discountCodes.id, discount.discountCodeId), sql`(${discountCodes.maxUses} is null or ${discountCodes.usedCount} < ${discountCodes.maxUses})`))
      .returning({ id: discountCodes.id });
    if (!taken) return false;
  }
  const [inserted] = await tx
    .insert(discountUses)
    .values({
      code: discount.code,
      discountCodeId: discount.discountCodeId,
      userId: input.userId,
      paymentId: input.paymentId,
      onceKey: discount.validity === "once_per_user" ? input.userId : null,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: discountUses.id });
  return inserted !== undefined;
}

/** A payment paid: its hold becomes a use (in the transaction that credits it). */
export async function useHeldDiscount(tx: Tx, paymentId: number, now: Date): Promise<void> {
  await tx.update(discountUses).set({ status: "used", usedAt: now }).where(and(eq(discountUses.paymentId, paymentId), eq(discountUses.status, "reserved")));
}

/** A payment ended unpaid (failed, cancelled, expired): its hold is given back, so the code is not used up. */
export async function releaseHeldDiscount(tx: Tx, paymentId: number): Promise<void> {
  const [released] = await tx
    .delete(discountUses)
    .where(and(eq(discountUses.paymentId, paymentId), eq(discountUses.status, "reserved")))
    .returning({ discountCodeId: discountUses.discountCodeId, onceKey: discountUses.onceKey });
  if (released?.discountCodeId != null && released.onceKey === null) {
    await tx
      .update(discountCodes)
      .set({ usedCount: sql`greatest(${discountCodes.usedCount} - 1, 0)` })
      .where(eq(discountCodes.id, released.discountCodeId));
  }
}

type Priced = { amount: number; currency: string; country: string };

/**
 * The prices a member sees (docs/product.md §4: "prices on /credits show it"): the typed code where it applies, else
 * (and with the reason the code was refused) the member's time bonus or welcome discount. `focus` is the
 * one package of a package page: a code that does not apply to it is refused even if it fits others.
 */
export async function priceList<P extends Priced>(
  db: Db,
  site: DiscountSite,
  member: DiscountMember | null,
  packages: P[],
  typed: string | undefined,
  now: Date,
  focus?: P,
): Promise<{ discount: ActiveDiscount | null; discountError: DiscountRefusal | null; packages: (P & { discounted_amount: number | null })[] }> {
  const none = packages.map((p) => ({ ...p, discounted_amount: null }));
  if (!member) return { discount: null, discountError: null, packages: none };
  const apply = (discount: Discount) => packages.map((p) => ({ ...p, discounted_amount: refusalFor(discount, p) ? null : priceWith(discount, p.amount) }));
  let discountError: DiscountRefusal | null = null;
  if (typed) {
    const found = await lookUpCode(db, site, member, typed, now);
    if ("refusal" in found) discountError = found.refusal;
    else {
      const fits = (focus ? [focus] : packages).map((p) => refusalFor(found.discount, p));
      if (fits.some((r) => r === null)) return { discount: toActiveDiscount(found.discount), discountError: null, packages: apply(found.discount) };
      discountError = fits.find((r) => r !== null) ?? { reason: "not_found", code: typed };
    }
  }
  for (const rule of [timeBonusOf(member, now), welcomeDiscountOf(member, site, now)]) {
    if (!rule) continue;
    const found = await lookUpCode(db, site, member, rule.code, now);
    if ("discount" in found) return { discount: toActiveDiscount(found.discount), discountError, packages: apply(found.discount) };
  }
  return { discount: null, discountError, packages: none };
}

/** English texts of the refusals (web shows its translations; docs/product.md §5 'Code not found', 'Code already used'). */
export function refusalMessage(refusal: DiscountRefusal): string {
  switch (refusal.reason) {
    case "not_found":
      return "Code not found";
    case "used":
      return "Code already used";
    case "reserved":
      return "This code is held by a payment you started and have not finished. Finish or cancel that payment first.";
    case "expired":
      return "This code has expired.";
    case "minimum_order":
      return `This code is for orders of ${refusal.minimum_order_value} ${refusal.currency} (minor units) or more.`;
    case "country":
      return `This code is only valid for payments from ${refusal.country}.`;
    case "currency":
      return `This code is only valid for payments in ${refusal.currency}.`;
    case "method":
      return `This code is not valid for this payment method.`;
  }
}
