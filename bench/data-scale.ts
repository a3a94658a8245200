/**
 * `npm run bench -- --data [demo|small|medium|large] [--engine postgres|pglite] [--regenerate]`: how the api's answers
 * and logged-in /members hold up when the database is large, on PostgreSQL (the default; DATABASE_URL, else the local
 * server's Unix socket) or on the embedded PGlite (`--engine pglite`: no DATABASE_URL, the api's DATA_DIR).
 *
 * Two databases side by side in one run: `rdv_scale_demo`, dropped and made fresh each run (the api makes its demo
 * data, ~300 members), and `rdv_scale_<size>` (small: 50,000 members and 500,000 messages; medium: 100,000 and
 * 1,000,000; large, the default: 1,000,000 and 10,000,000), made by scripts/seed.ts and kept between runs
 * (bench/data-scale-db.ts). `--data demo` measures the demo database alone. On PGlite the demo side is a fresh
 * temporary DATA_DIR each run and the generated one .cache/scale-data/pglite-<size>/data, kept the same way; as PGlite
 * is one process per directory, the bench prepares each one (and the demo data) before its api starts.
 *
 * For each database an api of its own (DATA_DIR a temp dir, APP_MODE=demo, CLIENT_LIMIT_SCALE=1000) and a web in front
 * of it. Every GET a member page or the staff console asks (bench/data-scale-endpoints.ts) is timed one request at a
 * time, straight to the api as web asks it: 5 warm-up requests, then 40 timed (median, p95), the databases in turns
 * row by row; then three writes (a paid message, a like, a sandbox payment start), 40 each after 5; then logged-in
 * /members through web at 50 connections for 15 s after a warm-up until steady (bench/load.ts). Aims: a row's large
 * median under 50 ms and at most 3× the demo's; /members' pages a second at large size at least 90% of demo's.
 *
 * Prints one table and writes bench/results/data-scale-<size>.json (on PGlite data-scale-pglite-<size>.json). Exits 0 when aims are missed (a measurement),
 * 1 when a request answers other than 2xx, a GET route is neither timed nor excused, or the bench itself fails.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Secret, TOTP } from "otpauth";
import { sessionCookieName } from "../api/domain/sessions";
import { staffSessionCookieName } from "../api/domain/staff/sessions";
import { demoTotpSecret } from "../api/db/seed-staff";
import { serviceNodeFlags } from "../scripts/start-env";
import { apiEndpoints } from "../tests/api/routed-endpoints";
import { timedGets, uncoveredGets, untimedGets, type EndpointIds, type TimedGet, type Who } from "./data-scale-endpoints";
import { databaseUrl, ensureGenerated, pgliteTarget, prepare, preparePglite, recreateDatabase, sizesOf, stopGenerator, type Engine, type Prepared, type Preset, type Sizes } from "./data-scale-db";
import { answersOk, browserHeaders, logIn } from "./http";
import { describeWarmUp, measure, stopRunning, warmUp, type LoadResult } from "./load";
import { describeDatabase } from "./postgres";
import { ProcessGroup, delay, waitUntil } from "./processes";

const root = fileURLToPath(new URL("..", import.meta.url));
const defaultDatabaseUrl = "postgres://postgres@localhost/test?host=/var/run/postgresql";
/** Both apis and the generator use it, so the demo staff's sealed TOTP secret opens (bench/data-scale-db.ts reseals it too, on PGlite before the api starts). */
const sessionSecret = "rdv-data-scale-bench-session-secret-not-for-production";
const password = "demo-password";
const premiumEmail = "premium@example.com";
const staffEmails: Record<Exclude<Who, "member">, string> = { admin: "admin@example.com", operator: "operator@example.com" };
const warmUps = 5;
const timedRuns = 40;
/** A row whose first request takes longer (seconds on PGlite at size) gets 1 warm-up and this many timed runs instead. */
const slowMs = 1000;
const slowRuns = 5;
/** A request that has not answered by then fails its row (and only its row). */
const requestTimeoutMs = 180_000;
const loadSeconds = 15;
const loadConnections = 50;
const aimMs = 50;
const aimTimesDemo = 3;
const loadAim = 0.9;
/** Ports of the api and web of each database (44xx, as the brief of this bench asks). */
const ports = { demo: { api: 4401, web: 4411 }, scale: { api: 4402, web: 4412 } };
/** The client address the api sees (it trusts X-Client-IP from loopback, as from web). */
const clientIp = "198.18.7.1";

