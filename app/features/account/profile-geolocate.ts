import { browserPaths } from "#contract/endpoints/paths";
import type { TFunction } from "i18next";
import { GeocodeResponse } from "#contract/profile";
import { watchSession } from "~/features/account/auth-lost";
import { regionNames } from "~/utils/intl";

/** docs/product.md §9: a position up to an hour old is good enough. */
const geolocationMaxAgeMs = 60 * 60 * 1000;
const geolocationTimeoutMs = 20_000;

export type Located = { found: true; country: string; region: string | null; city: string } | { found: false; message: string };

function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    if (!("geolocation" in navigator)) return reject(new Error("unsupported"));
    navigator.geolocation.getCurrentPosition(resolve, reject, { maximumAge: geolocationMaxAgeMs, timeout: geolocationTimeoutMs });
  });
}

/**
 * "Use my location" on /profile (app/features/account/profile-location.tsx): the browser's position, then its country,
 * region and city (GET /api/geocode.php), or what went wrong in the member's words. Loaded on the button's first press.
 */
export async function locateMember(offered: readonly string[], locale: string, t: TFunction): Promise<Located> {
  try {
    const position = await currentPosition().catch((error: unknown) => {
      const denied = typeof error === "object" && error !== null && "code" in error && error.code === 1;
      throw new Error(denied ? "denied" : "failed");
    });
    const query = new URLSearchParams({ lat: position.coords.latitude.toFixed(5), lon: position.coords.longitude.toFixed(5) });
    const response = watchSession(await fetch(`${browserPaths.geocode}?${query}`, { headers: { Accept: "application/json" } }));
    const parsed = response.ok ? GeocodeResponse.safeParse(await response.json()) : null;
    const found = parsed?.success ? parsed.data.result : false;
    if (!found) throw new Error("failed");
    if (!offered.includes(found.country)) {
      const name = regionNames(locale).of(found.country) ?? found.country;
      return { found: false, message: t("location.notOffered", { country: name }) };
    }
    return { found: true, country: found.country, region: found.region ?? null, city: found.city ?? "" };
  } catch (error) {
    return { found: false, message: t(error instanceof Error && error.message === "denied" ? "location.denied" : "location.failed") };
  }
}
