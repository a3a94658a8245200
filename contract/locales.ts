/** Plain constants, no zod: this module reaches the browser on every page. */
export const locales = ["en", "nl", "de", "it", "fr", "es", "pl", "da", "fi", "nb", "sv"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en";

/** docs/product.md §3 Locale gifLocale: the locale a GIF search asks the provider for (Tenor's language_COUNTRY). */
export const gifLocales: Record<Locale, string> = {
  en: "en_US",
  nl: "nl_NL",
  de: "de_DE",
  it: "it_IT",
  fr: "fr_FR",
  es: "es_ES",
  pl: "pl_PL",
  da: "da_DK",
  fi: "fi_FI",
  nb: "nb_NO",
  sv: "sv_SE",
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}

/** docs/product.md §9: the locales offered to a visitor from each country. */
const visibleByCountry: Record<string, readonly Locale[]> = {
  US: ["en", "es"],
  NL: ["nl"],
  BE: ["nl", "fr", "de"],
  FR: ["fr"],
  IT: ["it"],
  ES: ["es"],
  DE: ["de"],
  AT: ["de"],
  IE: ["en"],
  GB: ["en"],
  CA: ["en", "fr"],
  PL: ["pl"],
  AU: ["en"],
  NZ: ["en"],
  CH: ["de", "it", "fr", "en"],
  DK: ["da"],
  FI: ["fi", "sv"],
  NO: ["nb"],
  SE: ["sv"],
};

/** The countries the product serves (docs/product.md §9), in the table's order: a site's countries come from these. */
export const siteCountries = Object.keys(visibleByCountry) as [string, ...string[]];

/** All 11 when the country is unknown or not in the table. */
export function visibleLocales(country: string | null | undefined): readonly Locale[] {
  if (!country) return locales;
  return visibleByCountry[country.toUpperCase()] ?? locales;
}
