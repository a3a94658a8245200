import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { creditPackages } from "../../db/schema";
import { paymentMethodNames, type CreditPackage, type PaymentMethod, type PaymentMethodId } from "#contract/payments";
import type { TransactionCosts } from "#contract/payment-methods";
import type { Site } from "../sites";

/** The currency a country pays in; countries without their own (CA, AU, NZ) pay in USD. */
const currencyOfCountry: Record<string, string> = { GB: "GBP", US: "USD", PL: "PLN", DK: "DKK", SE: "SEK", NO: "NOK", CH: "CHF" };
export const euroCountries = ["NL", "BE", "DE", "AT", "IE", "FR", "IT", "ES", "FI", "PT", "LU", "GR", "SK", "SI", "EE", "LV", "LT", "MT", "CY", "HR"];

export function currencyOf(country: string): string {
  if (euroCountries.includes(country)) return "EUR";
  return currencyOfCountry[country] ?? "USD";
}

/** Demo prices per currency (minor units) for 60, 150, 400 and 1000 credits. */
const demoPrices: Record<string, [number, number, number, number]> = {
  EUR: [1499, 2999, 6999, 14999],
  GBP: [1299, 2599, 5999, 12999],
  USD: [1599, 3299, 7499, 15999],
  PLN: [6499, 12999, 29999, 64999],
  DKK: [10999, 21999, 51999, 109999],
  SEK: [16999, 33999, 79999, 169999],
  NOK: [16999, 33999, 79999, 169999],
  CHF: [1499, 2999, 6999, 14999],
};
const demoCredits = [60, 150, 400, 1000] as const;
const demoMarks = [null, "most_chosen", null, "best_value"] as const;

/** The demo packages of a site: four per country it serves, in that country's currency. */
export function demoPackages(siteId: number, countries: string[]): (typeof creditPackages.$inferInsert)[] {
  return countries.flatMap((country) => {
    const currency = currencyOf(country);
    const prices = demoPrices[currency] ?? demoPrices.USD!;
    return demoCredits.map((credits, i) => ({ siteId, country, credits, amount: prices[i]!, currency, mark: demoMarks[i], position: i }));
  });
}

/**
 * docs/product.md §3: which methods a payment country is offered, in the order shown (local methods first).
 * sdd and sct are euro payments, so SEPA countries that pay in euro; applepay only where the browser can.
 */
const methodRules: [PaymentMethodId, (country: string) => boolean][] = [
  ["ideal", (c) => c === "NL"],
  ["bancontact", (c) => c === "BE"],
  ["eps", (c) => c === "AT"],
  ["blik", (c) => c === "PL"],
  ["prezelewy24", (c) => c === "PL"],
  ["sofort", (c) => c === "DE" || c === "AT"],
  ["giropay", (c) => c === "DE" || c === "AT"],
  ["cards", () => true],
  ["paypal", () => true],
  ["applepay", () => true],
  ["sdd", (c) => euroCountries.includes(c)],
  ["sct", (c) => euroCountries.includes(c)],
  ["paysafecard", () => true],
];

export function methodsFor(country: string, mandateForm = false, costs: Record<string, TransactionCosts> = {}): PaymentMethod[] {
  return methodRules
    .filter(([, offered]) => offered(country))
    .map(([id]) => ({ id, name: paymentMethodNames[id], needs_browser_support: id === "applepay", mandate_form: mandateForm && id === "sdd", transaction_costs: costs[id] ?? null }));
}

/**
 * A failed payment's other ways to pay now (the result page's retry buttons): the methods of its country that the site
 * routes to a provider (`routed`), without the failed one, direct debit (our own form) and those that need the browser's
 * support (Apple Pay).
 */
export function retryMethodsFor(country: string, failed: string, routed: (method: PaymentMethodId) => boolean): PaymentMethodId[] {
  return methodsFor(country)
    .filter((m) => m.id !== failed && m.id !== "sdd" && !m.needs_browser_support && routed(m.id))
    .map((m) => m.id);
}

export function methodOffered(country: string, method: PaymentMethodId): boolean {
  return methodRules.some(([id, offered]) => id === method && offered(country));
}

export function toCreditPackage(row: typeof creditPackages.$inferSelect): Omit<CreditPackage, "discounted_amount"> {
  return {
    id: row.id,
    country: row.country,
    credits: row.credits,
    amount: row.amount,
    currency: row.currency,
    price_per_credit: pricePerCredit(row.amount, row.credits),
    mark: row.mark ?? null,
  };
}

/**
 * The payment country: the asked one if the site serves it, else the IP's, else the member's profile country (a
 * request from a private or unknown address says nothing about where the member is), else the site's first.
 */
export function paymentCountry(site: Pick<Site, "countries">, asked: string | undefined, ipCountry: string | null, profileCountry: string | null = null): string {
  for (const country of [asked, ipCountry, profileCountry]) if (country && site.countries.includes(country)) return country;
  return site.countries[0] ?? "US";
}

/** The price of one credit in minor units to 2 decimals (a display ratio): of the discounted price when there is one. */
export function pricePerCredit(amount: number, credits: number): number {
  return Math.round((amount * 100) / credits) / 100;
}

export async function packagesFor(db: Db, siteId: number, country: string): Promise<Omit<CreditPackage, "discounted_amount">[]> {
  const rows = await db
    .select()
    .from(creditPackages)
    .where(and(eq(creditPackages.siteId, siteId), eq(creditPackages.country, country), eq(creditPackages.active, true)))
    .orderBy(asc(creditPackages.position), asc(creditPackages.id));
  return rows.map(toCreditPackage);
}
