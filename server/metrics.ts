import { createRequire } from "node:module";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type * as RouterNamespace from "@remix-run/router";
import type { AgnosticRouteObject } from "@remix-run/router";
import type { ServerBuild } from "@remix-run/node";
import { Counter, Histogram } from "prom-client";
import { metricsEndpoint, processRegistry, requestFamilies, requestMetrics, servedRegistry, statusClass, unmatchedRoute } from "#contract/metrics";
import type { UpstreamTiming, WebLoadContext } from "./context";
import { apiEndpoints } from "./api-endpoints";
import { splitLocale } from "../app/utils/paths";

/*
 * web's metrics (docs/operations.md, Metrics): its requests by route pattern (the Remix route a page matched, the
 * proxy, the static files) and the calls its pages make to the api, per endpoint. Made once per process; server
 * code only (app/ never imports this, so prom-client stays out of the browser and out of the Remix build).
 */

const registry = processRegistry();
const webRequests = requestFamilies(registry);
const apiCalls = new Counter({
  name: "api_calls_total",
  help: "Calls web's pages made to the api (each attempt of a retried call), by endpoint and status class (network_error: no answer)",
  labelNames: ["endpoint", "status"],
  registers: [registry],
});
const apiCallDuration = new Histogram({
  name: "api_call_duration_seconds",
  help: "Time until the api's answer arrived, per call web's pages made, by endpoint",
  labelNames: ["endpoint"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const knownEndpoints = new Set(apiEndpoints);

/** The endpoint of an api call: its path without the query when it is one web calls (server/api-endpoints.ts), else "other". */
export function apiEndpointLabel(path: string): string {
  const query = path.indexOf("?");
  const pathname = query === -1 ? path : path.slice(0, query);
  return knownEndpoints.has(pathname) ? pathname : "other";
}

/** Counts the api calls a page made (the request's upstream timings, also its log line's), once its response ended. */
function countApiCalls(upstream: readonly UpstreamTiming[]): void {
  for (const call of upstream) {
    const endpoint = apiEndpointLabel(call.path);
    apiCalls.inc({ endpoint, status: call.status === "network_error" ? call.status : statusClass(call.status) });
    apiCallDuration.observe({ endpoint }, call.ms / 1000);
  }
}

/** Route labels web sets on the way (res.locals.metricsRoute): the proxy, the static files, or a page of Remix. */
export const webRoutes = { proxyApi: "proxy /api", proxyUploads: "proxy /uploads", staticFiles: "static", page: "page" } as const;

/** Sets the route label of the requests a middleware stage takes; a later stage overrides it. */
export function labelRoute(route: (typeof webRoutes)[keyof typeof webRoutes]): RequestHandler {
  return (_req, res, next) => {
    res.locals.metricsRoute = route;
    next();
  };
}

const router = createRequire(import.meta.url)("@remix-run/router") as typeof RouterNamespace;
/** Distinct paths remembered per build; beyond it the memo starts over (a crawler's endless URLs cannot grow it). */
const maxRememberedPaths = 5000;
const routeTables = new WeakMap<ServerBuild, { tree: AgnosticRouteObject[]; byPath: Map<string, string> }>();

/**
 * The id of the deepest Remix route matching a path ("routes/members._index"), with the locale prefix and a single
 * fetch's `.data` suffix taken off as Remix does; "unmatched" when none does. Remembered per path: the same path
 * always matches the same route of a build.
 */
export function remixRouteId(build: ServerBuild, requestPath: string): string {
  let table = routeTables.get(build);
  if (!table) routeTables.set(build, (table = { tree: routeTree(build), byPath: new Map() }));
  const known = table.byPath.get(requestPath);
  if (known !== undefined) return known;
  const path = pagePath(splitLocale(requestPath).path);
  // Remix answers its route discovery (/__manifest) itself, before matching.
  const matches = path === "/__manifest" ? null : router.matchRoutes(table.tree, path);
  const id = path === "/__manifest" ? "__manifest" : (matches?.[matches.length - 1]?.route.id ?? unmatchedRoute);
  if (table.byPath.size >= maxRememberedPaths) table.byPath.clear();
  table.byPath.set(requestPath, id);
  return id;
}

/** The page a request asks for: a single fetch's `/members.data` is `/members`, and `/_root.data` is `/`. */
function pagePath(path: string): string {
  if (path === "/_root.data") return "/";
  if (path.endsWith(".data")) return path.slice(0, -".data".length) || "/";
  return path;
}

/** The build's flat route manifest as the nested tree matchRoutes takes. */
function routeTree(build: ServerBuild): AgnosticRouteObject[] {
  const children = new Map<string | undefined, AgnosticRouteObject[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const list = children.get(route.parentId) ?? [];
    list.push(route.index ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive } : { id: route.id, path: route.path, caseSensitive: route.caseSensitive });
    children.set(route.parentId, list);
  }
  const attach = (routes: AgnosticRouteObject[]): AgnosticRouteObject[] =>
    routes.map((route) => {
      const below = children.get(route.id);
      return below && !route.index ? { ...route, children: attach(below) } : route;
    });
  return attach(children.get(undefined) ?? []);
}

/**
 * The route label of a finished request: the stage that took it (proxy, static files), the Remix route a page
 * matched, an Express route of web's own (/healthz); null when it reached none (refused by the host check).
 */
export function webRouteOf(currentBuild: () => ServerBuild | undefined): (req: Request, res: Response) => string | null {
  return (req, res) => {
    const stage = res.locals.metricsRoute as string | undefined;
    if (stage === webRoutes.page) {
      const build = currentBuild();
      return build ? remixRouteId(build, req.path) : webRoutes.page;
    }
    if (stage) return stage;
    return req.route ? String((req.route as { path: unknown }).path) : null;
  };
}

/** Counts and times every request of web by its route label, and the api calls of each page. */
export function webRequestMetrics(currentBuild: () => ServerBuild | undefined): RequestHandler {
  return requestMetrics(webRequests, webRouteOf(currentBuild), (res) => {
    const context = res.locals.loadContext as WebLoadContext | undefined;
    if (context) countApiCalls(context.upstream);
  });
}

/** GET /metrics of web, behind METRICS_TOKEN. */
export function webMetricsEndpoint(token: string | undefined, logger: Logger): RequestHandler {
  return metricsEndpoint({ registry: servedRegistry("web", [registry]), token, logger });
}
