import { describe, expect, it } from "vitest";
import { snippet, startOfUtcDay, swipeLikesLeft } from "../../api/domain/discovery";
import { offeredFilters } from "../../app/features/discovery/search-filters";

describe("the swipe game's day (UTC)", () => {
  it("starts at midnight UTC, whatever the time of day", () => {
    expect(startOfUtcDay(new Date("2024-03-10T00:00:00.000Z")).toISOString()).toBe("2024-03-10T00:00:00.000Z");
    expect(startOfUtcDay(new Date("2024-03-10T23:59:59.999Z")).toISOString()).toBe("2024-03-10T00:00:00.000Z");
    expect(startOfUtcDay(new Date("2024-03-09T23:59:59.999Z")).toISOString()).toBe("2024-03-09T00:00:00.000Z");
  });

  it("is the UTC day, not the server's local one, across a month, year and leap day", () => {
    expect(startOfUtcDay(new Date("2024-03-01T01:30:00+02:00")).toISOString()).toBe("2024-02-29T00:00:00.000Z");
    expect(startOfUtcDay(new Date("2025-01-01T00:30:00+01:00")).toISOString()).toBe("2024-12-31T00:00:00.000Z");
  });

  it("leaves 4 likes a day and never fewer than none", () => {
    expect([0, 1, 3, 4, 5, 9].map(swipeLikesLeft)).toEqual([4, 3, 1, 0, 0, 0]);
  });
});

describe("the about-me snippet of a card", () => {
  it("keeps a short text whole and cuts a long one at a word with an ellipsis", () => {
    expect(snippet("  Hello   there  ")).toBe("Hello there");
    expect(snippet("one two three four", 10)).toBe("one two…");
    expect(snippet("abcdefghijklmnop", 10)).toBe("abcdefghij…");
  });
});

describe("the search form's filters (settings search_fields)", () => {
  it("offers the listed fields, the region only with the country, and every field when the site lists none", () => {
    expect(offeredFilters(["gender", "country", "countryregion", "min_age", "max_age"])).toEqual(["gender", "country", "region", "min_age", "max_age"]);
    expect(offeredFilters(["country", "countryregion", "min_age", "max_age"])).toEqual(["country", "region", "min_age", "max_age"]);
    expect(offeredFilters(["countryregion", "min_age"])).toEqual(["min_age"]);
    expect(offeredFilters(["max_age", "gender"])).toEqual(["gender", "max_age"]);
    expect(offeredFilters([])).toEqual(["gender", "country", "region", "min_age", "max_age"]);
  });
});
