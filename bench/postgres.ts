/** The bench's PostgreSQL helpers: scratch databases, and pgbench's TPC-B run as the server's own yardstick. */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import pg from "pg";
import { cpuSpent, postgresCpu } from "./cpu";

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** host:port/database of a PostgreSQL URL (or socket-directory/database, `?host=/dir`), without user or password. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    const socketDir = parsed.searchParams.get("host");
    if (socketDir?.startsWith("/")) return `${socketDir} (Unix socket)${parsed.pathname}`;
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "(unparsable DATABASE_URL)";
  }
}

/**
 * A new, empty database on the server of `url`, for one run: the api seeds its demo data into it and
 * bare Remix its table, and `drop` removes it at the end. The database named in the URL is not touched.
 */
export async function createScratchDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rdv_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch (error) {
    throw new Error(`could not create a scratch database on ${describeDatabase(url)} (the role needs CREATEDB): ${error instanceof Error ? error.message : String(error)}`);
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  log(`postgres: scratch database ${name} on ${describeDatabase(url)}`);
  return { url: scratch.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name}`) };
}

/** The server's WAL counters (pg_stat_wal, PostgreSQL 14 and later), which count for the whole server. */
export type WalCounters = { records: number; fullPageImages: number; bytes: number };

/**
 * pg_stat_wal read on a connection of its own, or null (a server before 14, or none answering). The counters are the
 * whole server's: their difference over a phase in which the bench's load is the only work is what that load wrote.
 */
export async function walCounters(url: string): Promise<WalCounters | null> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ wal_records: string; wal_fpi: string; wal_bytes: string }>("SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal");
    const row = rows[0];
    return row ? { records: Number(row.wal_records), fullPageImages: Number(row.wal_fpi), bytes: Number(row.wal_bytes) } : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** What one of `operations` wrote to the WAL on average between two readings of the counters. */
export function walPerOperation(before: WalCounters | null, after: WalCounters | null, operations: number): WalCounters | null {
  if (!before || !after || !(operations > 0)) return null;
  return {
    records: (after.records - before.records) / operations,
    fullPageImages: (after.fullPageImages - before.fullPageImages) / operations,
    bytes: (after.bytes - before.bytes) / operations,
  };
}

export type PgbenchResult =
  | {
      /** The mean of the runs' rates. */
      tps: number;
      /** Each run's rate, in order: one just before the paid sends and one just after (bench/run.ts). */
      runsTps: number[];
      clients: number;
      seconds: number;
      scale: number;
      latencyMs: number | null;
      /** PostgreSQL's CPU a transaction (a server on this machine), sampled while pgbench's connections are open. */
      postgresCpuMsPerTransaction: number | null;
      /** The WAL a transaction wrote, over the same window (the mean of the runs). */
      walPerTransaction: WalCounters | null;
    }
  | { error: string };

type PgbenchRun = { tps: number; latencyMs: number | null; postgresCpuMs: number | null; windowSeconds: number; wal: WalCounters | null };

/**
 * pgbench's TPC-B-like transaction (BEGIN, 3 UPDATEs, a SELECT and an INSERT, COMMIT) on a scratch database of the
 * server at `url`: `pgbench -i -s scale` once, then `pgbench -c clients -j 2 -T seconds` each time `run` is called.
 * The rate a plain client reaches on this machine and server is what the paid sends are compared with; the bench runs
 * it just before and just after the sends and compares with the mean, so that the machine's slower and faster spells
 * (other work on a shared machine moved pgbench's rate by 30% between minutes) weigh on both sides alike. An error
 * (no pgbench on the PATH) is reported, not thrown: the rest of the bench stands without it.
 */
export async function pgbenchYardstick(url: string, options: { clients: number; seconds: number; scale: number }): Promise<{ run: () => Promise<void>; result: () => PgbenchResult; drop: () => Promise<void> }> {
  const exec = promisify(execFile);
  const runs: PgbenchRun[] = [];
  let failure: string | null = null;
  const failed = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    failure = /ENOENT/.test(message) ? "pgbench is not installed (Debian: apt-get install postgresql-client)" : (message.split("\n")[0] ?? message);
  };
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | null = null;
  try {
    scratch = await createScratchDatabase(url);
    // The URL itself as pgbench's database (libpq expands it): the same host, port or Unix socket (`?host=/dir`),
    // user and password as the api connects with.
    await exec("pgbench", ["-i", "-q", "-s", String(options.scale), scratch.url]);
  } catch (error) {
    failed(error);
  }
  const database = scratch?.url;
  return {
    run: async () => {
      if (failure || !database) return;
      try {
        log(`pgbench: TPC-B, ${options.clients} clients, ${options.seconds} s, scale ${options.scale}...`);
        const running = exec("pgbench", ["-c", String(options.clients), "-j", "2", "-T", String(options.seconds), database]);
        // PostgreSQL's CPU from 1 s in to 1 s before the end, while pgbench's backends are all up, at the run's rate.
        const windowSeconds = options.seconds - 2;
        let postgresMs: number | null = null;
        let walBefore: WalCounters | null = null;
        let walAfter: WalCounters | null = null;
        if (windowSeconds > 0) {
          await sleep(1000);
          const before = postgresCpu();
          walBefore = await walCounters(url);
          await sleep(windowSeconds * 1000);
          postgresMs = cpuSpent(before, postgresCpu());
          walAfter = await walCounters(url);
        }
        const { stdout } = await running;
        const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
        const latency = /latency average = ([\d.]+) ms/.exec(stdout)?.[1];
        if (!tps) failure = `no tps in pgbench's output: ${stdout.slice(-300)}`;
        else {
          const transactions = Number(tps) * windowSeconds;
          runs.push({ tps: Number(tps), latencyMs: latency ? Number(latency) : null, postgresCpuMs: postgresMs, windowSeconds, wal: walPerOperation(walBefore, walAfter, transactions) });
        }
      } catch (error) {
        failed(error);
      }
    },
    result: () => {
      if (failure) return { error: failure };
      if (runs.length === 0) return { error: "pgbench did not run" };
      const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
      const latencies = runs.flatMap((r) => (r.latencyMs === null ? [] : [r.latencyMs]));
      const perTransaction = runs.flatMap((r) => (r.postgresCpuMs === null ? [] : [r.postgresCpuMs / (r.tps * r.windowSeconds)]));
      const wals = runs.flatMap((r) => (r.wal ? [r.wal] : []));
      return {
        tps: mean(runs.map((r) => r.tps)),
        runsTps: runs.map((r) => r.tps),
        clients: options.clients,
        seconds: options.seconds,
        scale: options.scale,
        latencyMs: latencies.length ? mean(latencies) : null,
        postgresCpuMsPerTransaction: perTransaction.length ? mean(perTransaction) : null,
        walPerTransaction: wals.length ? { records: mean(wals.map((w) => w.records)), fullPageImages: mean(wals.map((w) => w.fullPageImages)), bytes: mean(wals.map((w) => w.bytes)) } : null,
      };
    },
    drop: async () => {
      await scratch?.drop().catch(() => undefined);
    },
  };
}
