/**
 * `npm run bench [-- --build]`: measures the production build of Rendezvous against a bare Express
 * ceiling, on its own api + web (free ports, a fresh temporary DATA_DIR with demo data), and the
 * first-load JS/CSS of the main pages. Prints tables and writes bench/results/latest.json.
 *
 * Env: BENCH_SECONDS (10) per measurement, BENCH_WARMUP_SECONDS (2) before each,
 * BENCH_CONNECTIONS (50), BENCH_ACCEPT_ENCODING ("gzip, deflate, br", as a browser sends).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { answersOk, browserHeaders, expect200, firstLoad, gzipLevel, logIn, type FirstLoad } from "./http";
import { cpuMs, waitForIdle } from "./cpu";
import { measure, stopRunning, warmUp, type LoadResult } from "./load";
import { ProcessGroup, freePort, waitUntil } from "./processes";
import { firstLoadTable, loadTable } from "./report";

const root = fileURLToPath(new URL("..", import.meta.url));
const demo = { email: "demo@example.com", password: "demo-password" };

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

/** The newest modification time among the files the client and server builds are made from. */
function newestSource(): { file: string; mtime: Date } | null {
  let newest: { file: string; mtime: Date } | null = null;
  const visit = (relative: string) => {
    const full = path.join(root, relative);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const name of readdirSync(full)) visit(path.join(relative, name));
    } else if (!newest || stat.mtime > newest.mtime) {
      newest = { file: relative, mtime: stat.mtime };
    }
  };
  for (const entry of ["app", "contract", "locales", "public", "vite.config.ts", "package-lock.json"]) visit(entry);
  return newest;
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
  for (const name of ["DATABASE_URL", "API_URL", "PORT", "HOST", "API_PORT", "API_HOST", "DATA_DIR", "SESSION_SECRET", "DEMO_DATA"]) delete env[name];
  return { ...env, NODE_ENV: "production", LOG_LEVEL: "warn", ...extra };
}

