import { describe, expect, it } from "vitest";
import { ApiInstances, connectionRefused, parseApiUrls } from "../../server/api-instances";
import { loadWebConfig } from "../../server/config";

describe("API_URL with several api instances", () => {
  it("keeps to the first instance while it answers", () => {
    const apis = new ApiInstances(["http://a:1", "http://b:1", "http://c:1"]);
    expect([apis.pick(), apis.pick(), apis.pick()]).toEqual(["http://a:1", "http://a:1", "http://a:1"]);
  });

  it("leaves an instance that refused a connection out until its time is up, then takes it again", () => {
    let now = 1_000;
    const apis = new ApiInstances(["http://a:1", "http://b:1", "http://c:1"], 5000, () => now);
    expect(apis.failed("http://a:1")).toBe("http://b:1");
    expect([apis.pick(), apis.pick()]).toEqual(["http://b:1", "http://b:1"]);
    expect(apis.failed("http://b:1")).toBe("http://c:1");
    now += 4999;
    expect(apis.pick()).toBe("http://c:1");
    now += 1;
    expect(apis.pick()).toBe("http://a:1");
  });

  it("names no other instance when all refused, and picks the first then (it may be back)", () => {
    const apis = new ApiInstances(["http://a:1", "http://b:1"], 5000, () => 0);
    apis.failed("http://a:1");
    expect(apis.failed("http://b:1")).toBe(null);
    expect(apis.pick()).toBe("http://a:1");
    expect(new ApiInstances(["http://a:1"]).failed("http://a:1")).toBe(null);
    expect(new ApiInstances(["http://a:1"]).failed("http://elsewhere:1")).toBe(null);
  });

  it("reads one URL or a comma-separated list as origins, and refuses anything else with the setting's name", () => {
    expect(parseApiUrls("http://127.0.0.1:3001")).toEqual(["http://127.0.0.1:3001"]);
    expect(parseApiUrls(" http://a:3001/ , https://b.internal ")).toEqual(["http://a:3001", "https://b.internal"]);
    expect(() => parseApiUrls("ftp://a")).toThrow(/not an http/);
    expect(() => parseApiUrls(" , ")).toThrow(/no URL/);
    expect(loadWebConfig({ API_URL: "http://a:1,http://b:2" } as Record<string, string> as NodeJS.ProcessEnv).API_URL).toEqual(["http://a:1", "http://b:2"]);
    expect(() => loadWebConfig({ API_URL: "http://a:1,nonsense" } as Record<string, string> as NodeJS.ProcessEnv)).toThrow(/API_URL: must be one URL or several/);
  });

  it("tells a refused connection (nothing sent) from other failures", () => {
    expect(connectionRefused(Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) }))).toBe(true);
    expect(connectionRefused(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }))).toBe(false);
    expect(connectionRefused(new DOMException("timeout", "TimeoutError"))).toBe(false);
  });
});
