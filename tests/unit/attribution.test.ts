import { describe, expect, it } from "vitest";
import { newTracking, trackingCookieName } from "~/tracking.server";

/** Issue 17: web counts a funnel entry once, when the URL's tracking values are new to the visitor. */
const request = (url: string, kept?: Record<string, string>) =>
  new Request(`https://localhost${url}`, { headers: kept ? { Cookie: `${trackingCookieName}=${encodeURIComponent(JSON.stringify(kept))}` } : {} });

describe("a funnel entry to count", () => {
  it("is a URL with tracking values the visitor does not already have", () => {
    expect(newTracking(request("/?network=adnet&ref=r1&sub1=a"))).toEqual({ network: "adnet", ref: "r1", sub1: "a" });
    expect(newTracking(request("/members/3/landing?network=adnet", { network: "other" }))).toEqual({ network: "adnet" });
    expect(newTracking(request("/?network=adnet&sub1=b", { network: "adnet", sub1: "a" }))).toEqual({ network: "adnet", sub1: "b" });
  });
  it("is not a reload of the same funnel URL, a page without tracking, or values that do not fit", () => {
    expect(newTracking(request("/?network=adnet&ref=r1", { network: "adnet", ref: "r1" }))).toBeNull();
    expect(newTracking(request("/members"))).toBeNull();
    expect(newTracking(request(`/?network=${"x".repeat(101)}`))).toBeNull();
  });
});
