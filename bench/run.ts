/**
 * `npm run bench [-- --build]`: measures the production build of Rendezvous against two ceilings, on
 * its own api + web (free ports, a fresh temporary DATA_DIR with demo data), and the first-load
 * JS/CSS of the main pages. Prints tables and writes bench/results/latest.json.
 *
 * Pages: `/`, `/login`, and logged in as the demo member `/members` (plain and filtered), `/members/{id}`,
 * `/chats` and a conversation `/chats/{id}` (the member's newest; its unread messages are read by the
 * check before the warm-up, as a first visit does, so the measured visits read nothing).
 *
 * Paid sends (bench/paid-sends.ts): chat messages per second straight to the api (POST
 * /api/message.php as web sends it) from 50 prepared members with credits, over BENCH_CONNECTIONS
 * connections; then, with the api stopped, the database must add up exactly (messages == 201 answers,
 * each balance == start − message_credits × sent, SUM(credit_ledger.delta) == credits for every
 * member), else the row says MISMATCH and the bench exits 1. For this the bench seeds the demo data
 * itself (the api's seedDemoData, before the api starts; the api then leaves it) and adds the senders,
 * and runs the api with CLIENT_LIMIT_SCALE=10000 so the per-account and per-IP `message` limits do not
 * cap the rate (the limiter's database writes still happen on every send).
 *
 * Live stream (bench/live-stream.ts): 500 more prepared members (with sessions, on the senders' site) each
 * open GET /api/events.php through web's port, as browsers do; then BENCH_STREAM_SENDS (150) messages paced
 * over BENCH_STREAM_SECONDS (10) from 20 other members with credits, straight to the api, each to a random
 * listener: send-to-receive latency (send start → `message` event on the recipient's stream, matched by
 * message id; p50, p99, max; aim p99 < 100 ms on PGlite), messages missing, duplicated or on the wrong stream
 * (any of them: exit 1), the live senders' credits checked like the paid sends'; and memory per open stream
 * in web and in the api (process.memoryUsage() after a full GC, through bench/memory-probe.ts, before and
 * after opening the streams, / 500).
 *
 * Ceilings: `bare Express` (bench/bare.ts, one route answering "ok") and `bare Remix`
 * (bench/bare-remix: a minimal Remix app with the same packages, production build, Express adapter
 * and compression(), whose one route reads 20 members from PGlite in its own process and renders
 * them as cards), served as server/app.ts serves the app (server/compression.ts, a page compressed whole); beside it
 * `bare Remix, stock compression()`, the same app with compression()'s defaults, as every run before 2026-12-04 served
 * it. Every row shows its ratio of req/s to bare Express and bare Remix. The bare Remix app is built into
 * node_modules/.cache/bench-bare-remix when missing, older than its sources, or with --build.
 *
 * PostgreSQL: with DATABASE_URL set, the bench measures a second set of rows after the PGlite set:
 * the api and bare Remix on PostgreSQL, in a scratch database the bench creates on that server
 * (CREATE DATABASE rdv_bench_...; the role needs CREATEDB) and drops at the end, so every run starts
 * from the same demo data and the database named in the URL is never touched.
 *
 * Env: BENCH_SECONDS (10) per measurement, BENCH_WARMUP_SECONDS (2) at least before each page row, which warms up
 * until the servers are steady (bench/load.ts), for at most BENCH_WARMUP_MAX_SECONDS (40; at or below the minimum: a
 * fixed warm-up, as runs before 2026-12-05 had),
 * BENCH_CONNECTIONS (50), BENCH_ACCEPT_ENCODING ("gzip, deflate, br", as a browser sends),
 * BENCH_STREAM_SENDS (150) and BENCH_STREAM_SECONDS (10) for the live stream,
 * BENCH_INTERLEAVED_ROUNDS (4): rounds of bare Remix, bare Remix with a page as large as /members's (alone and behind
 * the bare api), and /members, measured in turns after the PostgreSQL set's rows, for the PostgreSQL aims on the machine as it was for all of them (0: none),
 * DATABASE_URL (unset: PGlite rows only).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bareRemixBuild } from "./bare-remix/paths";
import { serviceNodeFlags } from "../scripts/start-env";
import { createScratchDatabase, describeDatabase, pgbenchYardstick, walCounters, type PgbenchResult, type WalCounters } from "./postgres";
import { answersOk, browserHeaders, expect200, firstLoad, gzipLevel, logIn, type FirstLoad } from "./http";
import { cpuMs, postgresCpu, waitForIdle } from "./cpu";
import { describeWarmUp, measure, steadyRule, stopRunning, warmUp, type LoadResult } from "./load";
import { ProcessGroup, freePort, waitUntil } from "./processes";
import { checkAccounting, prepareDatabase, runPaidSends, stopSends, type PaidSendsResult } from "./paid-sends";
import { runLiveStream, stopLiveStream, type LiveStreamResult } from "./live-stream";
import { firstLoadBudgetBytes, firstLoadBudgetOf, routeFirstLoads } from "./route-budgets";
import { measureScale, scaleTable } from "./scale";
import { firstLoadTable, kb, routeBudgetTable, liveStreamTable, loadTable, paidSendsTable, streamMemoryTable } from "./report";

const root = fileURLToPath(new URL("..", import.meta.url));
const demo = { email: "demo@example.com", password: "demo-password" };
/** The paid-sends row: members sending, and the credits each starts with (far more than a run spends). */
const paidSenders = 50;
const senderCredits = 1_000_000;
/** The live stream rows: members keeping a stream open through web, and members with credits writing to them. */
const liveListeners = 500;
const liveSenders = 20;
/** The aim for the send-to-receive p99 on the embedded database. */
const liveP99AimMs = 100;
/**
 * Sends of the live stream rows (BENCH_STREAM_SENDS) over BENCH_STREAM_SECONDS (10): 15 a second, well under
 * what the api on PGlite can write and deliver, so the latency is the delivery's and not a queue's.
 */
const defaultLiveSends = 150;
/** Multiplies the api's client limits (api/http/limits.ts) so the `message` limit (60/min per account) does not cap the paid sends. */
const clientLimitScale = 10_000;

function numberEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

function ensureBuild(force: boolean): void {
  const serverBuild = path.join(root, "build/server/index.js");
  if (!force && existsSync(serverBuild)) return;
  log(force ? "--build: rebuilding (npx remix vite:build)..." : "no production build yet: building (npx remix vite:build)...");
  const result = spawnSync("npx", ["remix", "vite:build"], { cwd: root, stdio: ["ignore", process.stderr, process.stderr] });
  if (result.status !== 0 || !existsSync(serverBuild)) throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
}

