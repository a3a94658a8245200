import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import path from "node:path";
import { call, startApi, type Harness } from "./harness";
import { rawRequest } from "../raw-http";

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

/**
 * Logs (docs/security.md, What logs never contain): client mistakes were logged like server faults. The request line of a
 * 4xx is a warning, of a 5xx an error (contract/log-redaction.ts requestLogLevel, web's the same).
 */
describe("request log lines", () => {
  async function levelsOf(requestId: string): Promise<number[]> {
    // The line is written when the answer finishes, which may be just after the client has it.
    await expect.poll(() => api.logLines.some((line) => line.includes(requestId) && line.includes('"res"'))).toBe(true);
    return api.logLines.filter((line) => line.includes(requestId)).map((line) => (JSON.parse(line) as { level: number }).level);
  }

  it.each([
    ["an unknown endpoint", "/api/nothing-here.php", 404],
    ["a bad query", "/api/settings.php?domain=%00", 400],
  ])("%s (%s, %i) is a warning, and nothing about it an error", async (_label, pathname, status) => {
    const id = `log-level-${status}-${Date.now()}`;
    const res = await call(api, "GET", pathname, { headers: { "X-Request-Id": id } });
    expect(res.status).toBe(status);
    const levels = await levelsOf(id);
    expect(levels).toContain(40);
    expect(levels.filter((level) => level >= 50)).toEqual([]);
  });

  it("a hostile Host is refused with 400, logged as a warning", async () => {
    const id = `log-level-host-${Date.now()}`;
    const res = await rawRequest({ port: Number(new URL(api.baseUrl).port), requestLine: "GET /api/settings.php HTTP/1.1", headers: [["Host", "a b"], ["X-Request-Id", id]] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: "validation_failed", fields: { host: ["must be a host name with an optional port"] } });
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(await levelsOf(id)).toEqual([40, 40]);
  });
});
