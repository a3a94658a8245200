import { defaultLocale, locales } from "#contract/locales";

/** i18next options both sides share. Only the client namespaces reach the browser; the rest is rendered on the server. */
export const i18nConfig = {
  supportedLngs: [...locales],
  fallbackLng: defaultLocale,
  defaultNS: "common",
  ns: ["common", "account", "profile", "photos", "likes", "member", "discovery", "chat", "payments", "offers", "export"],
  interpolation: { escapeValue: false },
} as const;

/**
 * Namespaces the browser gets (one content-hashed file per locale that every page preloads, ADR 005, so
 * client-side navigation never lacks a text):
 * `account` holds the account forms' validation messages, which the browser shows while typing; the
 * member-area namespaces (profile, photos, likes, member, discovery, chat, payments) hold texts of interactive parts.
 */
export const clientNamespaces = ["common", "account", "profile", "photos", "likes", "member", "discovery", "chat", "payments", "offers", "export"] as const;
