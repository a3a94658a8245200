/** vite.config.ts (ADR 005): each locale's content-hashed translation file for the browser. */
declare module "virtual:i18n-assets" {
  import type { Locale } from "#contract/locales";
  export const translationUrls: Record<Locale, string>;
}
