import { describe, expect, it } from "vitest";
import { isCanonicalPath, isCdnPrefix, isHostHeader, isHttpsUrlOnItsHost, normalizeRequestEdge, type EdgeRequest } from "#contract/host";

/**
 * Hostile Host headers (docs/security.md, Where requests come in): a Host of `a%00b`, `a b`, `[zz]`, `:99999`, `a@b` or 300 characters, or
 * an absolute request line, made web build a URL that throws ("Invalid URL", 500) or ask the api
 * for a site it refuses (503). contract/host.ts decides once, for web and the api, what a host is.
 */
const refused = [
  "a%00b",
  "a b",
  "[zz]",
  ":99999",
  "a@b",
  "x".repeat(300),
  `${"a".repeat(64)}.example`,
  "",
  "localhost:",
  "localhost:0",
  "localhost:99999",
  "localhost:80:80",
  "999.1.1.1",
  "1.2.3",
  "a.123",
  "example.0x1",
  "xn--a",
  "a..b",
  "-a.example",
  "a/b",
  "a\\b",
  "a?b",
  "a#b",
  "exämple.com",
  "a\tb",
  "[::1",
  "[fe80::1%25eth0]",
  "localhost, evil.example",
];
const accepted = ["localhost", "localhost:4100", "she.localhost:3000", "Example.COM", "a_b.example", "xn--bcher-kva.example", "127.0.0.1", "127.0.0.1:3001", "[::1]", "[::1]:3000", "example.com.", "a".repeat(63) + ".example"];

describe("isHostHeader", () => {
  it.each(refused.map((h) => [JSON.stringify(h).slice(0, 40), h]))("refuses %s", (_label, host) => {
    expect(isHostHeader(host)).toBe(false);
  });

  it.each(accepted)("accepts %s, and a URL can carry it", (host) => {
    expect(isHostHeader(host)).toBe(true);
    expect(() => new URL(`http://${host}/login`)).not.toThrow();
  });
});

function request(url: string, headers: Record<string, string | string[]>): EdgeRequest & { originalUrl: string } {
  return { url, originalUrl: url, headers: { ...headers } };
}

describe("normalizeRequestEdge", () => {
  it("takes an absolute-form target as its path, with its host as Host (RFC 9112 3.2.2)", () => {
    const req = request("http://she.localhost:3000/members?page=2", { host: "localhost" });
    expect(normalizeRequestEdge(req, false)).toBeNull();
    expect(req).toMatchObject({ url: "/members?page=2", originalUrl: "/members?page=2", headers: { host: "she.localhost:3000" } });
    const bare = request("HTTPS://localhost?x=1", { host: "localhost" });
    expect(normalizeRequestEdge(bare, false)).toBeNull();
    expect(bare.url).toBe("/?x=1");
  });

  it.each([
    ["*", "bad_request_target"],
    ["localhost:443", "bad_request_target"],
    ["ftp://localhost/x", "bad_request_target"],
    ["javascript:alert(1)", "bad_request_target"],
    ["http://a@b/x", "bad_host"],
    ["http://[zz]/x", "bad_host"],
    ["http://localhost:99999/x", "bad_host"],
  ])("refuses the target %s (%s)", (target, reason) => {
    expect(normalizeRequestEdge(request(target, { host: "localhost" }), true)).toBe(reason);
  });

  it("refuses a missing or hostile Host", () => {
    expect(normalizeRequestEdge(request("/", {}), false)).toBe("bad_host");
    for (const host of refused) expect(normalizeRequestEdge(request("/", { host }), false), host).toBe("bad_host");
  });

  it("drops X-Forwarded-Host and -Proto from a peer it does not trust, whatever they say", () => {
    const req = request("/", { host: "localhost", "x-forwarded-host": "a b", "x-forwarded-proto": "gopher" });
    expect(normalizeRequestEdge(req, false)).toBeNull();
    expect(req.headers).toEqual({ host: "localhost" });
  });

  it("keeps the first entry of a trusted proxy's X-Forwarded-Host and -Proto, and refuses one that is no host or scheme", () => {
    const req = request("/", { host: "10.0.0.5:3000", "x-forwarded-host": "she.localhost, evil.example", "x-forwarded-proto": "HTTPS,http" });
    expect(normalizeRequestEdge(req, true)).toBeNull();
    expect(req.headers).toMatchObject({ "x-forwarded-host": "she.localhost", "x-forwarded-proto": "https" });
    expect(normalizeRequestEdge(request("/", { host: "localhost", "x-forwarded-host": "evil:99999" }), true)).toBe("bad_forwarded_host");
    expect(normalizeRequestEdge(request("/", { host: "localhost", "x-forwarded-host": "a@b" }), true)).toBe("bad_forwarded_host");
    expect(normalizeRequestEdge(request("/", { host: "localhost", "x-forwarded-proto": "a b" }), true)).toBe("bad_forwarded_proto");
  });
});

describe("one canonical path, and addresses that stay on their host", () => {
  it("takes a path without empty, dot or encoded slash, backslash or dot segments; a trailing slash is fine", () => {
    for (const path of ["/", "/api/logout.php", "/api/logout.php/", "/members/12?x=//y", "/nl/members"]) expect(isCanonicalPath(path), path).toBe(true);
    for (const path of ["//", "/api//logout.php", "//api/logout.php", "/api/./logout.php", "/api/x/../logout.php", "/api%2Flogout.php", "/api/%2e/x", "/a\\b", "/a%5Cb", "/.", "/.."]) expect(isCanonicalPath(path), path).toBe(false);
  });

  it("keeps a template's host fixed: placeholders only in the path and query", () => {
    const names = ["network", "ref", "sub1", "sub2", "sub3"];
    for (const link of ["https://cams.example/go/{sub1}?ref={ref}", "https://cams.example:8443/", "https://cams.example"]) expect(isHttpsUrlOnItsHost(link, names), link).toBe(true);
    for (const link of ["https://cams.example@{sub1}/", "https://{sub1}/", "https://cams.example:{sub2}/", "https://user@cams.example/", "http://cams.example/", "https://cams.example/{other}", "https://cams.example//evil.example/", "https://cams.example\\@evil/"]) {
      expect(isHttpsUrlOnItsHost(link, names), link).toBe(false);
    }
    for (const cdn of ["/uploads/", "https://cdn.example/photos/"]) expect(isCdnPrefix(cdn), cdn).toBe(true);
    for (const cdn of ["//evil.example/", "/\\evil.example/", "/uploads", "/%2F/evil/", "https://evil.example@/", "http://cdn.example/"]) expect(isCdnPrefix(cdn), cdn).toBe(false);
  });
});
