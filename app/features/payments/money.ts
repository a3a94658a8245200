import { numberFormat } from "~/utils/intl";

/** Money in integer minor units, shown in the reader's locale (presentation only: amounts come from the api). */
export function formatMoney(amountMinor: number, currency: string, locale: string): string {
  const format = numberFormat(locale, { style: "currency", currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountMinor / 10 ** digits);
}

/** The price of one credit (minor units, may have a fraction), to three significant decimals at most. */
export function formatPerCredit(perCreditMinor: number, currency: string, locale: string): string {
  const format = numberFormat(locale, { style: "currency", currency, maximumFractionDigits: 3 });
  return format.format(perCreditMinor / 100);
}

/**
 * The payment methods' logos (app/assets/payment-methods/*.svg) as fingerprinted build assets: served from /assets
 * with `immutable` and a year's lifetime (server/app.ts), so a logo is fetched once and a changed logo gets a new URL.
 * `no-inline` keeps each a file of its own (shared by every page and cached) instead of a data URL in the scripts.
 */
const logos = import.meta.glob<string>("../../assets/payment-methods/*.svg", { query: "?url&no-inline", import: "default", eager: true });

export function methodLogo(method: string): string | undefined {
  return logos[`./assets/payment-methods/${method}.svg`];
}
