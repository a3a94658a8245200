import { describe, expect, it } from "vitest";
import { monthsOfPeriod } from "../../api/domain/analytics/report";

/** How an analytics period is read: its whole calendar months from the monthly rollup, the days around them from the daily one. */
describe("monthsOfPeriod", () => {
  it.each([
    ["a week inside a month", "2026-11-02", "2026-11-08", null, [["2026-11-02", "2026-11-08"]]],
    ["two whole months", "2026-10-01", "2026-11-30", ["2026-10-01", "2026-12-01"], []],
    ["days before and after a whole month", "2026-10-15", "2026-12-01", ["2026-11-01", "2026-12-01"], [["2026-10-15", "2026-10-31"], ["2026-12-01", "2026-12-01"]]],
    ["a day each side of February", "2026-01-31", "2026-03-01", ["2026-02-01", "2026-03-01"], [["2026-01-31", "2026-01-31"], ["2026-03-01", "2026-03-01"]]],
    ["February but its last day", "2026-02-01", "2026-02-27", null, [["2026-02-01", "2026-02-27"]]],
    ["February of a leap year, whole", "2028-02-01", "2028-02-29", ["2028-02-01", "2028-03-01"], []],
    ["366 days across a new year", "2025-12-08", "2026-12-07", ["2026-01-01", "2026-12-01"], [["2025-12-08", "2025-12-31"], ["2026-12-01", "2026-12-07"]]],
    ["one day, the 1st", "2026-12-01", "2026-12-01", null, [["2026-12-01", "2026-12-01"]]],
    ["the last day of one month to the first of the next", "2026-11-30", "2026-12-01", null, [["2026-11-30", "2026-12-01"]]],
  ] as const)("%s", (_name, from, to, months, days) => {
    const split = monthsOfPeriod(from, to);
    expect(split.months ? [split.months.from, split.months.until] : null).toEqual(months);
    expect(split.days.map((d) => [d.from, d.to])).toEqual(days);
  });
});
