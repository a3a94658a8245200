import { readFileSync } from "node:fs";
import path from "node:path";
import { City, State } from "country-state-city";
import { describe, expect, it } from "vitest";
import { locales } from "#contract/locales";
import { regionKindByCountry, regionKindOf, regionKinds, regionLabelKey, type RegionKind } from "#contract/region-kinds";
import { placeRegion, regionCurations, regionsOf } from "../../api/services/regions";

/** What a country calls its regions, and region lists that hold only the regions people live in. */

/** The countries the demo sites serve (api/db/seed.ts), the same as the countries of docs/product.md §9. */
const siteCountries = ["NL", "BE", "DE", "AT", "CH", "GB", "IE", "US", "CA", "FR", "IT", "ES", "PL", "DK", "FI", "NO", "SE", "AU", "NZ"];

function label(lng: string, kind: RegionKind): string | undefined {
  const profile = JSON.parse(readFileSync(path.resolve(__dirname, "../../locales", lng, "profile.json"), "utf8")) as { regionKind?: Record<string, string> };
  return profile.regionKind?.[kind];
}

const codes = (country: string) => regionsOf(country).map((r) => r.code);
const names = (country: string) => regionsOf(country).map((r) => r.name);

describe("region kind by country", () => {
  it("names each site country's regions as its people do", () => {
    const kinds = Object.fromEntries(siteCountries.map((c) => [c, regionKindOf(c)]));
    expect(kinds).toEqual({
      US: "state", AU: "state", DE: "land", AT: "land", NL: "province", BE: "province", CA: "province", CH: "canton",
      GB: "county", IE: "county", NO: "fylke", SE: "lan", PL: "voivodeship", ES: "autonomousCommunity", FI: "maakunta",
      FR: "region", IT: "region", DK: "region", NZ: "region",
    });
    expect(Object.keys(regionKindByCountry).sort()).toEqual([...siteCountries].sort());
  });

  it("reads the code in any case, and calls the regions of any other country (or none) regions", () => {
    expect(regionKindOf("ch")).toBe("canton");
    expect(regionKindOf("JP")).toBe("region");
    expect(regionKindOf("")).toBe("region");
    expect(regionKindOf(null)).toBe("region");
    expect(regionLabelKey("us")).toBe("regionKind.state");
  });

  it("has a label for every kind in every language", () => {
    for (const lng of locales) for (const kind of regionKinds) expect({ lng, kind, label: label(lng, kind) }).toEqual({ lng, kind, label: expect.stringMatching(/\S/) });
  });

  it("says each country's own word in its own language, and another language's word for another country's kind", () => {
    const said = (lng: string, country: string) => label(lng, regionKindOf(country));
    expect([said("en", "US"), said("en", "CH"), said("en", "GB"), said("en", "PL"), said("en", "NL")]).toEqual(["State", "Canton", "County", "Voivodeship", "Province"]);
    expect([said("de", "DE"), said("de", "AT"), said("de", "CH"), said("de", "US"), said("de", "PL")]).toEqual(["Bundesland", "Bundesland", "Kanton", "Bundesstaat", "Woiwodschaft"]);
    expect([said("nl", "NL"), said("nl", "BE"), said("nl", "US"), said("nl", "CH")]).toEqual(["Provincie", "Provincie", "Staat", "Kanton"]);
    expect([said("fr", "FR"), said("fr", "CH"), said("it", "IT"), said("it", "CH"), said("es", "ES")]).toEqual(["Région", "Canton", "Regione", "Cantone", "Comunidad autónoma"]);
    expect([said("pl", "PL"), said("da", "DK"), said("fi", "FI"), said("sv", "FI"), said("nb", "NO"), said("sv", "SE"), said("sv", "NO")]).toEqual([
      "Województwo", "Region", "Maakunta", "Landskap", "Fylke", "Län", "Fylke",
    ]);
  });
});

