import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import {  type Region as RegionSchema } from "#contract/settings";
import { apiFor } from "~/utils/api.server";
import { endpoints } from "#contract/endpoints/index";

/**
 * Region lists by country code, kept for a day: they come from a fixed data set in the api (regions.php
 * answers them with max-age=86400), so a page with a region asks the api once per country, not per
 * request. Keys are two-letter codes (RegionsQuery), so the map stays small. A failed answer is not kept.
 */
type Region = z.infer<typeof RegionSchema>;

const keepMs = 24 * 60 * 60 * 1000;
const maxCountries = 300;
const cache = new Map<string, { until: number; regions: Promise<Region[] | null> }>();

/** The regions of `country`, or null when the api could not answer them (the page shows none). */
export function getRegions(request: Request, context: AppLoadContext, country: string): Promise<Region[] | null> {
  const key = country.toUpperCase();
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.regions;
  const regions = apiFor(request, context)
    .call(endpoints.regions, { query: { country: key } })
    .then((result) => (result.ok ? result.data.regions : null));
  if (!/^[A-Z]{2}$/.test(key)) return regions;
  const entry = { until: Date.now() + keepMs, regions };
  if (!hit && cache.size >= maxCountries) cache.delete(cache.keys().next().value!);
  cache.set(key, entry);
  regions.then(
    (value) => {
      if (value === null && cache.get(key) === entry) cache.delete(key);
    },
    () => {
      if (cache.get(key) === entry) cache.delete(key);
    },
  );
  return regions;
}
