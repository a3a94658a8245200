import type { TFunction } from "i18next";
import { paymentMethodNames, type PaymentMethodId } from "#contract/payment-methods";
import { secondsLeft, type DiscountKind, type DiscountRefusalReason } from "#contract/offers";
import { formatMoney } from "./money";
import { numberFormat, regionNames } from "~/utils/intl";

/** What the pages know of a member's offer (contract ActiveDiscount, without zod). */
export type Offer = { kind: DiscountKind; code: string; value_percentage: number; expires: string | null };
export type Refusal = { reason: DiscountRefusalReason; code: string; minimum_order_value?: number; currency?: string; country?: string; method?: PaymentMethodId };

/**
 * docs/product.md §4: the time bonus modal is for a logged-in member who never paid, has 0 credits, whose time bonus
 * still runs and who has not dismissed it (hide-time-bonus-modal). When it opens is the browser's part
 * (40 s after entering the members area).
 */
export function timeBonusModalEligible(user: { credits: number; paidUser: boolean } | null, offer: Offer | null | undefined, dismissed: boolean, nowMs: number): boolean {
  if (!user || user.paidUser || user.credits !== 0 || dismissed) return false;
  if (offer?.kind !== "timebonus" || offer.expires === null) return false;
  return secondsLeft(offer.expires, nowMs) > 0;
}

/** The message for a refused code, in the reader's language (docs/product.md §5 'Code not found', 'Code already used'). */
export function refusalText(t: TFunction, refusal: Refusal, locale: string): string {
  const key = `discount.refused.${refusal.reason}`;
  switch (refusal.reason) {
    case "minimum_order":
      return t(key, { amount: formatMoney(refusal.minimum_order_value ?? 0, refusal.currency ?? "EUR", locale) });
    case "country":
      return t(key, { country: refusal.country ? (regionNames(locale).of(refusal.country) ?? refusal.country) : "" });
    case "currency":
      return t(key, { currency: refusal.currency ?? "" });
    case "method":
      return t(key, { method: refusal.method ? paymentMethodNames[refusal.method] : "" });
    default:
      return t(key);
  }
}

/** "4 hours" in the reader's language (docs/product.md §9: the modal's time left value), without plural keys. */
export function formatHours(hours: number, locale: string): string {
  return numberFormat(locale, { style: "unit", unit: "hour", unitDisplay: "long" }).format(hours);
}
