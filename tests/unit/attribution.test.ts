import { describe, expect, it } from "vitest";
import { newTracking, trackingCookieName } from "~/features/landers/tracking.server";
import { attributionCsv, attributionTable, printableValue, type AttributionRow } from "../../api/domain/attribution";

/** Web counts a funnel entry once, when the URL's tracking values are new to the visitor. */
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

/**
 * CSV and text reports (docs/security.md, Operator reports): tracking values come from any URL, so the operator's report must not hand them to a
 * spreadsheet as formulas (OWASP CSV injection) or to a terminal as control sequences (docs/attribution.md).
 */
describe("the attribution report's output", () => {
  const row = (values: Partial<AttributionRow>): AttributionRow => ({ network: "", ref: "", sub1: "", sub2: "", sub3: "", visits: 3, signups: 2, payingMembers: 1, revenue: { EUR: 1250 }, ...values });

  it("gives a spreadsheet every formula-like value as text, with a leading single quote", () => {
    const csv = attributionCsv([
      row({ network: '=HYPERLINK("http://x","y")', ref: "+cmd|' /C calc'!A0", sub1: "@SUM(1+1)", sub2: "-2+3", sub3: "\uFF1D1+1" }),
      row({ network: "adnet", ref: "r-1", sub1: "banner-a" }),
    ]);
    expect(csv).toBe(
      [
        "network,ref,sub1,sub2,sub3,visits,signups,paying_members,revenue_EUR",
        `"'=HYPERLINK(""http://x"",""y"")",'+cmd|' /C calc'!A0,'@SUM(1+1),'-2+3,'\uFF1D1+1,3,2,1,12.50`,
        "adnet,r-1,banner-a,,,3,2,1,12.50",
        "",
      ].join("\n"),
    );
  });

  it("prints no control character: C0, C1 (U+009B, a terminal's CSI), DEL and bidi controls become U+FFFD", () => {
    const hostile = row({ network: "ad\u009b31mnet", ref: "r\u001b[2J", sub1: "\u202eevil", sub2: "\u0007\u007f", sub3: "\u2066x\u2069" });
    const table = attributionTable([hostile]);
    const csv = attributionCsv([hostile]);
    for (const output of [table, csv]) {
      expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    }
    expect(table.split("\n")[2]).toMatch(/^ad\uFFFD31mnet +r\uFFFD\[2J +\uFFFDevil +\uFFFD\uFFFD +\uFFFDx\uFFFD +3 +2 +1 +EUR 12\.50$/);
    expect(csv.split("\n")[1]).toBe("ad\uFFFD31mnet,r\uFFFD[2J,\uFFFDevil,\uFFFD\uFFFD,\uFFFDx\uFFFD,3,2,1,12.50");
    expect(printableValue("banner-a ok")).toBe("banner-a ok");
  });

  it("cannot get a C1 control in through an entry URL: web ignores such tracking values", () => {
    expect(newTracking(request("/?network=ad%C2%9Bnet"))).toBeNull();
  });
});
