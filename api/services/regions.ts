import { State } from "country-state-city";

type Region = { code: string; name: string };

/** Region lists by country: the data in country-state-city never changes while the api runs, so each list is built once. */
const byCountry = new Map<string, readonly Region[]>();

/** Regions (provinces, states, cantons...) of a country, by name, from the data in country-state-city. */
export function regionsOf(country: string): readonly Region[] {
  let regions = byCountry.get(country);
  if (!regions) {
    regions = Object.freeze(
      State.getStatesOfCountry(country)
        .map((s) => ({ code: s.isoCode, name: s.name }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
    // Keys are validated ISO codes (RegionsQuery): at most a few hundred lists.
    byCountry.set(country, regions);
  }
  return regions;
}