describe("region lists", () => {
  const states = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO",
    "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
  ];

  it("lists the 50 US states and DC with the inhabited territories, and none of the uninhabited islands", () => {
    expect(states).toHaveLength(50);
    expect(codes("US").sort()).toEqual([...states, "DC", "PR", "GU", "VI", "AS", "MP"].sort());
    expect(codes("US").filter((c) => c.startsWith("UM"))).toEqual([]);
    const islands = ["Baker Island", "Howland Island", "Jarvis Island", "Johnston Atoll", "Kingman Reef", "Midway Atoll", "Navassa Island", "Palmyra Atoll", "Wake Island", "United States Minor Outlying Islands"];
    expect(names("US").filter((n) => islands.includes(n))).toEqual([]);
    // The data still has them: the list leaves them out.
    expect(State.getStatesOfCountry("US").filter((s) => islands.includes(s.name))).toHaveLength(islands.length);
  });

  it("holds one level per country, whole", () => {
    const sizes = Object.fromEntries(siteCountries.map((c) => [c, regionsOf(c).length]));
    expect(sizes).toEqual({
      US: 56, DE: 16, AT: 9, CH: 26, PL: 16, NL: 15, BE: 11, CA: 13, AU: 8, DK: 5, NZ: 17,
      // 13 régions of the mainland and Corsica, 5 overseas régions, 5 overseas collectivities.
      FR: 23,
      IT: 20,
      // 17 comunidades autónomas, Ceuta and Melilla.
      ES: 19,
      FI: 19,
      // 15 fylker and Svalbard.
      NO: 16,
      SE: 21,
      IE: 26,
      // Counties, unitary authorities, council areas, London boroughs and Northern Ireland's 11 districts.
      GB: 215,
    });
  });

  it("leaves out the levels above or below the country's kind, and divisions that no longer exist", () => {
    for (const gone of ["England", "Scotland", "Wales", "Northern Ireland", "United Kingdom", "Saint Helena", "Armagh City and District Council", "Moyle District Council"]) expect(names("GB")).not.toContain(gone);
    expect(names("GB")).toEqual(expect.arrayContaining(["Kent", "Glasgow", "Cornwall", "Belfast district", "Mid Ulster"]));
    for (const gone of ["Connacht", "Leinster", "Munster", "Ulster"]) expect(names("IE")).not.toContain(gone);
    expect(names("IE")).toEqual(expect.arrayContaining(["Dublin", "Leitrim", "Cork"]));
    expect(names("BE")).not.toContain("Flanders");
    expect(names("BE")).toEqual(expect.arrayContaining(["Antwerp", "Brussels-Capital Region", "Namur"]));
    expect(names("FR")).toEqual(expect.arrayContaining(["Île-de-France", "Bretagne", "La Réunion"]));
    for (const gone of ["Paris", "Gironde", "Clipperton", "French Southern and Antarctic Lands", "Alsace"]) expect(names("FR")).not.toContain(gone);
    expect(names("IT")).toEqual(expect.arrayContaining(["Lombardy", "Aosta Valley", "Sardinia"]));
    expect(names("IT").filter((n) => /^Province of|^Metropolitan City/.test(n))).toEqual([]);
    expect(names("ES")).toEqual(expect.arrayContaining(["Castile and León", "Catalonia", "Ceuta"]));
    for (const gone of ["Léon", "Burgos Province"]) expect(names("ES")).not.toContain(gone);
    expect(names("NO")).toEqual(expect.arrayContaining(["Innlandet", "Vestland", "Agder", "Oslo", "Svalbard"]));
    for (const gone of ["Hedmark", "Hordaland", "Jan Mayen", "Sør-Trøndelag"]) expect(names("NO")).not.toContain(gone);
    expect(names("SE")).toEqual(expect.arrayContaining(["Jämtland County", "Blekinge County", "Stockholm County"]));
    for (const gone of ["Eastern Finland Province", "Oulu Province"]) expect(names("FI")).not.toContain(gone);
  });

  it("has no code or name twice, and is sorted by name", () => {
    for (const country of siteCountries) {
      expect(new Set(codes(country)).size, country).toBe(codes(country).length);
      expect(new Set(names(country)).size, country).toBe(names(country).length);
      expect(names(country), country).toEqual([...names(country)].sort((a, b) => a.localeCompare(b)));
    }
  });

  it("names only codes of the data, and adds only codes it lacks", () => {
    for (const [country, curation] of Object.entries(regionCurations)) {
      const data = new Set(State.getStatesOfCountry(country).map((s) => s.isoCode));
      const named = [...(curation.only ?? []), ...(curation.drop ?? []), ...Object.keys(curation.rename ?? {}), ...Object.keys(curation.places ?? {})];
      expect({ country, unknown: named.filter((code) => !data.has(code)) }).toEqual({ country, unknown: [] });
      expect({ country, present: (curation.add ?? []).filter((r) => data.has(r.code)) }).toEqual({ country, present: [] });
    }
  });

  it("lists the other countries as the data has them", () => {
    expect(regionsOf("JP")).toHaveLength(State.getStatesOfCountry("JP").length);
  });
});

describe("the region of a place", () => {
  it("is the listed region, the listed region that holds it, or none", () => {
    expect(placeRegion("NL", "NH")).toBe("NH");
    expect(placeRegion("ES", "LE")).toBe("CL");
    expect(placeRegion("NO", "12")).toBe("46");
    expect(placeRegion("NO", "05")).toBe("34");
    expect(placeRegion("US", "UM-81")).toBeNull();
    expect(placeRegion("GB", "ENG")).toBeNull();
    // Northern Ireland's places, filed under North Yorkshire by the data.
    expect(placeRegion("GB", "NYK")).toBeNull();
    expect(placeRegion("DE", "")).toBeNull();
    expect(placeRegion("DE", null)).toBeNull();
  });

  it("of every place of the site countries is in its country's list or none; Spain's and Norway's places all have one", () => {
    for (const country of siteCountries) {
      const listed = new Set(codes(country));
      const places = City.getCitiesOfCountry(country) ?? [];
      const regions = places.map((p) => placeRegion(country, p.stateCode));
      expect({ country, outside: regions.filter((r) => r !== null && !listed.has(r)) }).toEqual({ country, outside: [] });
      if (country === "ES" || country === "NO") expect({ country, without: regions.filter((r) => r === null).length }).toEqual({ country, without: 0 });
    }
    const bergen = City.getCitiesOfCountry("NO")?.find((p) => p.name === "Bergen");
    expect(placeRegion("NO", bergen?.stateCode)).toBe("46");
  });
});
