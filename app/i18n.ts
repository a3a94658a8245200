import { defaultLocale, locales } from "#contract/locales";

/** i18next options both sides share. Only `common` reaches the browser; the rest is rendered on the server. */
export const i18nConfig = {
  supportedLngs: [...locales],
  fallbackLng: defaultLocale,
  defaultNS: "common",
  ns: ["common"],
  interpolation: { escapeValue: false },
} as const;

export const clientNamespaces = ["common"] as const;
