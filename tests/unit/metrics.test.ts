import { readdirSync, readFileSync, statSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { Router } from "express";
import pino from "pino";
import { Registry } from "prom-client";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsEndpoint, methodLabel, oneOf, requestFamilies, requestMetrics, servedRegistry, statusClass } from "#contract/metrics";
import { apiRouteOf, labelRoute as labelApiRoute } from "../../api/http/metrics";
import { apiEndpointLabel, remixRouteId } from "../../server/metrics";
import { apiEndpoints } from "../../server/api-endpoints";
import { labelValues, parsePrometheusText, sumOf } from "../prometheus-text";

/**
 * Metrics, the edge cases of their labels and of the endpoint (the families themselves, scraped from both
 * services after a member's session, are tests/e2e/metrics.spec.ts): a label never takes a raw path, an id or a
 * value outside its list, and /metrics is never public.
 */

const silent = pino({ level: "silent" });

async function listen(app: express.Express): Promise<{ base: string; close: () => Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("label values", () => {
  it("a status is its class, a method one of the served ones, a value outside a list 'other'", () => {
    expect([200, 204, 302, 404, 429, 500, 503].map(statusClass)).toEqual(["2xx", "2xx", "3xx", "4xx", "4xx", "5xx", "5xx"]);
    expect([0, 99, 600, 1000].map(statusClass)).toEqual(["other", "other", "other", "other"]);
    expect(["GET", "POST", "PROPFIND", "M-SEARCH", "get"].map(methodLabel)).toEqual(["GET", "POST", "other", "other", "other"]);
    expect(oneOf("paynl", ["sandbox", "paynl"])).toBe("paynl");
    expect(oneOf("PayNL", ["sandbox", "paynl"])).toBe("other");
    expect(oneOf("", ["sandbox", "paynl"])).toBe("other");
  });

  it("web's api calls are labelled by endpoint without the query; an unknown path is 'other'", () => {
    expect(apiEndpointLabel("/api/members.php")).toBe("/api/members.php");
    expect(apiEndpointLabel("/api/events.php?last_event_id=12")).toBe("/api/events.php");
    expect(apiEndpointLabel("/api/staff/member.php")).toBe("/api/staff/member.php");
    for (const unknown of ["/api/nope.php", "/api/members.php/12", "/api/member.php/../user.php", "/API/members.php", "/uploads/1/a.jpg", "", "?"]) {
      expect(apiEndpointLabel(unknown), unknown).toBe("other");
    }
  });

  it("every api endpoint app/ names is on web's list (a new one would be counted as 'other')", () => {
    const appDir = fileURLToPath(new URL("../../app/", import.meta.url));
    const named = new Set<string>();
    const visit = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) visit(file);
        else if (/\.tsx?$/.test(name)) for (const match of readFileSync(file, "utf8").matchAll(/\/api\/[a-z0-9/_-]+\.php/g)) named.add(match[0]);
      }
    };
    visit(appDir);
    expect(named.size).toBeGreaterThan(50);
    expect([...named].filter((endpoint) => !apiEndpoints.includes(endpoint))).toEqual([]);
  });
});

describe("web's route label: the deepest Remix route", () => {
  // The shape of the app's manifest: a root, an index, nested and pathless-parent routes, params and a splat.
  const route = (id: string, parentId: string | undefined, extra: { path?: string; index?: boolean }) => ({ id, parentId, ...extra, module: {} });
  const build = {
    routes: {
      root: route("root", undefined, { path: "" }),
      "routes/_index": route("routes/_index", "root", { index: true }),
      "routes/members._index": route("routes/members._index", "root", { path: "members", index: true }),
      "routes/members.$id": route("routes/members.$id", "root", { path: "members/:id" }),
      "routes/chats": route("routes/chats", "root", { path: "chats" }),
      "routes/chats_.$id": route("routes/chats_.$id", "root", { path: "chats/:id" }),
      "routes/staff": route("routes/staff", "root", { path: "staff" }),
      "routes/staff.members.$id": route("routes/staff.members.$id", "routes/staff", { path: "members/:id" }),
    },
  } as unknown as ServerBuild;
  const withSplat = { routes: { ...build.routes, "routes/$": route("routes/$", "root", { path: "*" }) } } as unknown as ServerBuild;

  it("names the route pattern, never the path: ids, locale prefixes and single fetch's .data come off", () => {
    const cases: [string, string][] = [
      ["/", "routes/_index"],
      ["/members", "routes/members._index"],
      ["/nl/members", "routes/members._index"],
      ["/members/12", "routes/members.$id"],
      ["/de/members/987654", "routes/members.$id"],
      ["/members.data", "routes/members._index"],
      ["/members/12.data", "routes/members.$id"],
      ["/_root.data", "routes/_index"],
      ["/nl/_root.data", "routes/_index"],
      ["/chats/5", "routes/chats_.$id"],
      ["/staff/members/44", "routes/staff.members.$id"],
      ["/__manifest", "__manifest"],
      ["/fr/__manifest", "__manifest"],
    ];
    for (const [requestPath, id] of cases) expect(remixRouteId(build, requestPath), requestPath).toBe(id);
  });

  it("a path no route matches is 'unmatched' (or the splat route's id): never the path itself", () => {
    for (const requestPath of ["/nope", "/members/1/2/3", "/xx/members", "/a@b.example", "/nope.data"]) {
      expect(remixRouteId(build, requestPath), requestPath).toBe("unmatched");
      expect(remixRouteId(withSplat, requestPath), requestPath).toBe("routes/$");
    }
  });

  it("thousands of distinct paths still give the few route ids", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 12_000; i++) ids.add(remixRouteId(withSplat, i % 2 ? `/members/${i}` : `/crawl/${i}`));
    expect([...ids].sort()).toEqual(["routes/$", "routes/members.$id"]);
  });
});

