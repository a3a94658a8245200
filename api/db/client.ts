import path from "node:path";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema";
import { timeQueries } from "./query-timing";
import { NamedStatementClient } from "./named-statements";
import { observeDbQuery } from "../metrics";
import { projectPath } from "../project-files";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/**
 * `listen` subscribes to a NOTIFY channel (the event bus, docs/architecture.md): in-process on PGlite, on a
 * connection of its own on PostgreSQL, re-established after a failure; `onReconnect` then tells the
 * caller that notifications may have been missed meanwhile.
 */
export type Listen = (channel: string, onPayload: (payload: string) => void, onReconnect?: () => void) => Promise<() => Promise<void>>;
export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
  listen: Listen;
  /**
   * Runs `task` while no other api instance runs one on this database (PostgreSQL: a session advisory lock on a
   * connection of its own; PGlite has one process): the demo data's seeding at start, so instances started
   * together seed once. Migrations run under the same lock in openDatabase.
   */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>;
  /** PGlite only: the data directory as a tar file (the api tests seed one and load a copy per file). */
  dumpDataDir?: () => Promise<Blob>;
  /** The connections in use (db_pool_connections): PostgreSQL's pool, or PGlite's one connection (total only). */
  poolUse?: () => PoolUse;
  /**
   * Plain SQL on one connection held until `release` (session settings and temporary tables last between calls; a
   * text may hold several statements, the last one's rows are answered): the data generator (api/db/scale-data.ts)
   * and the query-plan tests.
   */
  session: () => Promise<SqlSession>;
};
export type SqlSession = { exec: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>; release: () => Promise<void> };
export type PoolUse = { total: number; idle?: number; waiting?: number };

const migrationsFolder = projectPath("api", "db", "migrations");

/**
 * PostgreSQL when a URL is given, else PGlite: in `dataDir/db`, or in memory when dataDir is null.
 * Migrations run before the database is handed out.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  loadDataDir?: Blob;
  /** An idle pooled connection the server closed (a restart, a failover, a dropped database): the pool replaces it. */
  onConnectionLost?: (error: Error) => void;
}): Promise<Database> {
  timeQueries(observeDbQuery);
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, Client: NamedStatementClient });
    // Without a listener the pool's "error" event would be an uncaught exception that ends the process.
    pool.on("error", (error) => options.onConnectionLost?.(error));
    const db = drizzlePg(pool, { schema });
    const exclusive = <T>(task: (client: pg.PoolClient) => Promise<T>) => withStartupLock(pool, task);
    // Instances started together: one migrates, the others wait and then find nothing left to do.
    await exclusive((client) => migratePg(drizzlePg(client, { schema }), { migrationsFolder }));
    const url = options.databaseUrl;
    const listeners: (() => Promise<void>)[] = [];
    return {
      db,
      kind: "postgres",
      session: async () => {
        const client = await pool.connect();
        return {
          exec: async (text, params) => {
            const result = (params ? await client.query(text, params) : await client.query(text)) as pg.QueryResult | pg.QueryResult[];
            const last = Array.isArray(result) ? result[result.length - 1] : result;
            return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
          },
          // A session's settings must not reach the pool's next user.
          release: async () => {
            await client.query("discard all").catch(() => undefined);
            client.release();
          },
        };
      },
      exclusive: (task) => exclusive(() => task()),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await Promise.all(listeners.map((stop) => stop()));
        await pool.end();
      },
      listen: async (channel, onPayload, onReconnect) => {
        const stop = await listenPg(url, channel, onPayload, onReconnect);
        listeners.push(stop);
        return stop;
      },
    };
  }
  let client: PGlite;
  if (options.dataDir === null) {
    client = new PGlite(options.loadDataDir ? { loadDataDir: options.loadDataDir } : undefined);
  } else {
    const dir = path.resolve(options.dataDir, "db");
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db,
    kind: "pglite",
    session: async () => ({
      exec: async (text, params) => {
        if (params) return { rows: (await client.query(text, params)).rows as Record<string, unknown>[] };
        const results = await client.exec(text);
        return { rows: (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[] };
      },
      release: async () => {
        await client.exec("discard all");
      },
    }),
    exclusive: (task) => task(),
    poolUse: () => ({ total: 1 }),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir("none"),
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(channel, onPayload);
      return () => unlisten();
    },
  };
}

/** Any constant no other advisory lock uses (the event bus's is in api/events/emit.ts). */
const startupLockKey = 0x72647673;

/** `task` on a pooled connection holding the startup lock, released (and the connection returned) whatever happens. */
async function withStartupLock<T>(pool: pg.Pool, task: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [startupLockKey]);
    try {
      return await task(client);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [startupLockKey]);
    }
  } finally {
    client.release();
  }
}

/** LISTEN on a dedicated connection; a lost connection is re-opened (1 s, then up to 30 s apart) and reported. */
async function listenPg(url: string, channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let delay = 1000;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    next.on("error", () => undefined);
    next.on("end", () => {
      if (stopped || client !== next) return;
      client = null;
      setTimeout(() => void retry(), delay).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
    delay = 1000;
  };
  const retry = async (): Promise<void> => {
    if (stopped) return;
    try {
      await connect();
      onReconnect?.();
    } catch {
      delay = Math.min(delay * 2, 30_000);
      setTimeout(() => void retry(), delay).unref();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => undefined);
  };
}
