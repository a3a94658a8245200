import { defaultLocale, locales } from "#contract/locales";

/** i18next options both sides share. Only the client namespaces reach the browser; the rest is rendered on the server. */
export const i18nConfig = {
  supportedLngs: [...locales],
  fallbackLng: defaultLocale,
  defaultNS: "common",
  ns: ["common", "account"],
  interpolation: { escapeValue: false },
} as const;

/** `account` holds the account forms' validation messages, which the browser shows while typing. */
export const clientNamespaces = ["common", "account"] as const;
