import { parse, serialize } from "cookie";
import { Lander, Tracking, trackingKeys } from "#contract/account";

export const trackingCookieName = "rdv_tracking";
const maxAgeSeconds = 30 * 24 * 60 * 60; // kept 30 days

/** The tracking values (network, ref, sub1-sub3) kept from the visitor's entry URL, or null. */
export function keptTracking(request: Request): Tracking | null {
  const raw = parse(request.headers.get("Cookie") ?? "")[trackingCookieName];
  if (!raw) return null;
  try {
    const parsed = Tracking.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The valid tracking values of this URL's query, or null when it carries none (or bad ones). */
function urlTracking(request: Request): Tracking | null {
  const query = new URL(request.url).searchParams;
  const seen: Record<string, string> = {};
  for (const key of trackingKeys) {
    const value = query.get(key);
    if (value) seen[key] = value;
  }
  if (Object.keys(seen).length === 0) return null;
  const parsed = Tracking.safeParse(seen);
  return parsed.success ? parsed.data : null;
}

/**
 * The tracking values of this URL when they are new to the visitor (no kept values, or other ones): an
 * entry through a funnel, counted once; reloads and later pages are not.
 */
export function newTracking(request: Request): Tracking | null {
  const fromUrl = urlTracking(request);
  if (!fromUrl) return null;
  const kept = keptTracking(request);
  const same = kept !== null && trackingKeys.every((k) => (kept[k] ?? "") === (fromUrl[k] ?? ""));
  return same ? null : fromUrl;
}

/**
 * A Set-Cookie keeping the tracking values of this URL, when it carries any. A new entry URL with
 * tracking replaces the kept values as a whole: the last funnel that brought the visitor counts.
 */
export function trackingCookieFor(request: Request): string | null {
  const fromUrl = urlTracking(request);
  return fromUrl ? serialize(trackingCookieName, JSON.stringify(fromUrl), { path: "/", maxAge: maxAgeSeconds, sameSite: "lax", httpOnly: true }) : null;
}

export const landerCookieName = "rdv_lander";

/**
 * The landing or lander page a path is, as the analytics name it ("landers/tinderswipe", "members/landing2"), or null:
 * the lander designs of /landers/{design}/{slug?} and the member funnel pages of /members/{id}/{page}/{slug?}.
 */
export function landerOfPath(path: string): string | null {
  const lander = /^\/landers\/([a-z0-9]{1,30})(?:\/[^/]*)?\/?$/.exec(path);
  if (lander) return `landers/${lander[1]}`;
  const funnel = /^\/members\/\d+\/(landing|landing2|landing3|signup)(?:\/[^/]*)?\/?$/.exec(path);
  return funnel ? `members/${funnel[1]}` : null;
}

/** The lander the visitor last entered by (cookie rdv_lander, 30 days; no personal data), or null. */
export function keptLander(request: Request): string | null {
  const raw = parse(request.headers.get("Cookie") ?? "")[landerCookieName];
  return raw && Lander.safeParse(raw).success ? raw : null;
}

/** A Set-Cookie keeping the lander this visitor entered by: the last lander counts, as the last funnel does. */
export function landerCookie(lander: string): string {
  return serialize(landerCookieName, lander, { path: "/", maxAge: maxAgeSeconds, sameSite: "lax", httpOnly: true });
}
