import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/*
 * What web and the api share of their Prometheus metrics (docs/operations.md, Metrics): the process registry,
 * the request families and the /metrics endpoint behind a bearer token. Server code only: nothing in app/ imports
 * this (prom-client would land in the browser bundle). Every label value comes from a fixed list or a route
 * pattern, never from a raw path, an id or an address, so each family has a bounded number of series.
 */

export type ServiceName = "web" | "api";

/**
 * The process's registry: Node's default metrics (CPU, memory, event loop lag, GC) and every family a service
 * registers. Made once per process (a metric name registers once); `service` is added when served (servedRegistry).
 */
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** The registries one app serves, as one, each series labelled with the service (web or api). */
export function servedRegistry(service: ServiceName, registries: Registry[]): Registry {
  const served = Registry.merge(registries);
  served.setDefaultLabels({ service });
  return served;
}

/** A status code as its class: five values instead of every code a handler may answer. */
export function statusClass(status: number): string {
  if (status >= 100 && status < 600) return `${Math.floor(status / 100)}xx`;
  return "other";
}

const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The request method, or "other" (Node's parser accepts some 30 methods; only these are served). */
export function methodLabel(method: string): string {
  return knownMethods.has(method) ? method : "other";
}

/** A value of `allowed`, or "other": a label never takes a value from outside its list. */
export function oneOf<T extends string>(value: string, allowed: readonly T[]): T | "other" {
  return (allowed as readonly string[]).includes(value) ? (value as T) : "other";
}

/** Requests that never reached a route (refused before routing, unknown paths): one label value for all of them. */
export const unmatchedRoute = "unmatched";

/** The route pattern of a request, read when its response has ended (null: it reached no route). */
export type RouteOf = (req: Request, res: Response) => string | null;

/** The two request families of a service, made once per process (requestMetrics uses them). */
export type RequestFamilies = { requests: Counter<"method" | "route" | "status">; duration: Histogram<"method" | "route"> };

/**
 * http_requests_total{method,route,status} and http_request_duration_seconds{method,route}. `status` is the class of
 * the answer, or "aborted" when the client left before any answer.
 */
export function requestFamilies(registry: Registry): RequestFamilies {
  return {
    requests: new Counter({ name: "http_requests_total", help: "Requests answered, by method, route pattern and status class", labelNames: ["method", "route", "status"], registers: [registry] }),
    duration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival until its response ended, by method and route pattern",
      labelNames: ["method", "route"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
  };
}

/**
 * Counts and times each request when its response ends, or its connection closes (an event stream, an abandoned
 * download): one counter increment and one histogram observation, no other work on the request's way. `ended` counts
 * what else the request did (web: its api calls).
 */
export function requestMetrics(families: RequestFamilies, routeOf: RouteOf, ended?: (res: Response) => void): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once("close", () => {
      const method = methodLabel(req.method);
      const route = routeOf(req, res) ?? unmatchedRoute;
      families.requests.inc({ method, route, status: res.headersSent ? statusClass(res.statusCode) : "aborted" });
      families.duration.observe({ method, route }, (performance.now() - started) / 1000);
      ended?.(res);
    });
    next();
  };
}

/**
 * GET /metrics in Prometheus' text format, never public: without METRICS_TOKEN the endpoint does not exist (404);
 * a request without `Authorization: Bearer <METRICS_TOKEN>` gets 401. The token is compared in constant time (as
 * SHA-256 digests, so its length does not show either).
 */
export function metricsEndpoint(options: { registry: Registry; token: string | undefined; logger: Logger }): RequestHandler {
  const expected = options.token ? digest(options.token) : null;
  return (req, res) => {
    res.set("Cache-Control", "no-store");
    if (!expected) return void res.status(404).type("text/plain").send("Not Found\n");
    const match = /^Bearer\s+(\S{1,512})$/i.exec(req.get("authorization") ?? "");
    if (!match || !timingSafeEqual(digest(match[1] ?? ""), expected)) {
      if (match) ((req as { log?: Logger }).log ?? options.logger).warn({ status: 401 }, "metrics scrape with a wrong token");
      return void res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain").send("Unauthorized\n");
    }
    options.registry.metrics().then(
      (text) => res.set("Content-Type", options.registry.contentType).send(text),
      (error: unknown) => {
        options.logger.error({ err: error }, "metrics collection failed");
        res.status(503).type("text/plain").send("Metrics unavailable\n");
      },
    );
  };
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
