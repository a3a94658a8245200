import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import path from "node:path";
import { call, startApi, type Harness } from "./harness";

let api: Harness;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

describe("answers are data, never documents", () => {
  it("serves an uploaded SVG so that no script in it can run (sandboxing CSP, no sniffing)", async () => {
    const svg = readdirSync(path.join(api.dataDir, "uploads", "demo")).find((name) => name.endsWith(".svg"));
    expect(svg).toBeTruthy();
    const res = await fetch(`${api.baseUrl}/uploads/demo/${svg}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("sandbox");
  });

  it("puts the same headers on JSON answers and errors", async () => {
    for (const res of [await call(api, "GET", "/api/settings.php?domain=localhost"), await call(api, "GET", "/api/nothing-here.php")]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("sandbox");
    }
  });
});

describe("X-Request-Id", () => {
  it("keeps a plain id of up to 64 letters, digits and dashes", async () => {
    const id = `abc-${"9".repeat(60)}`;
    const res = await call(api, "GET", "/api/settings.php?domain=localhost", { headers: { "X-Request-Id": id } });
    expect(res.headers.get("x-request-id")).toBe(id);
  });

  it.each([["too long", "a".repeat(65)], ["a log-forging newline", "abc%0a{\"level\":60}"], ["dots and slashes", "../../etc"], ["spaces", "a b"]])(
    "replaces an id with %s by a fresh one",
    async (_name, id) => {
      const res = await call(api, "GET", "/api/settings.php?domain=localhost", { headers: { "X-Request-Id": id } });
      const answered = res.headers.get("x-request-id") ?? "";
      expect(answered).not.toBe(id);
      expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    },
  );
});
