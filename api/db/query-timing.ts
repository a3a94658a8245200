import { PgPreparedQuery } from "drizzle-orm/pg-core";

type RunQuery = (queryString: string, params: unknown[], query: () => Promise<unknown>) => Promise<unknown>;
type Timed = { queryWithCache: RunQuery; timedQueries?: true };

/**
 * Times every statement drizzle runs (db_query_duration_seconds, api/metrics.ts). Both drivers' prepared queries,
 * in a transaction or not, run their statement through PgPreparedQuery's queryWithCache (drizzle-orm 0.45), so one
 * wrapper there sees them all, on PGlite and on PostgreSQL alike. It is drizzle's internal method: when an upgrade
 * renames it, this throws at start (every api test opens a database) rather than timing nothing.
 */
export function timeQueries(observe: (seconds: number) => void): void {
  const prototype = PgPreparedQuery.prototype as unknown as Timed;
  if (prototype.timedQueries) return;
  const run = prototype.queryWithCache;
  if (typeof run !== "function") throw new Error("drizzle's PgPreparedQuery has no queryWithCache: the query timing needs a new hook");
  prototype.queryWithCache = function (this: unknown, queryString, params, query) {
    for (const listener of statementListeners) listener(queryString, params);
    const started = performance.now();
    return run.call(this, queryString, params, query).finally(() => observe((performance.now() - started) / 1000));
  };
  prototype.timedQueries = true;
}

const statementListeners = new Set<(queryString: string, params: unknown[]) => void>();

/**
 * Hears every statement drizzle runs, with its parameters, until the answered function is called: the query-plan test
 * (tests/api/query-plans.test.ts) explains what an endpoint ran. Nothing listens outside tests.
 */
export function watchStatements(listener: (queryString: string, params: unknown[]) => void): () => void {
  statementListeners.add(listener);
  return () => statementListeners.delete(listener);
}
