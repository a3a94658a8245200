import { redirect } from "@remix-run/node";
import { parse, serialize } from "cookie";
import { defaultLocale, isLocale, type Locale } from "#contract/locales";
import type { Settings } from "#contract/settings";
import { isStaffPath, localizePath, splitLocale } from "./paths";

export const localeCookieName = "i18n_redirected";
const localeCookieMaxAge = 365 * 24 * 60 * 60; // docs/product.md §1: kept 365 days

export function localeCookie(locale: Locale): string {
  return serialize(localeCookieName, locale, { path: "/", maxAge: localeCookieMaxAge, sameSite: "lax" });
}

export function cookieLocale(request: Request): Locale | null {
  const value = parse(request.headers.get("Cookie") ?? "")[localeCookieName];
  return isLocale(value) ? value : null;
}

/** The language for a request whose URL has no prefix: the kept choice, else the site's language, else English. */
export function preferredLocale(request: Request, settings: Pick<Settings, "domain_language"> | null): Locale {
  const kept = cookieLocale(request);
  if (kept) return kept;
  const fromDomain = settings?.domain_language?.slice(0, 2).toLowerCase();
  return isLocale(fromDomain) ? fromDomain : defaultLocale;
}

/**
 * The locale of this request. The URL decides; an unprefixed URL whose visitor prefers another
 * language is redirected to that language's URL, so every page has one address per language.
 */
export function resolveLocale(request: Request, settings: Settings): Locale {
  const url = new URL(request.url);
  const { locale: prefixed, path } = splitLocale(url.pathname);
  if (prefixed) return prefixed;
  if (url.pathname === "/en" || url.pathname.startsWith("/en/")) {
    throw redirect(url.pathname.slice(3) + url.search || "/");
  }
  // The staff pages are in English, at one address (app/utils/paths.ts isStaffPath).
  if (isStaffPath(path)) return defaultLocale;
  const preferred = preferredLocale(request, settings);
  if (preferred !== defaultLocale && request.method === "GET") {
    throw redirect(localizePath(preferred, path) + url.search);
  }
  return preferred;
}

/** The locale named by the URL alone, for pages rendered when the api could not be asked. */
export function urlLocale(request: Request): Locale {
  return splitLocale(new URL(request.url).pathname).locale ?? cookieLocale(request) ?? defaultLocale;
}
