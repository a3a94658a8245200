/*
 * What a country calls its regions (docs/product.md §9: province, state, canton, ...): plain constants, no zod,
 * so that the pages with a region field (/profile, /signup/3, the search on /members) can import it. The label
 * of each kind is `regionKind.<kind>` in the `profile` namespace, in every language.
 *
 * A kind is what the country's own people call the divisions its region list holds (api/services/regions.ts),
 * and it differs where a language names them differently: a German calls a US state "Bundesstaat" but a German
 * one "Bundesland", and a Swede calls Norway's counties "fylken" and Sweden's own "län", although English has
 * "State" and "County" for both.
 */
export const regionKinds = ["state", "land", "province", "canton", "county", "fylke", "lan", "voivodeship", "autonomousCommunity", "maakunta", "region"] as const;
export type RegionKind = (typeof regionKinds)[number];

/** The region kind of each country whose list is curated (the sites' countries); any other country has "region". */
export const regionKindByCountry: Readonly<Partial<Record<string, RegionKind>>> = {
  // States of a federation: the US (and its inhabited territories) and Australia (states and territories).
  US: "state",
  AU: "state",
  // Germany's and Austria's Bundesländer.
  DE: "land",
  AT: "land",
  // Provinces; Belgium's list also holds the Brussels-Capital Region, Canada's the three territories.
  NL: "province",
  BE: "province",
  CA: "province",
  CH: "canton",
  // Counties: Britain's counties and unitary authorities, Ireland's 26 counties, Norway's fylker, Sweden's län.
  GB: "county",
  IE: "county",
  NO: "fylke",
  SE: "lan",
  PL: "voivodeship",
  // Spain's comunidades autónomas (and the autonomous cities Ceuta and Melilla).
  ES: "autonomousCommunity",
  // Finland's maakunnat (landskap in Swedish).
  FI: "maakunta",
  // Regions: France's régions, Italy's regioni, Denmark's regioner, New Zealand's regions.
  FR: "region",
  IT: "region",
  DK: "region",
  NZ: "region",
};

/** The kind of region of `country` (an ISO 3166 alpha-2 code, any case). */
export function regionKindOf(country: string | null | undefined): RegionKind {
  return regionKindByCountry[(country ?? "").toUpperCase()] ?? "region";
}

/** The `profile` namespace key of the label of `country`'s region field. */
export function regionLabelKey(country: string | null | undefined): `regionKind.${RegionKind}` {
  return `regionKind.${regionKindOf(country)}`;
}