/** The newest modification time among the files (under `base`) a build is made from. */
function newestSource(base: string, entries: string[]): { file: string; mtime: Date } | null {
  let newest: { file: string; mtime: Date } | null = null;
  const visit = (relative: string) => {
    const full = path.join(base, relative);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const name of readdirSync(full)) visit(path.join(relative, name));
    } else if (!newest || stat.mtime > newest.mtime) {
      newest = { file: path.relative(root, full), mtime: stat.mtime };
    }
  };
  for (const entry of entries) visit(entry);
  return newest;
}

/** Builds bench/bare-remix (into node_modules/.cache/bench-bare-remix) when missing, older than its sources, or forced. */
function ensureBareRemixBuild(force: boolean): void {
  const serverBuild = path.join(bareRemixBuild, "server/index.js");
  const source = newestSource(root, ["bench/bare-remix", "package-lock.json"]);
  const stale = existsSync(serverBuild) && source !== null && source.mtime > statSync(serverBuild).mtime;
  if (!force && existsSync(serverBuild) && !stale) return;
  log(`${force ? "--build" : stale ? `bare Remix build older than ${source?.file}` : "no bare Remix build yet"}: building (npx remix vite:build bench/bare-remix)...`);
  rmSync(bareRemixBuild, { recursive: true, force: true });
  // The positional root makes the Remix CLI use bench/bare-remix/vite.config.ts and that folder's app/.
  const result = spawnSync("npx", ["remix", "vite:build", "bench/bare-remix"], { cwd: root, stdio: ["ignore", process.stderr, process.stderr] });
  if (result.status !== 0 || !existsSync(serverBuild)) throw new Error(`the bare Remix build failed (exit ${result.status ?? result.signal})`);
}

function gitDescription(): string | null {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return null;
  }
}

/** The environment for the app's processes: this one's, without anything that would point them elsewhere. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "API_URL", "PORT", "HOST", "API_PORT", "API_HOST", "DATA_DIR", "SESSION_SECRET", "DEMO_DATA", "SMTP_URL"]) delete env[name];
  // The production build in demo mode, as `npm start` runs it: demo data and the sandbox (production mode needs a mail
  // transport and makes no demo data, docs/security.md).
  return { ...env, NODE_ENV: "production", APP_MODE: "demo", LOG_LEVEL: "warn", ...extra };
}

type Target = { name: string; url: string; headers: Record<string, string>; type: RegExp; servers: string[] };
type DatabaseKind = "pglite" | "postgres";
type SetResult = {
  load: LoadResult[];
  paidSends: PaidSendsResult;
  liveStream: LiveStreamResult | null;
  pages: FirstLoad[];
  output: ReturnType<ProcessGroup["output"]>;
  /** The PostgreSQL set's yardstick: pgbench just before and just after the paid sends. */
  pgbench: PgbenchResult | null;
  /** The PostgreSQL set's bare Remix, the same-size bare pages and /members measured in turns (medians of the rounds' ratios). */
  interleaved: InterleavedResult | null;
};
type Measured = { reqPerSec: number; p99: number; cpuMs: number | null };
type InterleavedResult = {
  /** bare Remix with as many cards as make its page as large as /members's (bench/bare-remix ?cards=). */
  sameSize: { cards: number; bytes: number; membersBytes: number };
  rounds: { bare: Measured; sameSize: Measured; sameSizeBehindApi: Measured | null; members: Measured }[];
  /** Medians of the rounds' ratios. */
  share: number;
  p99: number;
  sameSizeShare: number;
  /** The same page read over HTTP from bench/bare-api.ts: the two services and the page's size, without the app. */
  sameSizeBehindApiShare: number | null;
  membersOfSameSize: number;
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
type LiveSettings = { sends: number; seconds: number };

const bareRemixName = "bare Remix";
const membersName = "web /members (logged in)";
/** Rounds of bare Remix, bare Remix as large as /members (alone and behind the bare api) and /members measured in turns in the PostgreSQL set (BENCH_INTERLEAVED_ROUNDS; 0: none). */
const interleavedRounds = Math.max(0, Math.round(Number(process.env.BENCH_INTERLEAVED_ROUNDS ?? 4)));
/** bare Remix served with compression()'s defaults, as every run before 2026-12-04 served it (bench/bare-remix/server.ts). */
const stockBareRemixName = "bare Remix, stock compression()";
/**
 * bare Remix reading its 20 cards over HTTP from bench/bare-api.ts (Express, one route, the database; nothing else):
 * the least the two-service design (ARCHITECTURE.md: web asks the api, the api asks the database) costs a page.
 */
const behindApiName = "bare Remix behind a bare api";
/** The rows every run measures, whatever --targets asks for. */
const yardsticks = [bareRemixName, stockBareRemixName, behindApiName];

/** Everything to undo at the end or on Ctrl-C, newest first; each step runs once. */
const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) await step().catch((error: unknown) => log(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
  })();
  return cleaning;
}

