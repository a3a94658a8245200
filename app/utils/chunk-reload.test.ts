import { describe, expect, it } from "vitest";
import { chunkReloadWindowMs, isChunkLoadError, shouldReload } from "./chunk-reload";

describe("chunk reload rule (docs/product.md §8 ChunkLoadError)", () => {
  it("reloads unless a reload happened within the last 60 s", () => {
    const now = 1_000_000_000;
    expect(chunkReloadWindowMs).toBe(60_000);
    expect(shouldReload(null, now)).toBe(true);
    expect(shouldReload(now - 1_000, now)).toBe(false);
    expect(shouldReload(now - 59_999, now)).toBe(false);
    expect(shouldReload(now - 60_000, now)).toBe(true);
    expect(shouldReload(Number.NaN, now)).toBe(true);
    // a clock set back: the stored time is in the future, so it says nothing about the last minute
    expect(shouldReload(now + 5_000, now)).toBe(true);
  });

  it("knows a failed dynamic import from other errors", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: https://x/assets/a.js"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(Object.assign(new Error("x"), { name: "ChunkLoadError" }))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
