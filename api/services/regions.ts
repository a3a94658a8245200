import { State } from "country-state-city";

export type Region = { code: string; name: string };

/**
 * How the region list of a country differs from the data in country-state-city, which mixes levels (France's
 * régions with its départements, Italy's regioni with its province, Britain's nations with its counties),
 * keeps divisions that no longer exist (Norway's counties before 2020, Northern Ireland's districts before
 * 2015) and lists places where nobody lives (the US Minor Outlying Islands, the French Southern Lands).
 * A list holds one level, the one its country's people name (contract/region-kinds.ts), where people live:
 * inhabited territories of a country stay (Puerto Rico, Bonaire, Réunion, Svalbard).
 *
 * - `only`: the codes kept, where the data mixes levels; `drop`: the codes removed, where most are right
 * - `add`: divisions the data lacks; `rename`: names brought in line with the rest of the list
 * - `places`: codes the data's places (its cities) carry that are not in the list: a finer or older division
 *   of a listed region (its code), or wrong (null). Reverse geocoding and the demo data take a place's region.
 *
 * tests/unit/regions.test.ts checks every code named here against the data.
 */
type Curation = {
  only?: readonly string[];
  drop?: readonly string[];
  add?: readonly Region[];
  rename?: Readonly<Record<string, string>>;
  places?: Readonly<Record<string, string | null>>;
};

export const regionCurations: Readonly<Record<string, Curation>> = {
  // The 50 states, DC and the inhabited territories; not the uninhabited Minor Outlying Islands.
  US: { drop: ["UM", "UM-67", "UM-71", "UM-76", "UM-79", "UM-81", "UM-84", "UM-86", "UM-89", "UM-95"] },
  GB: {
    drop: [
      // The nations and the kingdom itself (a level above the counties), and St Helena and Ascension (overseas territories).
      "ENG", "SCT", "WLS", "NIR", "UKM", "SH-AC", "SH-HL",
      // Northern Ireland's 26 districts, merged into 11 in 2015 (the 11 stay).
      "ANT", "ARD", "ARM", "BLA", "BLY", "BNB", "CKF", "CSR", "CLR", "CKT", "CGV", "DRY", "DOW", "DGN", "FER", "LRN", "LMV",
      "LSB", "MFT", "MYL", "NYM", "NTA", "NDN", "OMH", "STB",
    ],
    // The data files every place in Northern Ireland under North Yorkshire.
    places: { NYK: null },
  },
  // The 26 counties, not the four provinces: the data lacks Leitrim.
  IE: { drop: ["C", "L", "M", "U"], add: [{ code: "LM", name: "Leitrim" }] },
  // The ten provinces and Brussels, not the regions Flanders and Wallonia that hold them.
  BE: { drop: ["VLG", "WAL"] },
  // The 13 régions of the mainland and Corsica, the 5 overseas régions and the inhabited overseas collectivities.
  FR: {
    only: ["ARA", "BFC", "BRE", "CVL", "20R", "GES", "HDF", "IDF", "NOR", "NAQ", "OCC", "PDL", "PAC", "971", "972", "973", "974", "976", "PF", "PM", "BL", "MF", "WF"],
  },
  // The 20 regioni (the data's province are incomplete: Aosta and South Sardinia are missing).
  IT: { only: ["21", "23", "25", "32", "34", "36", "42", "45", "52", "55", "57", "62", "65", "67", "72", "75", "77", "78", "82", "88"] },
  // The 17 comunidades autónomas and the autonomous cities Ceuta and Melilla; the data has only Castile and León's provinces, and files its places under León.
  ES: {
    only: ["AN", "AR", "AS", "PM", "PV", "CN", "CB", "CL", "CM", "CT", "CE", "EX", "GA", "RI", "MD", "ML", "MC", "NC", "VC"],
    places: { LE: "CL", AV: "CL", BU: "CL", P: "CL", SA: "CL", SG: "CL", SO: "CL", VA: "CL", ZA: "CL" },
  },
  // The 19 maakunnat, not the provinces abolished in 2010.
  FI: { drop: ["IS", "OL"] },
  // The 15 fylker of 2024 and Svalbard (not the uninhabited Jan Mayen): Innlandet, Vestland and Agder (2020) replace the counties they merged.
  NO: {
    only: ["01", "02", "03", "06", "07", "08", "11", "15", "18", "19", "20", "50", "21"],
    add: [
      { code: "34", name: "Innlandet" },
      { code: "42", name: "Agder" },
      { code: "46", name: "Vestland" },
    ],
    places: { "04": "34", "05": "34", "10": "42", "12": "46", "14": "46", "16": "50", "17": "50" },
  },
  // The 21 län: the data lacks Jämtland.
  SE: { add: [{ code: "Z", name: "Jämtland County" }], rename: { K: "Blekinge County" } },
};

/** Region lists by country: the data in country-state-city never changes while the api runs, so each list is built once. */
const byCountry = new Map<string, readonly Region[]>();

function buildRegions(country: string): readonly Region[] {
  const curation = regionCurations[country] ?? {};
  const only = curation.only ? new Set(curation.only) : null;
  const drop = new Set(curation.drop ?? []);
  const regions = State.getStatesOfCountry(country)
    .filter((s) => (only ? only.has(s.isoCode) : !drop.has(s.isoCode)))
    .map((s) => ({ code: s.isoCode, name: curation.rename?.[s.isoCode] ?? s.name }))
    .concat(curation.add ?? []);
  return Object.freeze(regions.sort((a, b) => a.name.localeCompare(b.name)));
}

/** Regions (provinces, states, cantons...: contract/region-kinds.ts) of a country where people live, by name. */
export function regionsOf(country: string): readonly Region[] {
  let regions = byCountry.get(country);
  if (!regions) {
    regions = buildRegions(country);
    // Keys are validated ISO codes (RegionsQuery): at most a few hundred lists.
    byCountry.set(country, regions);
  }
  return regions;
}

/** The listed region of a place of the data (a city's `stateCode`), or null when its region is not in the list. */
export function placeRegion(country: string, stateCode: string | null | undefined): string | null {
  if (!stateCode) return null;
  const aliases = regionCurations[country]?.places;
  const code = aliases && stateCode in aliases ? aliases[stateCode] : stateCode;
  return code && regionsOf(country).some((r) => r.code === code) ? code : null;
}