type Size = "demo" | Preset;

function log(message: string): void {
  process.stderr.write(`data-scale: ${message}\n`);
}

/** The value of `--name value` or `--name=value`; `fallback` when the option is there without a value, null when absent. */
function option(args: string[], name: string, fallback: string): string | null {
  const inline = args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
  const index = args.indexOf(name);
  if (inline === undefined && index < 0) return null;
  const next = index >= 0 ? args[index + 1] : undefined;
  return inline ?? (next && !next.startsWith("--") ? next : fallback);
}

/** --data [demo|small|medium|large] or --data=<size>; --data alone: large. */
export function dataSize(args: string[]): Size {
  const value = option(args, "--data", "large") ?? "large";
  if (value !== "demo" && value !== "small" && value !== "medium" && value !== "large") throw new Error(`--data: "${value}" is none of demo, small, medium, large`);
  return value;
}

/** --engine [postgres|pglite] or --engine=<engine>; default postgres. */
export function dataEngine(args: string[]): Engine {
  const value = option(args, "--engine", "postgres") ?? "postgres";
  if (value !== "postgres" && value !== "pglite") throw new Error(`--engine: "${value}" is neither postgres nor pglite`);
  return value;
}

type Stats = { median: number; p95: number; min: number; max: number; runs: number };

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, p95: at(0.95), min: sorted[0] ?? Number.NaN, max: sorted[sorted.length - 1] ?? Number.NaN, runs: sorted.length };
}

/** A request that answered other than 2xx: a broken bench or api, printed and failing the run. */
type Failure = { database: string; row: string; method: string; path: string; status: number; body: string };

