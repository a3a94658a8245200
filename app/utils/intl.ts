/*
 * Intl formatters, made once per locale and options and then shared. Making one costs 20-80 µs (a DateTimeFormat
 * the most), formatting with it 1-2 µs: a chat list made a RelativeTimeFormat for every conversation on every render.
 * The keys are the app's locales and the options written in its code, so the cache stays small; past `maxFormatters`
 * it starts again rather than grow.
 */
const maxFormatters = 500;
const formatters = new Map<string, unknown>();

function shared<T>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (formatter === undefined) {
    if (formatters.size >= maxFormatters) formatters.clear();
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Country names (ISO 3166 codes) in `locale`. */
export function regionNames(locale: string): Intl.DisplayNames {
  return shared(`region|${locale}`, () => new Intl.DisplayNames([locale], { type: "region" }));
}

/** A select's option. */
export type CountryOption = { value: string; label: string };

/**
 * Countries (ISO 3166 codes) as a select's options, named in `locale` and in that language's alphabetical order; made
 * once per locale and list (a site's list rarely changes). Sorting with localeCompare(…, locale) made a collator per
 * comparison: about 0.05 ms of every /members page.
 */
export function countryOptions(locale: string, codes: readonly string[]): readonly CountryOption[] {
  return shared(`countries|${locale}|${codes.join()}`, () => {
    const names = regionNames(locale);
    const order = new Intl.Collator(locale);
    return Object.freeze(codes.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) => order.compare(a.label, b.label)));
  });
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return shared(`date|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return shared(`number|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

export function relativeTimeFormat(locale: string, options: Intl.RelativeTimeFormatOptions): Intl.RelativeTimeFormat {
  return shared(`relative|${locale}|${JSON.stringify(options)}`, () => new Intl.RelativeTimeFormat(locale, options));
}
