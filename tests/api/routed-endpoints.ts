import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { createApiApp } from "../../api/app";
import { loadApiConfig } from "../../api/config";
import type { Database } from "../../api/db/client";

/**
 * Every method and path the api's Express app routes, read from its router at run time: the fuzz test
 * (tests/api/fuzz.test.ts) attacks each, and tests/api/openapi.test.ts holds the OpenAPI document to them.
 */

/** A routed endpoint; `ALL` is a route for every method (`router.all`). */
export type Endpoint = { method: string; path: string };

type Layer = {
  route?: { path: string | RegExp | (string | RegExp)[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  regexp?: RegExp & { fast_slash?: boolean };
};

/** The mount prefix of a router layer (app.use("/x", router)), from Express 4's layer regexp. */
function mountPrefix(layer: Layer): string {
  if (!layer.regexp || layer.regexp.fast_slash) return "";
  return layer.regexp.source
    .replace(/^\^/, "")
    .replace(/\\\/\?\(\?=\\\/\|\$\)$/, "")
    .replace(/\\\//g, "/");
}

/** Concrete paths: route params get a sample value, so /api/x/:id becomes /api/x/2. */
function concretePath(route: string | RegExp): string | null {
  if (typeof route !== "string") return null;
  return route.replace(/:(\w+)\??(\([^)]*\))?/g, "2").replace(/\*/g, "x");
}

/** Every method and path an Express app routes (walks app._router.stack and its routers). */
export function routedEndpoints(app: unknown): Endpoint[] {
  const stack = (app as { _router?: { stack: Layer[] } })._router?.stack ?? [];
  const found: Endpoint[] = [];
  const walk = (layers: Layer[], prefix: string) => {
    for (const layer of layers) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          const concrete = concretePath(p);
          if (concrete === null) continue;
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on) found.push({ method: method === "_all" ? "ALL" : method.toUpperCase(), path: prefix + concrete });
          }
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, prefix + mountPrefix(layer));
      }
    }
  };
  walk(stack, "");
  return found;
}

/** The api app's routes without a database: createApiApp only wires routers; nothing here runs a query. */
export function apiEndpoints(): Endpoint[] {
  const dataDir = path.join(fileURLToPath(new URL("../../", import.meta.url)), "no-such-data-dir-for-route-listing");
  const config = loadApiConfig({ ...process.env, NODE_ENV: "test", DATA_DIR: dataDir, SESSION_SECRET: "y".repeat(40), DEMO_DATA: "false", DATABASE_URL: undefined, LOG_LEVEL: "silent" });
  const database = { db: {} as Database["db"], kind: "pglite", close: async () => undefined } as unknown as Database;
  const app = createApiApp({ database, config, logger: pino({ level: "silent" }), mailer: { send: async () => undefined } as never });
  return routedEndpoints(app);
}
