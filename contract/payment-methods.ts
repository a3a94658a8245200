/*
 * The payment constants the browser needs too (names, states). No zod here, so a page that shows a
 * method's name does not ship the schemas (contract/payments.ts re-exports all of it).
 */

/** docs/product.md §3 Payment: the payment methods, by the ids given there. */
export const paymentMethodIds = ["sdd", "sct", "blik", "prezelewy24", "giropay", "cards", "ideal", "bancontact", "applepay", "paysafecard", "paypal", "sofort", "eps"] as const;
export type PaymentMethodId = (typeof paymentMethodIds)[number];

/** The names payers know the methods by (brand names, the same in every language). */
export const paymentMethodNames: Record<PaymentMethodId, string> = {
  sdd: "SEPA Direct Debit",
  sct: "SEPA bank transfer",
  blik: "BLIK",
  prezelewy24: "Przelewy24",
  giropay: "giropay",
  cards: "Credit card",
  ideal: "iDEAL",
  bancontact: "Bancontact",
  applepay: "Apple Pay",
  paysafecard: "paysafecard",
  paypal: "PayPal",
  sofort: "Sofort",
  eps: "eps",
};

/**
 * docs/product.md §4 Payment states: pending ("processing") until the provider's notification makes it final.
 * paid may later become refunded (operator CLI).
 */
export const paymentStatuses = ["pending", "paid", "failed", "cancelled", "expired", "refunded"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
export const finalFailures: readonly PaymentStatus[] = ["failed", "cancelled", "expired"];

/** The sandbox checkout's outcomes and test cards. */
export const sandboxOutcomes = ["paid", "failed", "cancelled", "pending", "expired"] as const;
export const sandboxCards = ["ok", "declines_later"] as const;

/** The sandbox bank's answers to a pending direct debit: collected (paid), refused (failed) or returned (bounced). */
export const sandboxDebitOutcomes = ["paid", "failed", "bounced"] as const;

/** docs/product.md §3 Payment transaction costs of a method on a site: a fixed part in minor units and a percentage of the price. */
export type TransactionCosts = { fixed: number; percent: number };

/** The transaction costs (minor units) a payment of `price` (minor units, after any discount) adds; none when the site sets none. */
export function transactionCostsFor(costs: TransactionCosts | null | undefined, price: number): number {
  if (!costs) return 0;
  return costs.fixed + Math.round((price * costs.percent) / 100);
}
