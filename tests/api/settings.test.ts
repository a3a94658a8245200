import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "#contract/errors";
import { Health } from "#contract/health";
import { CompanyInfo, InterestsResponse, RegionsResponse, Settings } from "#contract/settings";
import { startApi, type Harness } from "./harness";

let api: Harness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

async function settings(query: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.baseUrl}/api/settings.php${query}`, { headers });
  expect(res.status).toBe(200);
  return Settings.parse(await res.json());
}

describe("GET /api/settings.php", () => {
  it("gives the default site (niche 1) for ?domain=localhost, in the Settings contract", async () => {
    const s = await settings("?domain=localhost");
    expect(s.niche).toBe(1);
    expect(s.domain).toBe("localhost");
    expect(s.name).toBe("Rendezvous");
    expect(s.countries).toContain("NL");
    expect(s.interests.length).toBeGreaterThan(0);
    expect(s.company.name).toBe("Rendezvous Media B.V.");
    expect(s.company_id).toBe(s.company.id);
    expect(s.support_phone).toBe(s.company.support_phone);
  });

  it("gives the gay site (niche 7) for ?domain=gay.localhost, also with www. and capitals", async () => {
    for (const domain of ["gay.localhost", "www.gay.localhost", "GAY.localhost"]) {
      const s = await settings(`?domain=${encodeURIComponent(domain)}`);
      expect(s.niche, domain).toBe(7);
      expect(s.domain, domain).toBe("gay.localhost");
      expect(s.name, domain).toBe("Rendezvous Gay");
    }
  });

  it("falls back to the default site for an unknown domain", async () => {
    const s = await settings("?domain=nobody-knows-this.example");
    expect(s.niche).toBe(1);
    expect(s.domain).toBe("localhost");
  });

  it("picks the site from the forwarded host when there is no ?domain=", async () => {
    expect((await settings("", { "X-Forwarded-Host": "gay.localhost" })).niche).toBe(7);
    expect((await settings("", { "X-Forwarded-Host": "milf.localhost:3000" })).niche).toBe(6);
    expect((await settings("", { "X-Forwarded-Host": "localhost" })).niche).toBe(1);
    // ?domain= wins over the host.
    expect((await settings("?domain=bbw.localhost", { "X-Forwarded-Host": "gay.localhost" })).niche).toBe(4);
  });

  it("has no geoip country for a loopback client and selects the site's first country", async () => {
    const s = await settings("?domain=localhost");
    expect(s.geoip_country).toBeNull();
    expect(s.geoip_selected_country).toBe(s.countries[0]);
  });

  it("locates the client address that web sends (X-Client-IP)", async () => {
    const us = await settings("?domain=localhost", { "X-Client-IP": "8.8.8.8" });
    expect(us.geoip_country).toBe("US");
    expect(us.geoip_selected_country).toBe("US");
  });

  it("is not cacheable by shared caches (the body depends on the client's IP)", async () => {
    const res = await fetch(`${api.baseUrl}/api/settings.php?domain=localhost`);
    expect(res.headers.get("cache-control")).toMatch(/private/);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
  });

  it("answers 400 validation_failed for a domain over 253 characters", async () => {
    const domain = `${"a".repeat(250)}.localhost`;
    const res = await fetch(`${api.baseUrl}/api/settings.php?domain=${domain}`);
    expect(res.status).toBe(400);
    const body = ApiError.parse(await res.json());
    expect(body.error).toBe("validation_failed");
    expect(Object.keys(body.fields ?? {})).toContain("domain");
  });
});

describe("GET /api/interests.php, /api/regions.php, /api/companyinfo.php", () => {
  it("lists the interests, the same as settings", async () => {
    const res = await fetch(`${api.baseUrl}/api/interests.php`);
    expect(res.status).toBe(200);
    const body = InterestsResponse.parse(await res.json());
    expect(body.interests.map((i) => i.key)).toEqual(expect.arrayContaining(["travel", "music", "cooking"]));
    expect(new Set(body.interests.map((i) => i.id)).size).toBe(body.interests.length);
    expect((await settings("?domain=localhost")).interests).toEqual(body.interests);
  });

  it("lists the Dutch provinces by name for ?country=NL", async () => {
    const res = await fetch(`${api.baseUrl}/api/regions.php?country=NL`);
    expect(res.status).toBe(200);
    const body = RegionsResponse.parse(await res.json());
    expect(body.country).toBe("NL");
    expect(body.regions).toContainEqual({ code: "NH", name: "North Holland" });
    expect(body.regions.map((r) => r.name)).toEqual(expect.arrayContaining(["South Holland", "Utrecht", "Zeeland"]));
    const names = body.regions.map((r) => r.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it("accepts a lower-case country code", async () => {
    const res = await fetch(`${api.baseUrl}/api/regions.php?country=de`);
    expect(res.status).toBe(200);
    const body = RegionsResponse.parse(await res.json());
    expect(body.country).toBe("DE");
    expect(body.regions.map((r) => r.name)).toContain("Bavaria");
  });

  it("answers 400 validation_failed for a missing or invalid country", async () => {
    for (const query of ["", "?country=", "?country=NLD", "?country=1X", "?country=N"]) {
      const res = await fetch(`${api.baseUrl}/api/regions.php${query}`);
      expect(res.status, query).toBe(400);
      expect(ApiError.parse(await res.json()).error, query).toBe("validation_failed");
    }
  });

  it("gives the company info in the CompanyInfo contract, the same as settings", async () => {
    const res = await fetch(`${api.baseUrl}/api/companyinfo.php`);
    expect(res.status).toBe(200);
    const company = CompanyInfo.parse(await res.json());
    expect(company).toMatchObject({ name: "Rendezvous Media B.V.", country: "NL", kvk: "81234567" });
    expect(company.tradenames).toContain("Rendezvous Gay");
    expect(Number.isNaN(Date.parse(company.added))).toBe(false);
    expect((await settings("?domain=localhost")).company).toEqual(company);
  });
});

describe("health and unknown paths", () => {
  it("GET /healthz answers 200 with status ok and the database kind", async () => {
    const res = await fetch(`${api.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    const body = Health.parse(await res.json());
    expect(body.status).toBe("ok");
    expect(body.service).toBe("api");
    expect(body.checks.database).toBe(api.kind);
  });

  it("answers 404 JSON not_found for an unknown /api path, whatever the method", async () => {
    for (const [method, pathname] of [
      ["GET", "/api/nope.php"],
      ["POST", "/api/chats.php"],
      ["DELETE", "/api/user.php"],
      ["GET", "/api/"],
    ] as const) {
      const res = await fetch(`${api.baseUrl}${pathname}`, { method });
      expect(res.status, `${method} ${pathname}`).toBe(404);
      expect(res.headers.get("content-type"), `${method} ${pathname}`).toMatch(/application\/json/);
      expect(ApiError.parse(await res.json()).error).toBe("not_found");
    }
  });

  it("tags every response with a request id, keeping a sane one the client sent", async () => {
    const own = await fetch(`${api.baseUrl}/api/interests.php`, { headers: { "X-Request-Id": "test-req-42" } });
    expect(own.headers.get("x-request-id")).toBe("test-req-42");
    const generated = await fetch(`${api.baseUrl}/api/interests.php`, { headers: { "X-Request-Id": "bad id with spaces" } });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
