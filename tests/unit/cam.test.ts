import { describe, expect, it } from "vitest";
import { camLink, withCamTiles } from "../../contract/cam";

/** docs/product.md §1 live-cam tiles: where tiles go among the cards, and the partner's address for a click. */
describe("live-cam tiles", () => {
  const place = (count: number, tiles: { first: number; every: number } | null, max?: number) =>
    withCamTiles(Array.from({ length: count }, (_, i) => i), tiles, max).map((entry) => (entry.kind === "cam" ? `T${entry.tile}` : String(entry.item)));

  it("come after `first` cards, then after every `every` more, three at most; none without settings or cards", () => {
    expect(place(10, { first: 4, every: 3 })).toEqual(["0", "1", "2", "3", "T0", "4", "5", "6", "T1", "7", "8", "9"]);
    expect(place(3, { first: 0, every: 1 })).toEqual(["T0", "0", "T1", "1", "T2", "2"]);
    expect(place(20, { first: 0, every: 1 })).toHaveLength(23);
    expect(place(4, { first: 4, every: 2 })).toEqual(["0", "1", "2", "3"]);
    expect(place(6, { first: 2, every: 10 }, 1)).toEqual(["0", "1", "T0", "2", "3", "4", "5"]);
    expect(place(5, null)).toEqual(["0", "1", "2", "3", "4"]);
    expect(place(0, { first: 0, every: 1 })).toEqual([]);
  });

  it("link to the partner with the tracking values it names, encoded, and empty where the member has none", () => {
    const template = "https://cams.example/go?aff=rdv&network={network}&ref={ref}&s={sub1}&x={sub3}";
    expect(camLink(template, { network: "net 1", ref: "a&b=c", sub1: null })).toBe("https://cams.example/go?aff=rdv&network=net%201&ref=a%26b%3Dc&s=&x=");
    expect(camLink("https://cams.example/{unknown}", {})).toBe("https://cams.example/{unknown}");
  });
});