describe("request metrics and the api's route label", () => {
  const registry = new Registry();
  const families = requestFamilies(registry);
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const app = express();
    app.use(requestMetrics(families, apiRouteOf));
    const router = Router();
    router.get("/api/member.php", (_req, res) => void res.json({}));
    router.get("/api/staff/members/:id", (_req, res) => void res.status(404).json({}));
    router.post("/api/broken.php", (_req, res) => void res.status(500).json({}));
    app.use(router);
    app.use("/uploads", labelApiRoute("/uploads"), (_req, res) => void res.type("image/jpeg").send("jpeg"));
    app.use((_req, res) => void res.status(404).json({}));
    server = await listen(app);
  });
  afterAll(() => server.close());

  it("counts by the matched pattern and status class; unrouted requests as 'unmatched'", async () => {
    await fetch(`${server.base}/api/member.php?id=123`);
    await fetch(`${server.base}/api/staff/members/77`);
    await fetch(`${server.base}/api/staff/members/78`);
    await fetch(`${server.base}/api/broken.php`, { method: "POST" });
    await fetch(`${server.base}/uploads/3/photo.jpg`);
    await fetch(`${server.base}/someone@example.com`);
    await fetch(`${server.base}/api/member.php`, { method: "PROPFIND" });
    // The response's close event runs right after the answer is sent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const samples = parsePrometheusText(await registry.metrics());
    expect(sumOf(samples, "http_requests_total", { method: "GET", route: "/api/member.php", status: "2xx" })).toBe(1);
    expect(sumOf(samples, "http_requests_total", { route: "/api/staff/members/:id", status: "4xx" })).toBe(2);
    expect(sumOf(samples, "http_requests_total", { method: "POST", route: "/api/broken.php", status: "5xx" })).toBe(1);
    expect(sumOf(samples, "http_requests_total", { route: "/uploads", status: "2xx" })).toBe(1);
    expect(sumOf(samples, "http_requests_total", { route: "unmatched", status: "4xx" })).toBe(2);
    expect(sumOf(samples, "http_request_duration_seconds_count", { route: "/api/staff/members/:id" })).toBe(2);
    const routes = [...(labelValues(samples).get("route") ?? [])].sort();
    expect(routes).toEqual(["/api/broken.php", "/api/member.php", "/api/staff/members/:id", "/uploads", "unmatched"]);
    expect([...(labelValues(samples).get("method") ?? [])].sort()).toEqual(["GET", "POST", "other"]);
  });
});

describe("GET /metrics", () => {
  const token = "t".repeat(32);
  let configured: Awaited<ReturnType<typeof listen>>;
  let unconfigured: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const registry = new Registry();
    requestFamilies(registry).requests.inc({ method: "GET", route: "/x", status: "2xx" });
    const served = servedRegistry("api", [registry]);
    const app = express();
    app.get("/metrics", metricsEndpoint({ registry: served, token, logger: silent }));
    configured = await listen(app);
    const bare = express();
    bare.get("/metrics", metricsEndpoint({ registry: served, token: undefined, logger: silent }));
    unconfigured = await listen(bare);
  });
  afterAll(async () => {
    await configured.close();
    await unconfigured.close();
  });

  it("does not exist without METRICS_TOKEN, even with a token", async () => {
    expect((await fetch(`${unconfigured.base}/metrics`)).status).toBe(404);
    expect((await fetch(`${unconfigured.base}/metrics`, { headers: { Authorization: "Bearer " } })).status).toBe(404);
    expect((await fetch(`${unconfigured.base}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(404);
  });

  it("refuses a missing, wrong, longer, shorter or differently sent token with 401", async () => {
    for (const authorization of [undefined, "", `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, token, `Bearer ${"t".repeat(600)}`, "Bearer  "]) {
      const response = await fetch(`${configured.base}/metrics`, { headers: authorization === undefined ? {} : { Authorization: authorization } });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain("http_requests_total");
    }
  });

  it("answers the text format with the service label to the token, uncached", async () => {
    const response = await fetch(`${configured.base}/metrics`, { headers: { Authorization: `bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const samples = parsePrometheusText(await response.text());
    expect(sumOf(samples, "http_requests_total", { route: "/x", service: "api" })).toBe(1);
    expect(samples.every((s) => s.labels.service === "api")).toBe(true);
  });
});
