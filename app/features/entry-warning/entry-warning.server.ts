import { parse, serialize } from "cookie";
import type { Settings } from "#contract/settings";

export const entryWarningCookieName = "site_entry_skipped";
const maxAgeSeconds = 365 * 24 * 60 * 60;

/** docs/product.md §2: closing the site-entry warning stores a skipped timestamp. */
export function entryWarningSkippedCookie(now = new Date()): string {
  return serialize(entryWarningCookieName, now.toISOString(), { path: "/", maxAge: maxAgeSeconds, sameSite: "lax" });
}

/**
 * Whether the site-entry warning may show at all for this visitor (docs/product.md §2): the site enables it,
 * the visitor is logged out, has not skipped it, and is not known to be outside the site's
 * countries. Which layouts and pages show it is decided where the layout is known.
 */
export function entryWarningEligible(request: Request, settings: Pick<Settings, "enable_site_entry_popup" | "countries" | "geoip_country">, loggedIn: boolean): boolean {
  if (!settings.enable_site_entry_popup || loggedIn) return false;
  if (parse(request.headers.get("Cookie") ?? "")[entryWarningCookieName]) return false;
  const country = settings.geoip_country;
  return !country || settings.countries.length === 0 || settings.countries.includes(country);
}
