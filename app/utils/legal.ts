import type { Settings } from "#contract/settings";
import { dateTimeFormat, regionNames } from "~/utils/intl";

export const staticPages = ["ban", "cookies", "faq", "privacy", "return-policy", "service", "terms", "2257-compliance-statement"] as const;
export type StaticPage = (typeof staticPages)[number];
export const isStaticPage = (value: unknown): value is StaticPage => typeof value === "string" && (staticPages as readonly string[]).includes(value);

const termsFloor = Date.parse("2023-12-01T12:00:00Z");

/** docs/product.md §9: the terms version date is 2023-12-01T12:00:00Z, or the company's added date if that is later. */
export function termsVersionDate(companyAdded: string): Date {
  const added = Date.parse(companyAdded);
  return new Date(Number.isNaN(added) ? termsFloor : Math.max(termsFloor, added));
}

/** The values the legal texts are filled with, formatted for the page's language. */
export function legalValues(settings: Settings, locale: string): Record<string, string | number> {
  const company = settings.company;
  const countryName = regionNames(locale).of(company.country) ?? company.country;
  return {
    site: settings.name,
    domain: settings.domain,
    company: company.name,
    address: company.address,
    city: company.city,
    country: countryName,
    kvk: company.kvk,
    vat: company.vat_numbers.join(", "),
    supportEmail: settings.support_email,
    supportPhone: settings.support_phone || company.support_phone,
    refundDays: settings.refund_days,
    termsDate: dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(termsVersionDate(company.added)),
    tradenames: company.tradenames.join(", "),
  };
}