/** Starts api + web (+ bare Remix, + bare Express in the first set), measures every target, stops them. */
async function measureSet(
  kind: DatabaseKind,
  options: {
    databaseUrl: string | null;
    withBareExpress: boolean;
    withFirstLoad: boolean;
    seconds: number;
    warmupSeconds: number;
    warmupMaxSeconds: number;
    connections: number;
    live: LiveSettings;
    /** --targets: only the page targets whose names contain one of these (bare Remix always); null: all. */
    targets: string[] | null;
    /** --no-live: skip the live stream rows. */
    withLive: boolean;
    /** The PostgreSQL server to run pgbench on (a scratch database of its own), around the paid sends; null: none. */
    pgbenchUrl: string | null;
  },
): Promise<SetResult> {
  const { seconds, warmupSeconds, warmupMaxSeconds, connections } = options;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rdv-bench-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const group = new ProcessGroup(root);
  cleanups.push(() => group.stopAll());
  try {
    const [apiPort, webPort, barePort, bareRemixPort, stockBareRemixPort, bareApiPort, bareRemixApiPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const api = `http://127.0.0.1:${apiPort}`;
    const web = `http://127.0.0.1:${webPort}`;
    const bare = `http://127.0.0.1:${barePort}`;
    const bareRemix = `http://127.0.0.1:${bareRemixPort}`;
    const stockBareRemix = `http://127.0.0.1:${stockBareRemixPort}`;
    const bareApi = `http://127.0.0.1:${bareApiPort}`;
    const bareRemixApi = `http://127.0.0.1:${bareRemixApiPort}`;
    const database: Record<string, string> = options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {};
    const secret = randomBytes(32).toString("base64url");
    const location = { databaseUrl: options.databaseUrl, dataDir };
    let started = Date.now();
    log(`${kind}: demo data, ${paidSenders} paid senders, ${liveListeners} stream listeners and ${liveSenders} live senders...`);
    const senders = await prepareDatabase({
      ...location,
      secret,
      senders: paidSenders,
      startCredits: senderCredits,
      live: { listeners: liveListeners, senders: liveSenders, startCredits: senderCredits },
    });
    const liveSetup = senders.live;
    if (!liveSetup) throw new Error("bench: the live stream's members were not prepared");
    // bench/memory-probe.ts in api and web: process.memoryUsage() after a full GC, on SIGUSR2, into these files.
    const memoryFiles = { api: path.join(dataDir, "bench-memory-api.json"), web: path.join(dataDir, "bench-memory-web.json") };
    const probe = ["./bench/memory-probe.ts"];
    log(`${kind}: database ready in ${((Date.now() - started) / 1000).toFixed(1)} s (senders on ${senders.siteDomain}, ${senders.messageCredits} credits a message)`);
    log(
      `${kind}: starting api on ${api}, web on ${web}, bare Remix on ${bareRemix}${options.withBareExpress ? `, bare Express on ${bare}` : ""} ` +
        `(DATA_DIR ${dataDir}${options.databaseUrl ? `, database ${describeDatabase(options.databaseUrl)}` : ""})`,
    );
    started = Date.now();
    group.start(
      "api",
      "api/main.ts",
      childEnv({
        API_PORT: String(apiPort),
        API_HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        SESSION_SECRET: secret,
        CLIENT_LIMIT_SCALE: String(clientLimitScale),
        BENCH_MEMORY_FILE: memoryFiles.api,
        ...database,
      }),
      probe,
      serviceNodeFlags,
    );
    // With node's flags as npm start gives them (scripts/start-env.ts); bare Remix and bare Express run with node's defaults.
    group.start("web", "server/main.ts", childEnv({ PORT: String(webPort), HOST: "127.0.0.1", API_URL: api, BENCH_MEMORY_FILE: memoryFiles.web }), probe, serviceNodeFlags);
    group.start("bare-remix", "bench/bare-remix/server.ts", childEnv({ BARE_REMIX_PORT: String(bareRemixPort), ...database }));
    if (options.withBareExpress) group.start("bare", "bench/bare.ts", childEnv({ BARE_PORT: String(barePort) }));
    await waitUntil("web /healthz to answer 200 (api up, demo data seeded)", group, 180_000, () => answersOk(`${web}/healthz`));
    await waitUntil("bare Remix", group, 60_000, () => answersOk(`${bareRemix}/`));
    // After the first has filled the members' table (on PostgreSQL both fill the same one).
    group.start("bare-remix-stock", "bench/bare-remix/server.ts", childEnv({ BARE_REMIX_PORT: String(stockBareRemixPort), BARE_REMIX_STOCK: "1", ...database }));
    await waitUntil("bare Remix, stock compression()", group, 60_000, () => answersOk(`${stockBareRemix}/`));
    group.start("bare-api", "bench/bare-api.ts", childEnv({ BARE_API_PORT: String(bareApiPort), ...database }));
    group.start("bare-remix-api", "bench/bare-remix/server.ts", childEnv({ BARE_REMIX_PORT: String(bareRemixApiPort), BARE_REMIX_API_URL: bareApi }));
    await waitUntil(behindApiName, group, 60_000, () => answersOk(`${bareRemixApi}/`));
    if (options.withBareExpress) await waitUntil("bare Express", group, 30_000, () => answersOk(`${bare}/bare`));
    log(`${kind}: servers ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const cookie = await logIn(web, demo.email, demo.password);
    const member = { ...browserHeaders, cookie };
    const html = /^text\/html/;
    const targets: Target[] = [
      ...(options.withBareExpress ? [{ name: "bare Express /bare", url: `${bare}/bare`, headers: browserHeaders, type: html, servers: ["bare"] }] : []),
      { name: bareRemixName, url: `${bareRemix}/`, headers: browserHeaders, type: html, servers: ["bare-remix"] },
      { name: stockBareRemixName, url: `${stockBareRemix}/`, headers: browserHeaders, type: html, servers: ["bare-remix-stock"] },
      { name: behindApiName, url: `${bareRemixApi}/`, headers: browserHeaders, type: html, servers: ["bare-remix-api", "bare-api"] },
      { name: "web /", url: `${web}/`, headers: browserHeaders, type: html, servers: ["web", "api"] },
      { name: "web /login", url: `${web}/login`, headers: browserHeaders, type: html, servers: ["web", "api"] },
      { name: membersName, url: `${web}/members`, headers: member, type: html, servers: ["web", "api"] },
      { name: "web /members filtered", url: `${web}/members?gender=female&country=NL&min_age=25&max_age=45`, headers: member, type: html, servers: ["web", "api"] },
      { name: "web /members/{id}", url: `${web}/members/${await firstMemberId(web, member)}`, headers: member, type: html, servers: ["web", "api"] },
      { name: "web /chats", url: `${web}/chats`, headers: member, type: html, servers: ["web", "api"] },
      { name: "web /chats/{id}", url: `${web}/chats/${await newestConversationId(web, cookie)}`, headers: member, type: html, servers: ["web", "api"] },
    ];
    const wanted = options.targets;
    if (wanted) targets.splice(0, targets.length, ...targets.filter((t) => yardsticks.includes(t.name) || wanted.some((w) => t.name.includes(w))));
    for (const target of targets) await expect200(target.url, target.headers, target.type);

    const pages: FirstLoad[] = [];
    if (options.withFirstLoad) {
      log(`first-load sizes (gzip level ${gzipLevel})...`);
      for (const target of targets.filter((t) => t.name !== "bare Express /bare")) {
        const sizes = await firstLoad(target.url, target.headers);
        pages.push(target.name === bareRemixName ? { ...sizes, page: `${bareRemixName} ${sizes.page}` } : sizes);
      }
    }

    /** One measurement of a target whose servers are warm: req/s, latency, and each server's CPU a request. */
    async function measureTarget(target: Target): Promise<LoadResult> {
      await waitForIdle(target.servers.map((name) => group.pid(name)));
      group.check();
      const before = target.servers.map((name) => cpuMs(group.pid(name)));
      const ownBefore = process.cpuUsage();
      const result = await measure(target.name, target.url, { seconds, connections, headers: target.headers });
      const own = process.cpuUsage(ownBefore);
      const cpu: Record<string, number | null> = {};
      target.servers.forEach((name, i) => {
        const start = before[i];
        const end = cpuMs(group.pid(name));
        cpu[name] = start == null || end == null || result.requests === 0 ? null : (end - start) / result.requests;
      });
      result.cpuMsPerRequest = cpu;
      result.loadGeneratorCpuPercent = ((own.user + own.system) / 1000 / (result.seconds * 1000)) * 100;
      group.check();
      return result;
    }

    const load: LoadResult[] = [];
    for (const target of targets) {
      log(`${kind}: ${target.name}: warm-up until steady (${warmupSeconds}-${warmupMaxSeconds} s) + ${seconds} s with ${connections} connections...`);
      const warm = await warmUp(target.url, { seconds: warmupSeconds, maxSeconds: warmupMaxSeconds, connections, headers: target.headers });
      if (warm.rates.length > 0) log(`${kind}: ${target.name}: ${describeWarmUp(warm)}`);
      load.push({ ...(await measureTarget(target)), warmUp: warm });
    }

    // The aim's two rows measured again in turns (bare Remix, /members, then the other way round, ...), both servers warm:
    // the rows above are minutes apart, and this machine's speed moves by up to a third in that time
    // (docs/performance-history.md), so a ratio of two rows can be off by as much; each round here sees the machine as it was.
    // Between them, bare Remix with a page as large as /members's (more cards): what the page's size alone costs,
    // without the app around it; and the same page behind the bare api: the two services and the page's size.
    const bareTarget = targets.find((t) => t.name === bareRemixName);
    const behindApiTarget = targets.find((t) => t.name === behindApiName);
    const membersTarget = targets.find((t) => t.name === membersName);
    let interleaved: InterleavedResult | null = null;
    if (kind === "postgres" && bareTarget && membersTarget && interleavedRounds > 0) {
      const sameSize = await sameSizeBarePage(bareTarget, membersTarget);
      const sameSizeTarget: Target = { ...bareTarget, name: `${bareRemixName}, ${sameSize.cards} cards`, url: sameSize.url };
      const behindApiUrl = behindApiTarget && new URL(behindApiTarget.url);
      behindApiUrl?.searchParams.set("cards", String(sameSize.cards));
      const sameSizeBehindApiTarget: Target | null = behindApiTarget && behindApiUrl ? { ...behindApiTarget, name: `${behindApiName}, ${sameSize.cards} cards`, url: behindApiUrl.href } : null;
      const inTurns = [bareTarget, sameSizeTarget, ...(sameSizeBehindApiTarget ? [sameSizeBehindApiTarget] : []), membersTarget];
      log(`${kind}: ${inTurns.map((t) => t.name).join(", ")} in turns (${(sameSize.bytes / 1000).toFixed(1)} kB a page with ${sameSize.cards} cards, /members ${(sameSize.membersBytes / 1000).toFixed(1)} kB): ${interleavedRounds} rounds of ${seconds} s each...`);
      for (const target of [sameSizeTarget, sameSizeBehindApiTarget]) {
        if (target) await warmUp(target.url, { seconds: warmupSeconds, maxSeconds: warmupMaxSeconds, connections, headers: target.headers });
      }
      const rounds: InterleavedResult["rounds"] = [];
      const measured = (result: LoadResult, server: string): Measured => ({ reqPerSec: result.reqPerSec, p99: result.latencyMs.p99, cpuMs: result.cpuMsPerRequest[server] ?? null });
      for (let i = 0; i < interleavedRounds; i++) {
        const order = i % 2 === 0 ? inTurns : [...inTurns].reverse();
        const results = new Map<Target, LoadResult>();
        for (const target of order) results.set(target, await measureTarget(target));
        const behind = sameSizeBehindApiTarget && results.get(sameSizeBehindApiTarget);
        rounds.push({
          bare: measured(results.get(bareTarget)!, "bare-remix"),
          sameSize: measured(results.get(sameSizeTarget)!, "bare-remix"),
          sameSizeBehindApi: behind ? measured(behind, "bare-remix-api") : null,
          members: measured(results.get(membersTarget)!, "web"),
        });
      }
      interleaved = {
        sameSize: { cards: sameSize.cards, bytes: sameSize.bytes, membersBytes: sameSize.membersBytes },
        rounds,
        share: median(rounds.map((r) => r.members.reqPerSec / r.bare.reqPerSec)),
        p99: median(rounds.map((r) => r.members.p99 / r.bare.p99)),
        sameSizeShare: median(rounds.map((r) => r.sameSize.reqPerSec / r.bare.reqPerSec)),
        sameSizeBehindApiShare: sameSizeBehindApiTarget ? median(rounds.map((r) => r.sameSizeBehindApi!.reqPerSec / r.bare.reqPerSec)) : null,
        membersOfSameSize: median(rounds.map((r) => r.members.reqPerSec / r.sameSize.reqPerSec)),
      };
    }

    const apiPid = group.pid("api");
    // The server's own yardstick in the same run: pgbench's TPC-B at 50 clients, scale 5, just before and
    // just after the paid sends, so that both see the machine as it was then (bench/postgres.ts).
    const pgbenchUrl = options.pgbenchUrl;
    const yardstick = pgbenchUrl ? await pgbenchYardstick(pgbenchUrl, { clients: 50, seconds, scale: 5 }) : null;
    if (yardstick) {
      cleanups.push(yardstick.drop);
      await waitForIdle([apiPid]);
      await yardstick.run();
    }
    log(`${kind}: paid sends: ${warmupSeconds} s warm-up + ${seconds} s, ${paidSenders} senders on ${connections} connections...`);
    const paidSends = await runPaidSends(api, senders, {
      seconds,
      warmupSeconds,
      connections,
      beforeMeasure: async () => {
        await waitForIdle([apiPid]);
        group.check();
      },
      cpu: () => cpuMs(apiPid),
      postgresCpu: kind === "postgres" ? postgresCpu : undefined,
      wal: kind === "postgres" && pgbenchUrl ? () => walCounters(pgbenchUrl) : undefined,
    });
    group.check();
    if (yardstick) {
      await waitForIdle([apiPid]);
      await yardstick.run();
      await yardstick.drop();
    }
    const pgbench = yardstick?.result() ?? null;

    async function measureLiveStream(): Promise<LiveStreamResult> {
      if (!liveSetup) throw new Error("bench: the live stream's members were not prepared");
      const webPid = group.pid("web");
      log(`${kind}: live stream: ${liveListeners} streams through web, then ${options.live.sends} sends over ${options.live.seconds} s from ${liveSenders} senders...`);
      const liveStarted = Date.now();
      const liveStream = await runLiveStream({
        web,
        api,
        setup: liveSetup,
        sends: options.live.sends,
        seconds: options.live.seconds,
        connections,
        pids: { web: webPid, api: apiPid },
        memoryFiles,
        settle: async () => {
          await waitForIdle([webPid, apiPid]);
          group.check();
        },
        cpu: { web: () => cpuMs(webPid), api: () => cpuMs(apiPid) },
        log: (message) => log(`${kind}: live stream: ${message}`),
      });
      group.check();
      log(
        `${kind}: live stream: ${liveStream.delivered} of ${liveStream.created} delivered, p50 ${liveStream.latencyMs.p50.toFixed(1)} ms, p99 ${liveStream.latencyMs.p99.toFixed(1)} ms ` +
          `(${((Date.now() - liveStarted) / 1000).toFixed(1)} s with the streams)`,
      );
      return liveStream;
    }
    const liveStream = options.withLive ? await measureLiveStream() : null;
    // PGlite's files belong to the api while it runs: the check reads the database after it stopped.
    log(`${kind}: stopping the servers, then checking the credits...`);
    await group.stopAll();
    const output = group.output();
    paidSends.accounting = await checkAccounting(location, senders, paidSends);
    log(`${kind}: paid sends: ${paidSends.accounting.summary}`);
    if (liveStream) {
      liveStream.accounting = await checkAccounting(location, liveSetup.senders, liveStream);
      log(`${kind}: live sends: ${liveStream.accounting.summary}`);
    }
    return { load, paidSends, liveStream, pages, output, pgbench, interleaved };
  } finally {
    log(`${kind}: stopping the servers...`);
    await group.stopAll();
  }
}

async function main(): Promise<number> {
  const seconds = numberEnv("BENCH_SECONDS", 10, 1);
  const warmupSeconds = numberEnv("BENCH_WARMUP_SECONDS", 2, 0);
  const warmupMaxSeconds = numberEnv("BENCH_WARMUP_MAX_SECONDS", 40, 0);
  const connections = Math.round(numberEnv("BENCH_CONNECTIONS", 50, 1));
  const postgresUrl = process.env.DATABASE_URL || null;
  const live: LiveSettings = { sends: Math.round(numberEnv("BENCH_STREAM_SENDS", defaultLiveSends, 1)), seconds: numberEnv("BENCH_STREAM_SECONDS", 10, 1) };

  // Before anything of ours runs: other work on the machine makes every number noisy.
  const loadBefore = os.loadavg()[0] ?? 0;
  const force = process.argv.includes("--build");
  const flags = parseFlags(process.argv.slice(2));
  ensureBuild(force);
  ensureBareRemixBuild(force);
  const buildTime = statSync(path.join(root, "build/server/index.js")).mtime;

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      // Ctrl-C reaches this process twice (from the terminal and relayed by tsx): say it once.
      if (!cleaning) log(`${signal}: stopping the servers...`);
      stopRunning();
      stopSends();
      stopLiveStream();
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    const settings = { seconds, warmupSeconds, warmupMaxSeconds, connections, live, targets: flags.targets, withLive: flags.live };
    const pglite = flags.sets.includes("pglite") ? await measureSet("pglite", { databaseUrl: null, withBareExpress: true, withFirstLoad: true, pgbenchUrl: null, ...settings }) : null;
    let postgres: SetResult | null = null;
    if (postgresUrl && flags.sets.includes("postgres")) {
      const scratch = await createScratchDatabase(postgresUrl);
      cleanups.push(scratch.drop);
      postgres = await measureSet("postgres", { databaseUrl: scratch.url, withBareExpress: false, withFirstLoad: false, pgbenchUrl: postgresUrl, ...settings });
    }
    const pgbench = postgres?.pgbench ?? null;
    const scale =
      postgresUrl && flags.scale
        ? await measureScale(
            postgresUrl,
            { seconds, warmupSeconds, warmupMaxSeconds, connections, senders: paidSenders, startCredits: senderCredits, clientLimitScale },
            { root, childEnv, log, cleanups },
          )
        : null;
    if (flags.scale && !postgresUrl) log("--scale needs DATABASE_URL (a PostgreSQL server): skipped");

    const bareExpress = pglite?.load.find((r) => r.name === "bare Express /bare");
    const bareRemixOf = (set: SetResult) => set.load.find((r) => r.name === bareRemixName);
    const warnings: string[] = [];
    const routeLoads = routeFirstLoads(root);
    for (const r of routeLoads.filter((r) => r.gzip > firstLoadBudgetOf(r.route))) warnings.push(`${r.route}: first-load JS ${kb(r.gzip)}, over the budget of ${kb(firstLoadBudgetOf(r.route))}`);
    const source = newestSource(root, ["app", "contract", "locales", "public", "vite.config.ts", "package-lock.json"]);
    if (source && source.mtime > buildTime) {
      warnings.push(`the build (${buildTime.toISOString()}) is older than ${source.file} (${source.mtime.toISOString()}): run \`npm run bench -- --build\` to measure the current code`);
    }
    if (loadBefore > os.cpus().length * 0.5) {
      warnings.push(`the machine was busy before the bench started (1-min load average ${loadBefore.toFixed(2)} on ${os.cpus().length} CPUs): req/s and latency are noisy, compare runs by CPU ms/req rather than req/s`);
    }
    for (const [set, label] of [[pglite, ""], [postgres, " (PostgreSQL)"]] as const) {
      if (!set) continue;
      for (const r of set.load) {
        const name = `${r.name}${label}`;
        if (r.non2xx > 0) warnings.push(`${name}: ${r.non2xx} non-2xx responses (${JSON.stringify(r.statusCodes)})`);
        if (r.requests === 0) warnings.push(`${name}: no request completed during the ${r.seconds} s run (raise BENCH_SECONDS)`);
        else if (r.requests < r.connections * 4) {
          warnings.push(`${name}: only ${r.requests} requests for ${r.connections} connections: its CPU ms/req is inflated by the work on requests still open when the run ended (raise BENCH_SECONDS)`);
        }
        if (r.errors > 0) warnings.push(`${name}: ${r.errors} errors (${r.timeouts} of them timeouts after 10 s)`);
        if (r.warmUp && !r.warmUp.steady) warnings.push(`${name}: warm-up ${describeWarmUp(r.warmUp)}: raise BENCH_WARMUP_MAX_SECONDS`);
      }
      for (const [name, { lines, messages }] of Object.entries(set.output)) {
        if (lines === 0) continue;
        const counted = Object.entries(messages)
          .sort((a, b) => b[1] - a[1])
          .map(([message, n]) => `${n}× "${message}"`)
          .join(", ");
        warnings.push(`${name}${label} logged ${lines} line(s) at LOG_LEVEL=warn: ${counted}`);
      }
      const sends = set.paidSends;
      if (sends.non201 > 0) warnings.push(`paid sends${label}: ${sends.non201} answers other than 201 (measured run: ${JSON.stringify(sends.statusCodes)})`);
      if (sends.errors > 0) warnings.push(`paid sends${label}: ${sends.errors} sends without an answer (${sends.timeouts} timeouts after 30 s)`);
      if (sends.accounting && !sends.accounting.exact) warnings.push(`paid sends${label}: the credits do not add up: ${[sends.accounting.summary, ...sends.accounting.examples].join("; ")}`);
      const stream = set.liveStream;
      if (!stream) continue;
      if (!delivered(stream)) {
        warnings.push(
          `live stream${label}: ${stream.missing} of ${stream.created} messages never reached their recipient's stream, ${stream.duplicates} arrived twice, ` +
            `${stream.misdelivered} on another member's stream, ${stream.streamsLost} stream(s) ended early`,
        );
      }
      if (stream.non201 > 0 || stream.errors > 0) warnings.push(`live sends${label}: ${stream.non201} answers other than 201 (${JSON.stringify(stream.statusCodes)}), ${stream.errors} without an answer`);
      if (stream.accounting && !stream.accounting.exact) warnings.push(`live sends${label}: the credits do not add up: ${[stream.accounting.summary, ...stream.accounting.examples].join("; ")}`);
      if (set === pglite && stream.latencyMs.p99 >= liveP99AimMs) warnings.push(`live stream: send-to-receive p99 ${stream.latencyMs.p99.toFixed(0)} ms, above the aim of ${liveP99AimMs} ms on PGlite`);
    }

    const git = gitDescription();
    const header = [
      `Rendezvous bench — ${new Date().toISOString()}`,
      `node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model.trim() ?? "unknown"}), ${git ? `commit ${git}, ` : ""}build from ${buildTime.toISOString()}`,
      `autocannon: ${connections} connections, ${seconds} s per target after a warm-up until steady (${warmupSeconds}-${warmupMaxSeconds} s: ${steadyRule}); browser headers (accept-encoding: ${browserHeaders["accept-encoding"] ?? "none"})`,
      `api + web: NODE_ENV=production LOG_LEVEL=warn, fresh demo data; latency in ms (autocannon's 1 ms resolution, 2xx only)`,
      `bare Remix: bench/bare-remix, same Remix/React/Express/compression, one route with 20 member cards from the database in its own process; behind a bare api: the same cards over HTTP from bench/bare-api.ts (Express, one route, the database)`,
      `CPU ms/req: CPU time of the server process(es) during the run / requests answered; load average before start ${loadBefore.toFixed(2)}`,
      `live stream: ${liveListeners} members with a stream open through web (GET /api/events.php); ${live.sends} sends paced over ${live.seconds} s (open loop, up to ${connections} connections) from ${liveSenders} other members with credits straight to the api, each to a random listener; ` +
        `latency from the send's start to the message event on the recipient's stream (also from its 201 answer), aim p99 < ${liveP99AimMs} ms on PGlite; memory per stream: (after − before opening) / streams, after a full GC in each process`,
      `paid sends: POST /api/message.php straight to the api (CLIENT_LIMIT_SCALE=${clientLimitScale}), ${paidSenders} members with ${senderCredits.toLocaleString("en-US")} credits each, ${connections} connections, ${seconds} s after ${warmupSeconds} s warm-up; sends/s = 201 answers within the run / s, CPU: the api's; accounting checked in the database after warm-up and run`,
    ];
    const setSection = (set: SetResult, title: string) => [
      "",
      title,
      loadTable(set.load, bareExpress, bareRemixOf(set)),
      "",
      paidSendsTable([set.paidSends]),
      ...(set.liveStream ? ["", liveStreamTable([set.liveStream])] : []),
    ];
    const streamMemory = [
      ...(pglite?.liveStream ? [{ label: " (PGlite)", result: pglite.liveStream }] : []),
      ...(postgres?.liveStream ? [{ label: " (PostgreSQL)", result: postgres.liveStream }] : []),
    ];
    const output = [
      ...header,
      ...(pglite ? setSection(pglite, "Throughput and latency — PGlite (api: DATA_DIR/db; bare Remix: in memory)") : []),
      ...(postgres && postgresUrl
        ? setSection(postgres, `Throughput and latency — PostgreSQL (${describeDatabase(postgresUrl)}, scratch database; vs bare Express: the PGlite set's)`)
        : []),
      ...(postgres && pgbench ? ["", postgresAims(postgres, pgbench)] : []),
      ...(scale ? ["", "Scale-out on PostgreSQL: 1 and 2 web + api pairs on this machine (bench/scale.ts)", scaleTable(scale), `accounting over both: ${scale.accounting}`] : []),
      ...(streamMemory.length ? ["", "Memory per open event stream (web proxies the stream to the api)", streamMemoryTable(streamMemory)] : []),
      ...(pglite?.pages.length
        ? ["", `First load (gzip -${gzipLevel} with node:zlib; same-origin <script src>, <link rel=modulepreload>, <link rel=stylesheet>)`, firstLoadTable(pglite.pages)]
        : []),
      "",
      `First-load JS of every route (from the build's manifest: entry, root and route with their static imports; gzip -9; budget ${kb(firstLoadBudgetBytes)})`,
      routeBudgetTable(routeLoads),
      ...(warnings.length ? ["", "WARNINGS", ...warnings.map((w) => `  - ${w}`)] : []),
    ];

    const withRatios = (set: SetResult) => {
      const bareRemix = bareRemixOf(set);
      return set.load.map((r) => ({
        ...r,
        ratioToBare: bareExpress && bareExpress.reqPerSec > 0 ? r.reqPerSec / bareExpress.reqPerSec : null,
        ratioToBareRemix: bareRemix && bareRemix.reqPerSec > 0 ? r.reqPerSec / bareRemix.reqPerSec : null,
      }));
    };
    const resultsDir = path.join(root, "bench/results");
    await mkdir(resultsDir, { recursive: true });
    const file = path.join(resultsDir, "latest.json");
    const json = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? null,
      git,
      build: buildTime.toISOString(),
      loadAverageBefore: loadBefore,
      settings: {
        seconds,
        warmupSeconds,
        connections,
        headers: browserHeaders,
        gzipLevel,
        env: { NODE_ENV: "production", APP_MODE: "demo", LOG_LEVEL: "warn" },
        paidSends: { senders: paidSenders, startCredits: senderCredits, apiEnv: { CLIENT_LIMIT_SCALE: clientLimitScale } },
        liveStream: { listeners: liveListeners, senders: liveSenders, startCredits: senderCredits, sends: live.sends, seconds: live.seconds, p99AimMs: liveP99AimMs },
      },
      database: pglite ? "pglite" : null,
      load: pglite ? withRatios(pglite) : null,
      paidSends: pglite?.paidSends ?? null,
      liveStream: pglite?.liveStream ?? null,
      postgres:
        postgres && postgresUrl
          ? {
              database: describeDatabase(postgresUrl),
              load: withRatios(postgres),
              paidSends: postgres.paidSends,
              liveStream: postgres.liveStream,
              pgbench,
              interleaved: postgres.interleaved,
              processOutput: postgres.output,
            }
          : null,
      scale,
      firstLoad: pglite?.pages ?? null,
      routeFirstLoad: routeLoads,
      warnings,
      processOutput: pglite?.output ?? null,
    };
    await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
    console.log(`\n${output.join("\n")}\n\nResults: ${path.relative(process.cwd(), file) || file}`);
    // Credits that do not add up and messages that never arrive are bugs, not a slow run: the bench fails (after writing its results).
    const inexact = [pglite, postgres].some(
      (set) => set && [set.paidSends.accounting, set.liveStream?.accounting].some((accounting) => accounting && !accounting.exact),
    );
    if (scale && !scale.exact) console.error(`\nbench: the scale-out sends' credits do not add up: ${scale.accounting}`);
    if (inexact) console.error("\nbench: the credits of the paid or live sends do not add up (see WARNINGS)");
    const lost = [pglite, postgres].some((set) => set?.liveStream && !delivered(set.liveStream));
    if (lost) console.error("\nbench: live stream messages were lost, duplicated or misdelivered (see WARNINGS)");
    return inexact || lost || (scale !== null && !scale.exact) ? 1 : 0;
  } finally {
    await cleanup();
  }
}