async function main(): Promise<number> {
  const seconds = numberEnv("BENCH_SECONDS", 10, 1);
  const warmupSeconds = numberEnv("BENCH_WARMUP_SECONDS", 2, 0);
  const connections = Math.round(numberEnv("BENCH_CONNECTIONS", 50, 1));

  // Before anything of ours runs: other work on the machine makes every number noisy.
  const loadBefore = os.loadavg()[0] ?? 0;
  ensureBuild(process.argv.includes("--build"));
  const buildTime = statSync(path.join(root, "build/server/index.js")).mtime;

  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rdv-bench-"));
  const group = new ProcessGroup(root);
  let cleaning: Promise<void> | null = null;
  const cleanup = () => (cleaning ??= group.stopAll().then(() => rm(dataDir, { recursive: true, force: true })));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      // Ctrl-C reaches this process twice (from the terminal and relayed by tsx): say it once.
      if (!cleaning) log(`${signal}: stopping the servers...`);
      stopRunning();
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    const [apiPort, webPort, barePort] = [await freePort(), await freePort(), await freePort()];
    const api = `http://127.0.0.1:${apiPort}`;
    const web = `http://127.0.0.1:${webPort}`;
    const bare = `http://127.0.0.1:${barePort}`;
    log(`starting api on ${api}, web on ${web}, bare Express on ${bare} (DATA_DIR ${dataDir})`);
    const started = Date.now();
    group.start("api", "api/main.ts", childEnv({ API_PORT: String(apiPort), API_HOST: "127.0.0.1", DATA_DIR: dataDir, SESSION_SECRET: randomBytes(32).toString("base64url") }));
    group.start("web", "server/main.ts", childEnv({ PORT: String(webPort), HOST: "127.0.0.1", API_URL: api }));
    group.start("bare", "bench/bare.ts", childEnv({ BARE_PORT: String(barePort) }));
    await waitUntil("web /healthz to answer 200 (api up, demo data seeded)", group, 120_000, () => answersOk(`${web}/healthz`));
    await waitUntil("bare Express", group, 30_000, () => answersOk(`${bare}/bare`));
    log(`servers ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const cookie = await logIn(web, demo.email, demo.password);
    const member = { ...browserHeaders, cookie };
    const targets = [
      { name: "bare Express /bare", url: `${bare}/bare`, headers: browserHeaders, type: /^text\/html/, servers: ["bare"] },
      { name: "web /", url: `${web}/`, headers: browserHeaders, type: /^text\/html/, servers: ["web", "api"] },
      { name: "web /login", url: `${web}/login`, headers: browserHeaders, type: /^text\/html/, servers: ["web", "api"] },
      { name: "web /members (logged in)", url: `${web}/members`, headers: member, type: /^text\/html/, servers: ["web", "api"] },
      { name: "web /members filtered", url: `${web}/members?gender=female&country=NL&min_age=25&max_age=45`, headers: member, type: /^text\/html/, servers: ["web", "api"] },
      { name: "web /members/{id}", url: `${web}/members/${await firstMemberId(web, member)}`, headers: member, type: /^text\/html/, servers: ["web", "api"] },
    ];
    for (const target of targets) await expect200(target.url, target.headers, target.type);

    log(`first-load sizes (gzip level ${gzipLevel})...`);
    const pages: FirstLoad[] = [];
    for (const target of targets.slice(1)) pages.push(await firstLoad(target.url, target.headers));

    const load: LoadResult[] = [];
    for (const target of targets) {
      log(`${target.name}: ${warmupSeconds} s warm-up + ${seconds} s with ${connections} connections...`);
      await warmUp(target.url, { seconds: warmupSeconds, connections, headers: target.headers });
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
      load.push(result);
      group.check();
    }

    const bareResult = load[0];
    const warnings: string[] = [];
    const source = newestSource();
    if (source && source.mtime > buildTime) {
      warnings.push(`the build (${buildTime.toISOString()}) is older than ${source.file} (${source.mtime.toISOString()}): run \`npm run bench -- --build\` to measure the current code`);
    }
    if (loadBefore > os.cpus().length * 0.5) {
      warnings.push(`the machine was busy before the bench started (1-min load average ${loadBefore.toFixed(2)} on ${os.cpus().length} CPUs): req/s and latency are noisy, compare runs by CPU ms/req rather than req/s`);
    }
    for (const r of load) {
      if (r.non2xx > 0) warnings.push(`${r.name}: ${r.non2xx} non-2xx responses (${JSON.stringify(r.statusCodes)})`);
      if (r.requests === 0) warnings.push(`${r.name}: no request completed during the ${r.seconds} s run (raise BENCH_SECONDS)`);
      else if (r.requests < r.connections * 4) {
        warnings.push(`${r.name}: only ${r.requests} requests for ${r.connections} connections: its CPU ms/req is inflated by the work on requests still open when the run ended (raise BENCH_SECONDS)`);
      }
      if (r.errors > 0) warnings.push(`${r.name}: ${r.errors} errors (${r.timeouts} of them timeouts after 10 s)`);
    }
    for (const [name, { lines, messages }] of Object.entries(group.output())) {
      if (lines === 0) continue;
      const counted = Object.entries(messages)
        .sort((a, b) => b[1] - a[1])
        .map(([message, n]) => `${n}× "${message}"`)
        .join(", ");
      warnings.push(`${name} logged ${lines} line(s) at LOG_LEVEL=warn: ${counted}`);
    }

    const git = gitDescription();
    const header = [
      `Rendezvous bench — ${new Date().toISOString()}`,
      `node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model.trim() ?? "unknown"}), ${git ? `commit ${git}, ` : ""}build from ${buildTime.toISOString()}`,
      `autocannon: ${connections} connections, ${seconds} s per target after ${warmupSeconds} s warm-up; browser headers (accept-encoding: ${browserHeaders["accept-encoding"] ?? "none"})`,
      `api + web: NODE_ENV=production LOG_LEVEL=warn, fresh demo data; latency in ms (autocannon's 1 ms resolution, 2xx only)`,
      `CPU ms/req: CPU time of the server process(es) during the run / requests answered; load average before start ${loadBefore.toFixed(2)}`,
    ];
    const output = [
      ...header,
      "",
      "Throughput and latency",
      loadTable(load, bareResult),
      "",
      `First load (gzip -${gzipLevel} with node:zlib; same-origin <script src>, <link rel=modulepreload>, <link rel=stylesheet>)`,
      firstLoadTable(pages),
      ...(warnings.length ? ["", "WARNINGS", ...warnings.map((w) => `  - ${w}`)] : []),
    ];

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
      settings: { seconds, warmupSeconds, connections, headers: browserHeaders, gzipLevel, env: { NODE_ENV: "production", LOG_LEVEL: "warn" } },
      load: load.map((r) => ({ ...r, ratioToBare: bareResult && bareResult.reqPerSec > 0 ? r.reqPerSec / bareResult.reqPerSec : null })),
      firstLoad: pages,
      warnings,
      processOutput: group.output(),
    };
    await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
    console.log(`\n${output.join("\n")}\n\nResults: ${path.relative(process.cwd(), file) || file}`);
    return 0;
  } finally {
    log("stopping the servers...");
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`\nbench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

/** The id of the first member card on the logged-in search page, for the member page target. */
async function firstMemberId(web: string, headers: Record<string, string>): Promise<number> {
  const html = await (await fetch(`${web}/members`, { headers })).text();
  const id = /href="\/members\/(\d+)"/.exec(html)?.[1];
  if (!id) throw new Error("bench: no member card on /members to open a member page from");
  return Number(id);
}
