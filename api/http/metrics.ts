import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { Gauge, Registry } from "prom-client";
import { metricsEndpoint, requestMetrics, servedRegistry } from "#contract/metrics";
import type { Database } from "../db/client";
import type { EventHub } from "../events/hub";
import { apiRegistry, apiRequests, type JobName } from "../metrics";
import { pushBacklog } from "../jobs/push";
import { dataExportBacklog } from "../jobs/data-export";
import { notificationMailBacklog } from "../jobs/notification-mails";
import { pendingPayments } from "../jobs/settle-payments";

/*
 * The api's /metrics (docs/operations.md, Metrics): the process-wide families of api/metrics.ts and this app's own
 * state, read when Prometheus scrapes: the database pool, the open event streams and the job backlogs. The backlogs
 * cost a few counts per scrape (every 15 to 60 s), never a query on a request's way.
 */

/** A route pattern set by a middleware for requests no Express route answers (the uploaded photos). */
export function labelRoute(route: string): RequestHandler {
  return (_req, res, next) => {
    res.locals.metricsRoute = route;
    next();
  };
}

/**
 * The matched route's pattern (`/api/member.php`, `/api/staff/members/:id`): the router's base and the route's path,
 * never the request's own path. A request no route took (refused before routing, an unknown path) has none.
 */
export function apiRouteOf(req: Request, res: Response): string | null {
  if (req.route) return req.baseUrl + String((req.route as { path: unknown }).path);
  return typeof res.locals.metricsRoute === "string" ? res.locals.metricsRoute : null;
}

/** Counts and times every request by its route pattern (http_requests_total, http_request_duration_seconds). */
export const apiRequestMetrics: RequestHandler = requestMetrics(apiRequests, apiRouteOf);

/** GET /metrics of one api app: the process's families and this app's gauges, behind METRICS_TOKEN. */
export function apiMetricsEndpoint(deps: { database: Database; hub: EventHub; token: string | undefined; notificationMailMinutes: number; logger: Logger }): RequestHandler {
  return metricsEndpoint({ registry: servedRegistry("api", [apiRegistry, appGauges(deps)]), token: deps.token, logger: deps.logger });
}

function appGauges(deps: { database: Database; hub: EventHub; notificationMailMinutes: number; logger: Logger }): Registry {
  const { database, hub, logger } = deps;
  const registry = new Registry();
  const registers = [registry];
  const pending = sharedRead(() => pendingPayments(database.db));
  new Gauge({
    name: "db_pool_connections",
    help: "Database connections by state: total open, idle, and queries waiting for one (PGlite: its one connection)",
    labelNames: ["state"],
    registers,
    collect() {
      const use = database.poolUse?.();
      if (!use) return;
      this.set({ state: "total" }, use.total);
      if (use.idle !== undefined) this.set({ state: "idle" }, use.idle);
      if (use.waiting !== undefined) this.set({ state: "waiting" }, use.waiting);
    },
  });
  new Gauge({
    name: "event_streams_open",
    help: "Live event streams (GET /api/events.php) this api instance holds open",
    registers,
    collect() {
      this.set(hub.openStreamCount());
    },
  });
  // A failed read leaves the family empty for this scrape (an absent series alerts), never a stale number.
  new Gauge({
    name: "job_backlog",
    help: "Work waiting for a background job: queued pushes, notification mails due (counted up to 1000), exports asked for, payments pending",
    labelNames: ["job"],
    registers,
    async collect() {
      this.reset();
      try {
        const [push, mails, exports, payments] = await Promise.all([
          pushBacklog(database.db),
          notificationMailBacklog(database.db, deps.notificationMailMinutes),
          dataExportBacklog(database.db),
          pending(),
        ]);
        const backlog: [JobName, number][] = [
          ["push", push],
          ["notification-mails", mails],
          ["data-export", exports],
          ["settle-payments", payments.count],
        ];
        for (const [job, value] of backlog) this.set({ job }, value);
      } catch (error) {
        logger.warn({ err: error }, "job backlog not read for metrics");
      }
    },
  });
  new Gauge({
    name: "payments_pending_oldest_seconds",
    help: "Age of the oldest payment still pending (0: none is)",
    registers,
    async collect() {
      this.reset();
      try {
        this.set((await pending()).oldestSeconds);
      } catch (error) {
        logger.warn({ err: error }, "pending payments not read for metrics");
      }
    },
  });
  return registry;
}

/** One read for the gauges of one scrape (they collect at the same moment): the pending payments are counted once. */
function sharedRead<T>(read: () => Promise<T>, forMs = 1000): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > forMs) last = { at: now, value: read() };
    return last.value;
  };
}