// `--data [demo|small|medium|large] [--engine postgres|pglite]`: the data-scale bench (bench/data-scale.ts) instead of the sets above.
const dataScale = process.argv.some((a) => a === "--data" || a.startsWith("--data="));
(dataScale ? import("./data-scale").then((m) => m.runDataScale(process.argv.slice(2))) : main()).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`\nbench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

type Flags = { sets: DatabaseKind[]; targets: string[] | null; live: boolean; scale: boolean };

/** The HTML of a page as the target's client gets it, uncompressed. */
async function pageBytes(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { headers: { ...headers, "accept-encoding": "identity" }, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
}

/** bare Remix's page with the fewest cards (bench/bare-remix ?cards=, at most 100) that make it at least as large as /members's. */
async function sameSizeBarePage(bare: Target, members: Target): Promise<{ url: string; cards: number; bytes: number; membersBytes: number }> {
  const membersBytes = await pageBytes(members.url, members.headers);
  let found = { url: bare.url, cards: 20, bytes: 0 };
  for (let cards = 20; cards <= 100; cards += 1) {
    const url = new URL(bare.url);
    url.searchParams.set("cards", String(cards));
    found = { url: url.href, cards, bytes: await pageBytes(url.href, bare.headers) };
    if (found.bytes >= membersBytes) break;
  }
  return { ...found, membersBytes };
}

/** The PostgreSQL aims, each with its figure: /members against bare Remix, paid sends against pgbench. */
function postgresAims(set: SetResult, pgbench: PgbenchResult): string {
  const bare = set.load.find((r) => r.name === bareRemixName);
  const members = set.load.find((r) => r.name === membersName);
  const lines = ["PostgreSQL aims"];
  if (bare && members) {
    const share = members.reqPerSec / bare.reqPerSec;
    const p99 = bare.latencyMs.p99 > 0 ? members.latencyMs.p99 / bare.latencyMs.p99 : Number.NaN;
    lines.push(`  /members (logged in): ${(share * 100).toFixed(1)}% of bare Remix's req/s (aim ≥ 60%) ${share >= 0.6 ? "met" : "MISSED"}`);
    lines.push(`  /members p99: ${p99.toFixed(2)}× bare Remix's (aim ≤ 2×) ${p99 <= 2 ? "met" : "MISSED"}`);
    const stock = set.load.find((r) => r.name === stockBareRemixName);
    if (stock) {
      const stockP99 = stock.latencyMs.p99 > 0 ? members.latencyMs.p99 / stock.latencyMs.p99 : Number.NaN;
      lines.push(`  (against ${stockBareRemixName}, the yardstick of the runs before 2026-12-04: ${((members.reqPerSec / stock.reqPerSec) * 100).toFixed(1)}%, p99 ${stockP99.toFixed(2)}×)`);
    }
    const turns = set.interleaved;
    if (turns) {
      const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
      const each = turns.rounds.map((r) => percent(r.members.reqPerSec / r.bare.reqPerSec)).join(", ");
      const size = turns.sameSize;
      lines.push(
        `  in turns (${turns.rounds.length} rounds, each on the machine as it was for all of them): /members ${percent(turns.share)} of bare Remix's req/s ` +
          `(the median; rounds ${each}), p99 ${turns.p99.toFixed(2)}×`,
      );
      lines.push(
        `  bare Remix with ${size.cards} cards, a page as large as /members's (${(size.bytes / 1000).toFixed(1)} against ${(size.membersBytes / 1000).toFixed(1)} kB): ` +
          `${percent(turns.sameSizeShare)} of bare Remix's req/s in the same turns; /members ${percent(turns.membersOfSameSize)} of it`,
      );
      if (turns.sameSizeBehindApiShare !== null) {
        // A page of /members's size through the two services, with none of the app's own work.
        lines.push(`  the same page behind a bare api (${behindApiName}, ${size.cards} cards): ${percent(turns.sameSizeBehindApiShare)} of bare Remix's req/s in the same turns`);
      }
    }
    // web answers in one process: its CPU a page caps the pages a second, whatever the other core does.
    const web = members.cpuMsPerRequest.web;
    if (typeof web === "number" && web > 0) {
      lines.push(`  one web process at ${web.toFixed(2)} ms of CPU a /members page makes at most ${(1000 / web).toFixed(0)} a second: ${((1000 / web / bare.reqPerSec) * 100).toFixed(1)}% of bare Remix's req/s`);
    }
    const floor = set.load.find((r) => r.name === behindApiName);
    if (floor) {
      // What the two services cost a page at least, and how much of what is left the app's own work takes.
      lines.push(
        `  ${behindApiName}: ${((floor.reqPerSec / bare.reqPerSec) * 100).toFixed(1)}% of bare Remix's req/s, p99 ${(floor.latencyMs.p99 / bare.latencyMs.p99).toFixed(2)}×; ` +
          `/members ${((members.reqPerSec / floor.reqPerSec) * 100).toFixed(1)}% of it`,
      );
    }
  }
  if ("error" in pgbench) lines.push(`  pgbench: ${pgbench.error}`);
  else {
    const share = set.paidSends.sendsPerSec / pgbench.tps;
    lines.push(
      `  pgbench TPC-B (-c ${pgbench.clients} -T ${pgbench.seconds}, scale ${pgbench.scale}): ${pgbench.tps.toFixed(0)} tps ` +
        `(the mean of ${pgbench.runsTps.map((tps) => tps.toFixed(0)).join(" just before and ")} just after the paid sends)`,
    );
    lines.push(`  paid sends: ${set.paidSends.sendsPerSec.toFixed(0)}/s = ${(share * 100).toFixed(1)}% of pgbench's rate (aim ≥ 40%) ${share >= 0.4 ? "met" : "MISSED"}; accounting ${set.paidSends.accounting?.exact ? "exact" : "NOT exact"}`);
    // Where the time goes: the CPU each operation costs, and what it writes to the WAL, whose flushes at commit are what
    // the sends wait on when the cores are not all busy (docs/performance-history.md).
    const fixed = (ms: number | null | undefined) => (ms === null || ms === undefined ? "n/a" : ms.toFixed(2));
    const sends = set.paidSends;
    lines.push(
      `  CPU ms a paid send: PostgreSQL ${fixed(sends.postgresCpuMsPerSend)}, api ${fixed(sends.cpuMsPerSend.api)}, load generator ${fixed(sends.loadGeneratorCpuMsPerSend)}; ` +
        `a TPC-B transaction: PostgreSQL ${fixed(pgbench.postgresCpuMsPerTransaction)} (pgbench's client not counted)`,
    );
    // The ceiling this machine puts on paid sends at the CPU each costs, with every core busy and nothing else running.
    const perSend = [sends.postgresCpuMsPerSend, sends.cpuMsPerSend.api, sends.loadGeneratorCpuMsPerSend];
    if (perSend.every((ms) => typeof ms === "number" && ms > 0)) {
      const cores = os.availableParallelism();
      const ceiling = (cores * 1000) / perSend.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
      lines.push(`  at that CPU a send, ${cores} cores make at most ${ceiling.toFixed(0)} paid sends a second: ${((ceiling / pgbench.tps) * 100).toFixed(1)}% of pgbench's rate`);
    }
    const wal = (w: WalCounters | null) =>
      w ? `${(w.bytes / 1000).toFixed(2)} kB in ${w.records.toFixed(1)} records (${w.fullPageImages.toFixed(2)} full-page images)` : "n/a";
    lines.push(`  WAL a paid send: ${wal(sends.walPerSend)}; a TPC-B transaction: ${wal(pgbench.walPerTransaction)} (the server's pg_stat_wal)`);
  }
  return lines.join("\n");
}

