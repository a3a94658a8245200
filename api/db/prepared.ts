import type { AnyColumn, Placeholder } from "drizzle-orm";
import type { Db } from "./client";

/**
 * A value a query is built with: the value itself, a placeholder that a prepared query is executed with, or a column
 * of the query around it (a subquery that takes its viewer from the row the outer query reads, say).
 */
export type Bindable<T> = T | Placeholder | AnyColumn<{ data: T }>;

/**
 * Queries the api runs on most requests, built once per database and shape and then executed with their values as
 * placeholders (drizzle's prepare). Building a query's SQL from drizzle's builder cost the api more than running it:
 * drizzle-orm took 2.08 ms of the api's 6.40 ms busy per logged-in `/members` under the profiler (ADR 024).
 * `shape` names what changes the SQL's text (which filters a search has, say); a shape's statement name is the same
 * in every connection, so PostgreSQL plans each once per connection (api/db/named-statements.ts). Keep the shapes
 * few: each is a statement.
 */
export function preparedPerDatabase<Q>(build: (db: Db, shape: string) => Q): (db: Db, shape?: string) => Q {
  const built = new WeakMap<Db, Map<string, Q>>();
  return (db, shape = "") => {
    let shapes = built.get(db);
    if (!shapes) built.set(db, (shapes = new Map()));
    let query = shapes.get(shape);
    if (query === undefined) shapes.set(shape, (query = build(db, shape)));
    return query;
  };
}
