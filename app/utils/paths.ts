import { defaultLocale, isLocale, type Locale } from "#contract/locales";

/** English has no prefix; every other locale has `/<code>` in front of the path. */
export function localizePath(locale: Locale, path: string): string {
  const clean = path.startsWith("/") ? path : `/${path}`;
  if (locale === defaultLocale) return clean;
  return clean === "/" ? `/${locale}` : `/${locale}${clean}`;
}

/**
 * The path as the routes see it: without the locale prefix, which is the basename of the page's request handler
 * (server/locale-handlers.ts). Loaders and actions read `request.url` with the prefix; a path they hand on to a
 * redirect or a `redirectTo` is without it, and Remix puts the basename back in front.
 */
export function routePath(url: URL): string {
  return splitLocale(url.pathname).path + url.search;
}

/** The path without its locale prefix, and the prefix's locale (null when there is none). */
export function splitLocale(pathname: string): { locale: Locale | null; path: string } {
  const match = /^\/([a-z]{2})(\/.*)?$/.exec(pathname);
  if (match && isLocale(match[1]) && match[1] !== defaultLocale) return { locale: match[1], path: match[2] ?? "/" };
  return { locale: null, path: pathname || "/" };
}

/**
 * The staff side (docs/staff.md) is in English and has one address: /staff/..., never under a language prefix. Its
 * cookie is scoped to that path (and to /staff.data, the dashboard's data URL).
 */
export function isStaffPath(path: string): boolean {
  return /^\/staff(\/|\.data$|$)/.test(path);
}

const redirectBase = "http://rendezvous.invalid";
const maxRedirectLength = 2048;

/**
 * A path the browser reads as one on this site, and so would a server that decodes it once more:
 * one `/` then anything but `/` or `\`, no control characters, no backslashes, valid percent-encoding.
 */
function isSitePath(text: string): boolean {
  if (text.length === 0 || text.length > maxRedirectLength) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return false;
  }
  return [text, decoded].every((candidate) => /^\/(?![/\\])/.test(candidate) && !/[\u0000-\u001f\u007f\\]/.test(candidate));
}

/**
 * The one gate for every path a request asks to be sent to (redirectTo after login, a language
 * switch, a dismissal, a block...): only a path on this site, as the browser itself would read it.
 * Control characters (a tab the browser would strip, CR, LF, NUL), backslashes (read as slashes),
 * `//` (another host) and their percent-encoded forms give the fallback, never an error. The check
 * holds for the path as given and for the path returned, after dot segments are resolved
 * (`/.//evil.example/` resolves to `//evil.example/`): what is returned is what was checked.
 */
export function safeRedirectPath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || !isSitePath(value)) return fallback;
  const url = new URL(value, redirectBase);
  const path = `${url.pathname}${url.search}${url.hash}`;
  return url.origin === redirectBase && isSitePath(path) ? path : fallback;
}