/**
 * For working on one path (the printed figures of a full run are the ones to report):
 * --sets=pglite,postgres (both when DATABASE_URL is set), --targets=members,chats (page targets whose names
 * contain one of these, with bare Remix), --no-live (no live stream rows); --scale adds bench/scale.ts's rows (one and two
 * web + api pairs on PostgreSQL).
 */
function parseFlags(args: string[]): Flags {
  const value = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const list = (raw: string | undefined) => (raw === undefined ? null : raw.split(",").map((v) => v.trim()).filter(Boolean));
  const sets = list(value("sets")) ?? ["pglite", "postgres"];
  for (const set of sets) if (set !== "pglite" && set !== "postgres") throw new Error(`--sets: "${set}" is neither pglite nor postgres`);
  return { sets: sets as DatabaseKind[], targets: list(value("targets")), live: !args.includes("--no-live"), scale: args.includes("--scale") };
}

/** Every 201 of the live sends reached its recipient's stream once, and nothing else went wrong with the streams. */
function delivered(stream: LiveStreamResult): boolean {
  return stream.missing === 0 && stream.duplicates === 0 && stream.misdelivered === 0 && stream.streamsLost === 0 && stream.errors === 0;
}

/** The id of the first member card on the logged-in search page, for the member page target. */
async function firstMemberId(web: string, headers: Record<string, string>): Promise<number> {
  const html = await (await fetch(`${web}/members`, { headers })).text();
  const id = /href="\/members\/(\d+)"/.exec(html)?.[1];
  if (!id) throw new Error("bench: no member card on /members to open a member page from");
  return Number(id);
}

/** The member's newest conversation (GET /api/chats.php through web's /api, as the page's browser code would), for the conversation page target. */
async function newestConversationId(web: string, cookie: string): Promise<number> {
  const response = await fetch(`${web}/api/chats.php`, { headers: { cookie, accept: "application/json" }, signal: AbortSignal.timeout(10_000) });
  const body = (await response.json().catch(() => null)) as { chats?: { conversation?: { id?: unknown } }[] } | null;
  const id = body?.chats?.[0]?.conversation?.id;
  if (!response.ok || typeof id !== "number") throw new Error(`bench: the demo member has no conversation to open (GET /api/chats.php answered ${response.status})`);
  return id;
}
