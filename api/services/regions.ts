import { State } from "country-state-city";

/** Regions (provinces, states, cantons...) of a country, by name, from the data in country-state-city. */
export function regionsOf(country: string): { code: string; name: string }[] {
  return State.getStatesOfCountry(country)
    .map((s) => ({ code: s.isoCode, name: s.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
