import { getNearestCity } from "offline-geocode-city";
import { City } from "country-state-city";
import type { GeocodeResult } from "#contract/profile";
import { placeRegion } from "./regions";

/**
 * Farthest a known place of the found country may be from the coordinates. offline-geocode-city looks in
 * the coordinates' S2 cell (~40 km) and its neighbours, and when they are empty it walks cell by cell
 * without a bound: from the open sea it may end on a coast thousands of km away, or overflow the stack.
 */
const maxDistanceKm = 100;

type Place = { name: string; stateCode: string; lat: number; lon: number };
const placesByCountry = new Map<string, Place[]>();

/** The places of country-state-city for one country, with numeric coordinates (parsed once per country). */
function placesOf(country: string): Place[] {
  let places = placesByCountry.get(country);
  if (!places) {
    places = (City.getCitiesOfCountry(country) ?? []).flatMap((c) => {
      const lat = Number(c.latitude);
      const lon = Number(c.longitude);
      return Number.isFinite(lat) && Number.isFinite(lon) ? [{ name: c.name, stateCode: c.stateCode, lat, lon }] : [];
    });
    placesByCountry.set(country, places);
  }
  return places;
}

/** Great-circle distance in km. */
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

function nearestPlace(country: string, lat: number, lon: number): { place: Place; km: number } | null {
  let best: { place: Place; km: number } | null = null;
  for (const place of placesOf(country)) {
    const km = distanceKm(lat, lon, place.lat, place.lon);
    if (!best || km < best.km) best = { place, km };
  }
  return best;
}

function nearestCity(lat: number, lon: number): { cityName: string; countryIso2: string } | null {
  try {
    return getNearestCity(lat, lon) ?? null;
  } catch (error) {
    // The library's unbounded walk away from land ends in a stack overflow: nothing near.
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * GET /api/geocode.php: the country (offline-geocode-city), and the region and city of the nearest place
 * of that country in country-state-city, the data GET /api/regions.php lists regions from: the place's region
 * as the region list holds it (placeRegion), or none where the list holds another level than the data's places
 * (Britain's counties, Ireland's counties, Belgium's provinces). Null when nothing lies within reach of the coordinates.
 */
export function reverseGeocode(lat: number, lon: number): GeocodeResult | null {
  const hit = nearestCity(lat, lon);
  const country = hit?.countryIso2.toUpperCase();
  if (!hit || !country || !/^[A-Z]{2}$/.test(country)) return null;
  const nearest = nearestPlace(country, lat, lon);
  if (!nearest || nearest.km > maxDistanceKm) return null;
  const region = placeRegion(country, nearest.place.stateCode);
  return { country, region, city: placeName(nearest.place.name) || hit.cityName || null };
}

/** A place as a member names it: the data has municipalities ("Gemeente Amsterdam") and districts ("Zürich (Kreis 1)"). */
function placeName(name: string): string {
  return name
    .replace(/^Gemeente\s+/, "")
    .replace(/\s*\([^)]*\)$/, "")
    .trim();
}
