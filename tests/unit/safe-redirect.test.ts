import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/paths";

const fallback = "/members";

describe("safeRedirectPath", () => {
  it.each([
    "/members?gender=female",
    "/nl/likes/received",
    "/members/12#photos",
    "/search?q=a%20b",
  ])("keeps the same-site path %s", (path) => {
    expect(safeRedirectPath(path, fallback)).toBe(path);
  });

  it.each([
    ["a tab between the slashes (the browser strips it)", "/\t/evil.example/"],
    ["a percent-encoded tab", "/%09/evil.example/"],
    ["a newline", "/\n/evil.example/"],
    ["CR LF (header injection)", "/members\r\nSet-Cookie: x=1"],
    ["an encoded CR LF", "/members%0d%0aSet-Cookie:%20x=1"],
    ["NUL", "/members\u0000"],
    ["a protocol-relative URL", "//evil.example/"],
    ["a backslash, read as a slash", "/\\evil.example/"],
    ["an encoded backslash", "/%5Cevil.example/"],
    ["an encoded second slash", "/%2Fevil.example/"],
    ["an absolute URL", "https://evil.example/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "members"],
    ["an empty string", ""],
    ["broken percent-encoding", "/%E0%A4%A"],
    ["DEL", "/members\u007f"],
  ])("gives the fallback for %s", (_name, value) => {
    expect(safeRedirectPath(value, fallback)).toBe(fallback);
  });

  it("gives the fallback for anything that is not a string", () => {
    expect(safeRedirectPath(null, fallback)).toBe(fallback);
    expect(safeRedirectPath(["/members"], fallback)).toBe(fallback);
    expect(safeRedirectPath(new File([], "x"), fallback)).toBe(fallback);
  });

  it("normalises dot segments as the browser would, staying on the site", () => {
    expect(safeRedirectPath("/a/../../members", fallback)).toBe("/members");
  });

  it.each([
    "/.//evil.example/",
    "/%2e//evil.example/",
    "/%2E//evil.example/",
    "/a/..//evil.example/",
    "/a/%2e%2e//evil.example/",
    "/a/.%2E//evil.example/",
    "/././/evil.example/",
    "/.//evil.example/?x#y",
  ])("gives the fallback for %s, which dot segments resolve to //evil.example/", (value) => {
    expect(safeRedirectPath(value, fallback)).toBe(fallback);
  });
});

/** Pieces hostile paths are made of: dot segments and their encodings, slashes of every kind, controls, non-ASCII. */
const pieces = [
  "/", "//", "\\", ".", "..", "%2e", "%2E", "%2e%2e", ".%2E", "%2f", "%2F", "%5c", "%5C", "%252F", "%25", "%",
  "\t", "\n", "\r", "\u0000", "%09", "%0a", "%0D", "%00", "%7f", "\u007f", " ", "\u00a0", "\u2028", "\uff0f", "\uff0e",
  "é", "😀", "\ud800", "?", "#", "@", ":", ";", "&", "=", "evil.example", "members", "nl", "http:", "https://evil.example",
];
const hostilePath = fc.oneof(
  fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join("")),
  fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => `/${parts.join("")}`),
  fc.string({ unit: "binary", maxLength: 40 }).map((text) => `/${text}`),
  fc.webPath(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);

describe("safeRedirectPath over generated paths", { timeout: 30_000 }, () => {
  const site = "http://site.example";

  it("returns a path that stays on the site, from any page of it (the fallback is one)", () => {
    let kept = 0;
    fc.assert(
      fc.property(hostilePath, (value) => {
        const result = safeRedirectPath(value, fallback);
        if (result !== fallback) kept += 1;
        expect(result).toMatch(/^\/(?![/\\])/);
        expect(result).not.toMatch(/[\u0000-\u001f\u007f\\]/);
        for (const base of [`${site}/`, `${site}/nl/members/12?x=1#top`]) {
          expect(new URL(result, base).origin).toBe(site);
        }
        // What the browser goes to is the path returned, not another reading of it.
        const url = new URL(result, `${site}/`);
        expect(`${url.pathname}${url.search}${url.hash}`).toBe(result);
      }),
      { numRuns: 5000 },
    );
    // The generators also make paths that pass, so the checks above saw more than the fallback.
    expect(kept).toBeGreaterThan(500);
  });

  it("is idempotent: a returned path passes again unchanged", () => {
    fc.assert(
      fc.property(hostilePath, (value) => {
        const once = safeRedirectPath(value, fallback);
        expect(safeRedirectPath(once, fallback)).toBe(once);
      }),
      { numRuns: 5000 },
    );
  });
});
