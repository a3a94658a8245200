import { createHash } from "node:crypto";
import pg from "pg";
import { sql } from "drizzle-orm";

/**
 * The most statement texts that get a name (each connection keeps at most this many prepared statements on the
 * server). The api's statements are a bounded set of shapes; texts past this (a long `in (...)` list, say) run
 * unnamed, as before.
 */
export const maxNamedStatements = 500;

/**
 * A statement whose text holds this runs unnamed, planned with its values on every run (ADR 026): one whose best plan
 * depends on them (a date range, a time window), where the generic plan a named statement settles on after five runs
 * reads every matching row. `planEachRun` puts it in a drizzle query's conditions; a drizzle prepared query keeps its
 * built SQL (ADR 024) and loses only its server-side name.
 */
export const planEachRunMarker = "/* plan each run */";
export const planEachRun = sql.raw(`true ${planEachRunMarker}`);

const names = new Map<string, string>();

/** The statement name for `text`: a hash of it, the same in every connection and every api instance; null past the cap. */
export function statementName(text: string): string | null {
  const known = names.get(text);
  if (known) return known;
  if (names.size >= maxNamedStatements) return null;
  const name = `q_${createHash("sha256").update(text).digest("base64url").slice(0, 22)}`;
  names.set(text, name);
  return name;
}

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown };

/**
 * A pg client that runs every parameterised statement as a named prepared statement (ADR 021): PostgreSQL parses
 * it once per connection and, after its first executions, keeps a generic plan, where an unnamed statement is
 * parsed and planned again on every run. Planning was most of PostgreSQL's time on a logged-in `/members` (the
 * member with its counts, 1.2 ms of 1.4 ms). A statement without parameters (a migration's DDL, which may hold
 * several commands) runs as given, and so does one that already has a name.
 */
export class NamedStatementClient extends pg.Client {}

const plainQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
NamedStatementClient.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  if (config !== null && typeof config === "object") {
    const { text, name, values } = config as QueryConfig;
    const params = Array.isArray(rest[0]) ? rest[0] : values;
    if (typeof text === "string" && text.includes(planEachRunMarker)) {
      if (name !== undefined) config = { ...config, name: undefined };
    } else if (typeof text === "string" && name === undefined && Array.isArray(params) && params.length > 0) {
      const named = statementName(text);
      if (named) config = { ...config, name: named };
    }
  }
  return plainQuery.call(this, config, ...rest);
} as typeof pg.Client.prototype.query;
