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

const redirectBase = "http://rendezvous.invalid";

/**
 * The one gate for every path a request asks to be sent to (redirectTo after login, a language
 * switch, a dismissal, a block...): only a path on this site, as the browser itself would read it.
 * Control characters (a tab the browser would strip, CR, LF, NUL), backslashes (read as slashes),
 * `//` (another host) and their percent-encoded forms give the fallback, never an error.
 */
export function safeRedirectPath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return fallback;
  }
  for (const candidate of [value, decoded]) {
    if (/[\u0000-\u001f\u007f\\]/.test(candidate) || !candidate.startsWith("/") || candidate.startsWith("//")) return fallback;
  }
  const url = new URL(value, redirectBase);
  if (url.origin !== redirectBase) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
