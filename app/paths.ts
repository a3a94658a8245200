import { defaultLocale, isLocale, type Locale } from "#contract/locales";

/** English has no prefix; every other locale has `/<code>` in front of the path. */
export function localizePath(locale: Locale, path: string): string {
  const clean = path.startsWith("/") ? path : `/${path}`;
  if (locale === defaultLocale) return clean;
  return clean === "/" ? `/${locale}` : `/${locale}${clean}`;
}

/** The path without its locale prefix, and the prefix's locale (null when there is none). */
export function splitLocale(pathname: string): { locale: Locale | null; path: string } {
  const match = /^\/([a-z]{2})(\/.*)?$/.exec(pathname);
  if (match && isLocale(match[1]) && match[1] !== defaultLocale) return { locale: match[1], path: match[2] ?? "/" };
  return { locale: null, path: pathname || "/" };
}

/** Only same-site relative paths are followed after login or a language switch. */
export function safeRedirectPath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return fallback;
  return value;
}
