import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/paths";

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
});
