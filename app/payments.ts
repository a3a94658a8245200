/** Money in integer minor units, shown in the reader's locale (presentation only: amounts come from the api). */
export function formatMoney(amountMinor: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountMinor / 10 ** digits);
}

/** The price of one credit (minor units, may have a fraction), to three significant decimals at most. */
export function formatPerCredit(perCreditMinor: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency, maximumFractionDigits: 3 });
  return format.format(perCreditMinor / 100);
}

export function methodLogo(method: string): string {
  return `/payment-methods/${method}.svg`;
}
