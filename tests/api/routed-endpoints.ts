import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { createApiApp } from "../../api/app";
import { loadApiConfig } from "../../api/config";
import type { Database } from "../../api/db/client";
import { registeredEndpoints } from "../../api/http/endpoint";

/**
 * Every method and path the api's Express app routes: the entries of the endpoint table (contract/endpoints/) its
 * routers registered (api/http/endpoint.ts), and the routes outside the table (Prometheus' scrape). The fuzz test
 * (tests/api/fuzz.test.ts) attacks each, and tests/api/openapi.test.ts holds the table to them.
 */

export type Endpoint = { method: string; path: string };

/** The routes outside the endpoint table: Prometheus' scrape (text format, behind its own token: docs/operations.md). */
export const routesOutsideTable: readonly Endpoint[] = [{ method: "GET", path: "/metrics" }];

/** The api app's routes without a database: createApiApp only wires routers; nothing here runs a query. */
export function apiEndpoints(): Endpoint[] {
  const dataDir = path.join(fileURLToPath(new URL("../../", import.meta.url)), "no-such-data-dir-for-route-listing");
  const config = loadApiConfig({ ...process.env, NODE_ENV: "test", DATA_DIR: dataDir, SESSION_SECRET: "y".repeat(40), DEMO_DATA: "false", DATABASE_URL: undefined, LOG_LEVEL: "silent" });
  const database = { db: {} as Database["db"], kind: "pglite", close: async () => undefined } as unknown as Database;
  createApiApp({ database, config, logger: pino({ level: "silent" }), mailer: { send: async () => undefined } as never });
  return [...[...registeredEndpoints].map((endpoint) => ({ method: endpoint.method.toUpperCase(), path: endpoint.path })), ...routesOutsideTable];
}