/** One database's services and sessions. */
type Side = {
  label: "demo" | Preset;
  database: string;
  api: string;
  web: string;
  prepared: Prepared;
  sizes: Sizes;
  cookies: Record<Who, string>;
  gets: Map<string, TimedGet | { name: string; missing: string }>;
  payment: { packageId: number; method: string };
};

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A request straight to the api as web makes it: the site's forwarded host, the client's address, the session. */
async function call(api: string, method: string, pathname: string, cookie: string | null, body?: unknown): Promise<{ status: number; text: string; ms: number; headers: Headers }> {
  const headers: Record<string, string> = { accept: "application/json", "x-forwarded-host": "localhost", "x-forwarded-proto": "http", "x-client-ip": clientIp };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  const started = performance.now();
  const response = await fetch(`${api}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual", signal: AbortSignal.timeout(requestTimeoutMs) });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started, headers: response.headers };
}

function cookieOf(headers: Headers, name: string): string | null {
  const pair = headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((p) => p.startsWith(`${name}=`) && p.length > name.length + 1);
  return pair ?? null;
}

async function memberLogin(api: string): Promise<string> {
  const answer = await call(api, "POST", "/api/user.php", null, { email: premiumEmail, password });
  const cookie = cookieOf(answer.headers, sessionCookieName);
  if (answer.status !== 200 || !cookie) throw new Error(`login as ${premiumEmail}: POST /api/user.php answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return cookie;
}

/** Staff login with the demo TOTP secret; waits for the next 30 s step when this account has used the current one (`last`). */
async function staffLogin(api: string, email: string, last: number | null): Promise<string> {
  const step = () => Math.floor(Date.now() / 30_000);
  if (last !== null && last >= step()) {
    const wait = (last + 1) * 30_000 - Date.now() + 500;
    log(`${email} used this TOTP step already: waiting ${(wait / 1000).toFixed(0)} s for the next`);
    await delay(wait);
  }
  const code = new TOTP({ secret: Secret.fromBase32(demoTotpSecret), algorithm: "SHA1", digits: 6, period: 30 }).generate();
  const answer = await call(api, "POST", "/api/staff/login.php", null, { email, password, code });
  const cookie = cookieOf(answer.headers, staffSessionCookieName);
  if (answer.status !== 200 || !cookie) throw new Error(`staff login as ${email}: POST /api/staff/login.php answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return cookie;
}

async function getJson<T>(side: { api: string; label: string }, pathname: string, cookie: string, failures: Failure[]): Promise<T | null> {
  const answer = await call(side.api, "GET", pathname, cookie);
  if (answer.status < 200 || answer.status > 299) {
    failures.push({ database: side.label, row: "(setup)", method: "GET", path: pathname, status: answer.status, body: answer.text.slice(0, 500) });
    return null;
  }
  return JSON.parse(answer.text) as T;
}

/** Builds web when build/ is missing or older than app/ (as `npm run build`). */
function ensureBuild(): void {
  const serverBuild = path.join(root, "build/server/index.js");
  let newest = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  visit(path.join(root, "app"));
  if (existsSync(serverBuild) && statSync(serverBuild).mtimeMs >= newest) return;
  log(existsSync(serverBuild) ? "build/ is older than app/: npm run build..." : "no build/: npm run build...");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", process.stderr, process.stderr] });
  if (result.status !== 0 || !existsSync(serverBuild)) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
}

function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "API_URL", "PORT", "HOST", "API_PORT", "API_HOST", "DATA_DIR", "SESSION_SECRET", "DEMO_DATA", "SMTP_URL", "CLIENT_LIMIT_SCALE"]) delete env[name];
  return { ...env, NODE_ENV: "production", APP_MODE: "demo", LOG_LEVEL: "warn", ...extra };
}

/** A path relative to the repository when inside it. */
const shown = (dir: string) => (path.relative(root, dir).startsWith("..") ? dir : path.relative(root, dir));

type Row = { name: string; who: Who | null; results: Record<string, Stats | { missing: string } | { failed: number }> };

/**
 * Times `request` 5 + 40 times on one side (1 + 5 when the first answer took over a second: Stats.runs says so); a
 * non-2xx answer or a request timing out ends the row there and is kept as a failure (status 0: no answer).
 */
async function timeRow(side: Side, row: string, request: (i: number) => Promise<{ status: number; text: string; ms: number; method: string; path: string }>, failures: Failure[]): Promise<Stats | { failed: number }> {
  const times: number[] = [];
  let warm = warmUps;
  let runs = timedRuns;
  for (let i = 0; i < warm + runs; i++) {
    const answer = await request(i).catch((error: unknown) => ({ status: 0, text: error instanceof Error ? error.message : String(error), ms: Number.NaN, method: "?", path: row }));
    if (answer.status < 200 || answer.status > 299) {
      failures.push({ database: side.label, row, method: answer.method, path: answer.path, status: answer.status, body: answer.text.slice(0, 500) });
      return { failed: answer.status };
    }
    if (i === 0 && answer.ms > slowMs) {
      warm = 1;
      runs = slowRuns;
    }
    if (i >= warm) times.push(answer.ms);
  }
  return stats(times);
}

const fmt = (ms: number | undefined) => (ms === undefined || !Number.isFinite(ms) ? "-" : ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

function verdict(demo: Stats | undefined, large: Stats | undefined, scaled: boolean): string {
  if (!scaled) return demo ? (demo.median < aimMs ? "ok" : `MISSED (≥ ${aimMs} ms)`) : "-";
  if (!large || !demo) return "-";
  const under = large.median < aimMs;
  const ratio = large.median <= demo.median * aimTimesDemo;
  if (under && ratio) return "ok";
  return `MISSED (${[!under ? `≥ ${aimMs} ms` : "", !ratio ? `> ${aimTimesDemo}× demo` : ""].filter(Boolean).join(", ")})`;
}

/** A row's medians for the progress log. */
function progress(row: Row): string {
  return Object.entries(row.results)
    .map(([label, r]) => `${label} ${"median" in r ? `${fmt(r.median)} ms` : "missing" in r ? "n/a" : `HTTP ${r.failed}`}`)
    .join(", ");
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("-|-"), ...rows.map(line)].join("\n");
}

export async function runDataScale(args: string[]): Promise<number> {
  const size = dataSize(args);
  const engine = dataEngine(args);
  const pglite = engine === "pglite";
  const regenerate = args.includes("--regenerate");
  const base = process.env.DATABASE_URL || defaultDatabaseUrl;
  const cleanups: (() => Promise<void>)[] = [];
  const group = new ProcessGroup(root);
  cleanups.push(() => group.stopAll());
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const step of cleanups.reverse()) await step().catch((error: unknown) => log(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
    })());
  const onSignal = () => {
    log("interrupted: stopping the services...");
    stopRunning();
    stopGenerator();
    void cleanup().finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const failures: Failure[] = [];
  const started = Date.now();
  try {
    // Every GET route must be timed or excused (the paths do not depend on the ids).
    const dummy: EndpointIds = { member: { userId: 1, profileId: 1, email: "a@b.c", firstName: "A" }, conversationId: 1, paymentId: 1, reportId: 1, fictionalProfileId: 1, siteId: 1, inboxConversationId: 1 };
    const uncovered = uncoveredGets(
      apiEndpoints(),
      timedGets(dummy).flatMap((g) => ("path" in g ? [g.path] : [])),
    );
    for (const p of uncovered) log(`GET ${p} is neither timed nor excused in bench/data-scale-endpoints.ts: add it to timedGets or untimedGets`);

    ensureBuild();
    const scaled = size !== "demo";
    const scaleTarget = scaled ? (pglite ? pgliteTarget(root, size) : { engine: "postgres" as const, base, name: `rdv_scale_${size}` }) : null;
    // The large data first: when it cannot be made, nothing else has started.
    if (scaled && scaleTarget) await ensureGenerated({ root, target: scaleTarget, preset: size, force: regenerate, secret: sessionSecret });
    let demoDataDir: string | null = null;
    if (pglite) {
      demoDataDir = await mkdtemp(path.join(os.tmpdir(), "rdv-data-scale-pglite-demo-"));
      const dir = demoDataDir;
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      log(`demo: fresh PGlite DATA_DIR ${demoDataDir} (the demo data made before its api starts)`);
    } else {
      log(`rdv_scale_demo: fresh (drop, create; the api makes the demo data)`);
      await recreateDatabase(base, "rdv_scale_demo");
    }

    // database: the PostgreSQL database's name, or on PGlite the DATA_DIR (relative to the repository when inside it).
    const plan = [
      { label: "demo" as const, database: demoDataDir ?? "rdv_scale_demo", ports: ports.demo },
      ...(scaled && scaleTarget ? [{ label: size, database: scaleTarget.engine === "pglite" ? scaleTarget.dataDir : scaleTarget.name, ports: ports.scale }] : []),
    ];
    for (const p of plan) for (const port of [p.ports.api, p.ports.web]) if (!(await portFree(port))) throw new Error(`port ${port} is taken: stop what listens there`);

    const sides: Side[] = [];
    const prepareOptions = { secret: sessionSecret, premiumEmail, staffEmails: Object.values(staffEmails), likes: warmUps + timedRuns };
    for (const p of plan) {
      const api = `http://127.0.0.1:${p.ports.api}`;
      const web = `http://127.0.0.1:${p.ports.web}`;
      let apiEnv: Record<string, string>;
      /** The prepared accounts and ids, and the counts: on PostgreSQL once the api is up, on PGlite made before it starts. */
      let preparedAndSizes: () => Promise<{ prepared: Prepared; sizes: Sizes }>;
      if (pglite) {
        // One process per data directory: everything the bench does in the database happens before the api opens it.
        log(`${p.label}: preparing PGlite in ${shown(p.database)} (before its api starts)...`);
        const done = await preparePglite(p.database, prepareOptions);
        preparedAndSizes = async () => done;
        apiEnv = { DATA_DIR: p.database };
      } else {
        const url = databaseUrl(base, p.database);
        const dataDir = await mkdtemp(path.join(os.tmpdir(), "rdv-data-scale-"));
        cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
        apiEnv = { DATABASE_URL: url, DATA_DIR: dataDir };
        preparedAndSizes = async () => ({ prepared: await prepare(url, prepareOptions), sizes: await sizesOf(url) });
      }
      log(`${p.label}: api on ${api}, web on ${web} (${pglite ? "PGlite" : `database ${describeDatabase(databaseUrl(base, p.database))}`})`);
      const t0 = Date.now();
      group.start(`api-${p.label}`, "api/main.ts", serviceEnv({ ...apiEnv, API_PORT: String(p.ports.api), API_HOST: "127.0.0.1", SESSION_SECRET: sessionSecret, CLIENT_LIMIT_SCALE: "1000" }), [], serviceNodeFlags);
      group.start(`web-${p.label}`, "server/main.ts", serviceEnv({ PORT: String(p.ports.web), HOST: "127.0.0.1", API_URL: api }), [], serviceNodeFlags);
      await waitUntil(`the ${p.label} api (demo data made on first start)`, group, 600_000, () => answersOk(`${api}/healthz`));
      await waitUntil(`the ${p.label} web`, group, 120_000, () => answersOk(`${web}/healthz`));
      log(`${p.label}: up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      const { prepared, sizes } = await preparedAndSizes();
      if (prepared.likeTo.length < warmUps + timedRuns) throw new Error(`${p.label}: only ${prepared.likeTo.length} members left for the premium member to like`);
      if (prepared.messageTo.length === 0) throw new Error(`${p.label}: no member for the premium member to write to`);
      log(`${p.label}: ${sizes.members.toLocaleString("en-US")} members (${sizes.defaultSiteMembers.toLocaleString("en-US")} on the default site), ${sizes.messages.toLocaleString("en-US")} messages, ${(sizes.databaseBytes / 1e9).toFixed(2)} GB`);
      const cookies: Record<Who, string> = {
        member: await memberLogin(api),
        admin: await staffLogin(api, staffEmails.admin, prepared.lastTotpSteps[staffEmails.admin] ?? null),
        operator: await staffLogin(api, staffEmails.operator, prepared.lastTotpSteps[staffEmails.operator] ?? null),
      };
      const partial = { api, label: p.label };
      const chats = await getJson<{ chats?: { conversation?: { id?: number } }[] }>(partial, "/api/chats.php", cookies.member, failures);
      const conversationId = chats?.chats?.[0]?.conversation?.id;
      if (typeof conversationId !== "number") throw new Error(`${p.label}: the premium member has no conversation (GET /api/chats.php)`);
      const inbox = await getJson<{ conversations?: { id?: number }[] }>(partial, "/api/staff/inbox.php", cookies.operator, failures);
      const packages = await getJson<{ packages?: { id: number }[]; methods?: { id: string; mandate_form: boolean; needs_browser_support: boolean }[] }>(partial, "/api/packages.php", cookies.member, failures);
      const method = packages?.methods?.find((m) => !m.mandate_form && !m.needs_browser_support)?.id;
      const packageId = packages?.packages?.[0]?.id;
      if (!method || packageId === undefined) throw new Error(`${p.label}: GET /api/packages.php offers no package or no provider method`);
      // A payment and a report to open, when the database has none yet (the fresh demo database has neither).
      const made = async (pathname: string, body: unknown, key: "payment_id" | "report_id") => {
        const answer = await call(api, "POST", pathname, cookies.member, body);
        const id = answer.status >= 200 && answer.status < 300 ? (JSON.parse(answer.text) as Record<string, unknown>)[key] : undefined;
        if (typeof id === "number") return id;
        failures.push({ database: p.label, row: "(setup)", method: "POST", path: pathname, status: answer.status, body: answer.text.slice(0, 500) });
        return null;
      };
      const paymentId = prepared.paymentId ?? (await made("/api/payment.php", { package_id: packageId, method }, "payment_id"));
      const reportId = prepared.reportId ?? (await made("/api/report.php", { profile_id: prepared.member.profileId, reason: "spam", details: "data-scale bench" }, "report_id"));
      const ids: EndpointIds = {
        member: prepared.member,
        conversationId,
        paymentId,
        reportId,
        fictionalProfileId: prepared.fictionalProfileId,
        siteId: prepared.siteId,
        inboxConversationId: inbox?.conversations?.[0]?.id ?? null,
      };
      sides.push({ label: p.label, database: p.database, api, web, prepared, sizes, cookies, gets: new Map(timedGets(ids).map((g) => [g.name, g])), payment: { packageId, method } });
    }

    // The GETs, the databases in turns row by row: each row sees the machine as it was for both.
    const names = [...new Set(sides.flatMap((s) => [...s.gets.keys()]))];
    const rows: Row[] = [];
    log(`timing ${names.length} GETs (${warmUps} warm-up + ${timedRuns} timed each, one at a time) on ${sides.map((s) => s.label).join(" and ")}...`);
    for (const name of names) {
      const row: Row = { name, who: null, results: {} };
      for (const side of sides) {
        const get = side.gets.get(name);
        if (!get) continue;
        if ("missing" in get) {
          row.results[side.label] = { missing: get.missing };
          continue;
        }
        row.who = get.who;
        row.results[side.label] = await timeRow(side, name, async () => ({ ...(await call(side.api, "GET", get.path, side.cookies[get.who])), method: "GET", path: get.path }), failures);
        group.check();
      }
      rows.push(row);
      log(`${name}: ${progress(row)}`);
    }

    // The writes: each with what the api asks for (a fresh idempotency key for a message), to a new member for each like.
    const writes: { name: string; request: (side: Side, i: number) => { path: string; body: unknown } }[] = [
      {
        name: "POST message.php (paid chat message)",
        request: (side, i) => ({ path: "/api/message.php", body: { to: side.prepared.messageTo[i % side.prepared.messageTo.length], body: `Data-scale bench message ${i}`, key: randomUUID() } }),
      },
      { name: "POST like.php", request: (side, i) => ({ path: "/api/like.php", body: { id: side.prepared.likeTo[i] } }) },
      { name: "POST payment.php (sandbox start)", request: (side) => ({ path: "/api/payment.php", body: { package_id: side.payment.packageId, method: side.payment.method } }) },
    ];
    log(`timing ${writes.length} writes (${warmUps} + ${timedRuns} each)...`);
    for (const write of writes) {
      const row: Row = { name: write.name, who: "member", results: {} };
      for (const side of sides) {
        row.results[side.label] = await timeRow(
          side,
          write.name,
          async (i) => {
            const { path: p, body } = write.request(side, i);
            return { ...(await call(side.api, "POST", p, side.cookies.member, body)), method: "POST", path: p };
          },
          failures,
        );
      }
      rows.push(row);
      log(`${write.name}: ${progress(row)}`);
    }

    // Logged-in /members through web under load, each database's web and api alone at work.
    const load: (LoadResult & { database: string; warmUpText: string })[] = [];
    for (const side of sides) {
      const cookie = await logIn(side.web, premiumEmail, password);
      const url = `${side.web}/members`;
      const headers = { ...browserHeaders, cookie };
      log(`${side.label}: /members, warm-up until steady (2-40 s) + ${loadSeconds} s at ${loadConnections} connections...`);
      const warm = await warmUp(url, { seconds: 2, maxSeconds: 40, connections: loadConnections, headers });
      group.check();
      const result = await measure(`web /members (logged in), ${side.label}`, url, { seconds: loadSeconds, connections: loadConnections, headers });
      group.check();
      if (result.non2xx > 0 || result.errors > 0) {
        failures.push({ database: side.label, row: "web /members load", method: "GET", path: "/members", status: Number(Object.keys(result.statusCodes).find((c) => !c.startsWith("2")) ?? 0), body: `${result.non2xx} non-2xx (${JSON.stringify(result.statusCodes)}), ${result.errors} errors` });
      }
      load.push({ ...result, warmUp: warm, database: side.label, warmUpText: describeWarmUp(warm) });
    }

    // The report.
    const scaled2 = sides.length > 1;
    const other = sides[1]?.label;
    const isStats = (r: unknown): r is Stats => typeof r === "object" && r !== null && "median" in r;
    const cell = (r: Row["results"][string] | undefined, key: "median" | "p95") => (!r ? "-" : isStats(r) ? fmt(r[key]) : "missing" in r ? "n/a" : `HTTP ${r.failed}`);
    const tableRows = rows.map((row) => {
      const d = row.results.demo;
      const l = other ? row.results[other] : undefined;
      const ratio = isStats(d) && isStats(l) ? `${(l.median / d.median).toFixed(2)}×` : "-";
      const notes = [d, l].flatMap((r) => (r && "missing" in r ? [`n/a: ${r.missing}`] : []));
      // Rows slow enough to be timed fewer times say so.
      const fewer = Object.entries(row.results).flatMap(([label, r]) => (isStats(r) && r.runs < timedRuns ? [`(${label}: ${r.runs} runs)`] : []));
      return [
        row.name,
        cell(d, "median"),
        cell(d, "p95"),
        ...(scaled2 ? [cell(l, "median"), cell(l, "p95"), ratio] : []),
        [notes[0] ?? verdict(isStats(d) ? d : undefined, isStats(l) ? l : undefined, scaled2), ...fewer].join(" "),
      ];
    });
    const header = ["endpoint (ms)", "demo median", "demo p95", ...(scaled2 ? [`${other} median`, `${other} p95`, "ratio of medians"] : []), "verdict"];
    const demoLoad = load.find((r) => r.database === "demo");
    const otherLoad = other ? load.find((r) => r.database === other) : undefined;
    const loadLines = load.map(
      (r) => `  ${r.database.padEnd(5)}: ${r.reqPerSec.toFixed(1)} pages/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms (${r.requests} pages in ${r.seconds} s; warm-up ${r.warmUpText})`,
    );
    const loadShare = demoLoad && otherLoad && demoLoad.reqPerSec > 0 ? otherLoad.reqPerSec / demoLoad.reqPerSec : null;
    if (loadShare !== null) loadLines.push(`  ${other}/demo: ${(loadShare * 100).toFixed(1)}% (aim ≥ ${loadAim * 100}%) ${loadShare >= loadAim ? "met" : "MISSED"}`);
    const describeSizes = (s: Side) =>
      `${s.label} (${pglite ? `PGlite in ${shown(s.database)}` : s.database}): ${s.sizes.members.toLocaleString("en-US")} members, ${s.sizes.defaultSiteMembers.toLocaleString("en-US")} on the default site, ` +
      `${s.sizes.messages.toLocaleString("en-US")} messages, ${s.sizes.conversations.toLocaleString("en-US")} conversations, ${s.sizes.likes.toLocaleString("en-US")} likes, ${(s.sizes.databaseBytes / 1e9).toFixed(2)} GB`;
    const untimed = Object.entries(untimedGets).map(([p, why]) => `  ${p}: ${why}`);
    const missed = tableRows.filter((r) => (r[r.length - 1] ?? "").startsWith("MISSED")).length;
    const output = [
      `Rendezvous data-scale bench — ${new Date().toISOString()}, ${pglite ? "PGlite (embedded, one per api)" : `PostgreSQL ${describeDatabase(base)}`}, node ${process.version}, ${os.cpus().length} CPU(s), load average before ${os.loadavg()[0]?.toFixed(2)}`,
      ...sides.map((s) => describeSizes(s)),
      `api straight (as web asks it), one request at a time: ${warmUps} warm-up then ${timedRuns} timed per row, the databases in turns; aim: ${scaled2 ? `${other} median < ${aimMs} ms and ≤ ${aimTimesDemo}× demo's` : `median < ${aimMs} ms`}`,
      "",
      table(header, tableRows),
      "",
      `${missed} of ${tableRows.length} rows MISSED the aim`,
      "",
      `web /members (logged in as ${premiumEmail}), ${loadConnections} connections, ${loadSeconds} s after a warm-up until steady:`,
      ...loadLines,
      "",
      "GET routes not timed:",
      ...untimed,
      ...(uncovered.length ? ["", "GET routes neither timed nor excused (add them to bench/data-scale-endpoints.ts):", ...uncovered.map((p) => `  ${p}`)] : []),
      ...(failures.length ? ["", "FAILED REQUESTS (non-2xx):", ...failures.map((f) => `  ${f.database}: ${f.row}: ${f.method} ${f.path} answered ${f.status}: ${f.body}`)] : []),
    ];
    const resultsDir = path.join(root, "bench/results");
    await mkdir(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `data-scale-${pglite ? "pglite-" : ""}${size}.json`);
    const json = {
      date: new Date().toISOString(),
      size,
      seconds: (Date.now() - started) / 1000,
      node: process.version,
      cpus: os.cpus().length,
      engine,
      server: pglite ? "PGlite" : describeDatabase(base),
      settings: { warmUps, timedRuns, aimMs, aimTimesDemo, load: { seconds: loadSeconds, connections: loadConnections, aim: loadAim }, apiEnv: { APP_MODE: "demo", CLIENT_LIMIT_SCALE: 1000, LOG_LEVEL: "warn" } },
      databases: sides.map((s) => ({ label: s.label, database: s.database, sizes: s.sizes, ids: { ...s.prepared, likeTo: s.prepared.likeTo.length } })),
      rows: rows.map((r, i) => ({ ...r, verdict: tableRows[i]?.[tableRows[i].length - 1] ?? null })),
      load: load.map((r) => ({ ...r })),
      loadShare,
      untimed: untimedGets,
      uncovered,
      failures,
      processOutput: group.output(),
    };
    await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
    console.log(`\n${output.join("\n")}\n\nResults: ${path.relative(process.cwd(), file) || file}`);
    return failures.length > 0 || uncovered.length > 0 ? 1 : 0;
  } finally {
    await cleanup();
  }
}
