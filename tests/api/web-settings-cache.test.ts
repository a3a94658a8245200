import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import type { AppLoadContext } from "@remix-run/node";
import { getSettings, settingsCacheSize } from "~/utils/session.server";
import { getRegions } from "~/features/account/regions.server";
import { startApi, type Harness } from "./harness";

/** web's settings cache (app/utils/session.server.ts) against a real api: bounded, whatever Host headers arrive. */
let api: Harness;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

function contextFor(apiUrl: string): AppLoadContext {
  return {
    requestId: "settings-cache-test",
    cspNonce: "",
    logger: pino({ level: "silent" }),
    apiUrl,
    clientIp: "127.0.0.1",
    upstream: [],
    forwardSetCookie: () => undefined,
    memo: new Map(),
    settingsCacheSeconds: 30,
  };
}

describe("settings cache per Host header", () => {
  it("stays bounded under a flood of made-up hosts, which all get the default site", async () => {
    const contexts: AppLoadContext[] = [];
    for (let i = 0; i < 700; i++) {
      const context = contextFor(api.baseUrl);
      contexts.push(context);
      const settings = await getSettings(new Request(`http://made-up-${i}.example/`), context);
      expect(settings.domain).toBe("localhost");
    }
    expect(settingsCacheSize()).toBeLessThanOrEqual(500);
    // A known site still gets its own settings, and a repeat costs no api call.
    expect((await getSettings(new Request("http://gay.localhost/"), contextFor(api.baseUrl))).domain).toBe("gay.localhost");
    const repeat = contextFor(api.baseUrl);
    expect((await getSettings(new Request("http://gay.localhost/members"), repeat)).domain).toBe("gay.localhost");
    expect(repeat.upstream).toEqual([]);
  });
});

describe("what web fetches once and keeps (docs/product.md §7: interests, regions and company info)", () => {
  it("has interests and company info with the cached settings, and each country's regions from one api call", async () => {
    const first = contextFor(api.baseUrl);
    const settings = await getSettings(new Request("http://she.localhost/"), first);
    expect(settings.interests.length).toBeGreaterThan(0);
    expect(settings.company).toBeTruthy();
    const again = contextFor(api.baseUrl);
    await getSettings(new Request("http://she.localhost/profile"), again);
    expect(again.upstream).toEqual([]);

    const asked = contextFor(api.baseUrl);
    const regions = await getRegions(new Request("http://she.localhost/profile"), asked, "NL");
    expect(regions?.length).toBeGreaterThan(0);
    const repeat = contextFor(api.baseUrl);
    expect(await getRegions(new Request("http://she.localhost/signup/3"), repeat, "nl")).toEqual(regions);
    expect(repeat.upstream).toEqual([]);
  });
});
