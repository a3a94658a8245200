/**
 * `npx tsx bench/profile.ts [path ...]`: CPU profiles of web and api under load, summarised.
 *
 * Starts the production build of web and the api (fresh temporary DATA_DIR with demo data) with
 * `node --cpu-prof`, logs in as the demo member, warms up until steady (bench/load.ts), loads each path with autocannon (logged in; a path
 * starting with "anon:" is loaded logged out; the path "sends" is the bench's paid sends, POST
 * /api/message.php straight to the api, bench/paid-sends.ts), stops both services and prints the top
 * self-time functions and the time by package of each. The .cpuprofile files stay in PROFILE_DIR (default
 * /tmp/rdv-profile) for Chrome DevTools or speedscope.
 *
 * Env: PROFILE_SECONDS (15) per path, PROFILE_CONNECTIONS (20), PROFILE_DIR, PROFILE_TOP (25),
 * PROFILE_DATABASE_URL (a scratch PostgreSQL database for the api; unset: PGlite).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { answersOk, browserHeaders, logIn } from "./http";
import { freePort } from "./processes";
import { prepareDatabase, runPaidSends } from "./paid-sends";
import { describeWarmUp, measure, warmUp } from "./load";
import { serviceNodeFlags } from "../scripts/start-env";

const root = fileURLToPath(new URL("..", import.meta.url));
const seconds = Number(process.env.PROFILE_SECONDS ?? 15);
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 20);
const top = Number(process.env.PROFILE_TOP ?? 25);
const outDir = process.env.PROFILE_DIR ?? path.join(os.tmpdir(), "rdv-profile");
const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["/members"];

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

function start(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const dir = path.join(outDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const child = spawn(process.execPath, [...serviceNodeFlags, "--cpu-prof", `--cpu-prof-dir=${dir}`, "--import", "tsx", script], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  return child;
}

function packageOf(url: string): string {
  if (!url) return "(native/gc)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) return url;
  if (url.startsWith("wasm:")) return "(wasm)";
  if (!url.startsWith("file:") && !url.startsWith("/")) return url;
  return path.relative(root, fileURLToPath(url.startsWith("file:") ? url : `file://${url}`)).split("/").slice(0, 2).join("/");
}

/** Summarises the samples taken `skipMs` after the process started (the load, not the start-up and seeding). */
function summarise(name: string, requests: number, skipMs = 0): void {
  const dir = path.join(outDir, name);
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) return void console.log(`${name}: no profile written`);
  const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Profile;
  const self = new Map<number, number>();
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed >= skipMs * 1000) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") {
      idle += us;
      continue;
    }
    total += us;
    const key = `${functionName || "(anonymous)"} ${url ? `${packageOf(url)}:${lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const pkg = ["(garbage collector)", "(program)"].includes(functionName) ? functionName : packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  const line = (label: string, us: number) => `  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000 / Math.max(1, requests)).toFixed(2).padStart(6)} ms/req  ${label}`;
  console.log(`\n${name}: busy ${(total / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s, ${requests} requests -> ${(total / 1000 / Math.max(1, requests)).toFixed(2)} ms busy per request`);
  console.log(" by package:");
  for (const [pkg, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(line(pkg, us));
  console.log(" top self time:");
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(line(fn, us));
}

async function main() {
  if (process.env.PROFILE_SUMMARY_ONLY) {
    const requests = Number(process.env.PROFILE_SUMMARY_ONLY);
    summarise("web", requests);
    summarise("api", requests);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rdv-profile-data-"));
  const [apiPort, webPort] = [await freePort(), await freePort()];
  // The production build in demo mode, as `npm start` runs it (production mode makes no demo data).
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", APP_MODE: "demo", LOG_LEVEL: "warn" };
  // PostgreSQL only when asked for by name (a scratch database: the api seeds demo data into it).
  if (process.env.PROFILE_DATABASE_URL) base.DATABASE_URL = process.env.PROFILE_DATABASE_URL;
  else delete base.DATABASE_URL;
  const secret = randomBytes(32).toString("base64url");
  // The paid sends' members (as `npm run bench` makes them), in the database before the api opens it.
  const senders = paths.includes("sends")
    ? await prepareDatabase({ databaseUrl: base.DATABASE_URL ?? null, dataDir, secret, senders: 50, startCredits: 1_000_000 })
    : null;
  // The profiles' clocks start with the processes: the summaries skip what came before the load, counted from here.
  const started = Date.now();
  // CLIENT_LIMIT_SCALE as the bench sets it, so the per-account message limit does not cap the sends.
  const api = start("api", "api/main.ts", { ...base, API_PORT: String(apiPort), API_HOST: "127.0.0.1", DATA_DIR: dataDir, SESSION_SECRET: secret, CLIENT_LIMIT_SCALE: "10000" });
  const web = start("web", "server/main.ts", { ...base, PORT: String(webPort), HOST: "127.0.0.1", API_URL: `http://127.0.0.1:${apiPort}` });
  const webUrl = `http://127.0.0.1:${webPort}`;
  let requests = 0;
  let loadStarted = started;
  try {
    for (let i = 0; ; i++) {
      if (await answersOk(`${webUrl}/healthz`).catch(() => false)) break;
      if (api.exitCode !== null || web.exitCode !== null) throw new Error(`${api.exitCode !== null ? "api" : "web"} exited (${api.exitCode ?? web.exitCode})`);
      if (i > 1500) throw new Error("web/api did not come up");
      await new Promise((r) => setTimeout(r, 200));
    }
    const cookie = await logIn(webUrl, "demo@example.com", "demo-password");
    // A warm-up until steady (JIT, heap, caches; bench/load.ts) that the summary leaves out with the start-up.
    const first = paths.find((p) => p !== "sends");
    if (first) {
      const warm = await warmUp(`${webUrl}${first.replace(/^anon:/, "")}`, { seconds: 3, maxSeconds: 40, connections, headers: { ...browserHeaders, cookie } });
      console.error(`warm-up: ${describeWarmUp(warm)}`);
    }
    loadStarted = Date.now();
    for (const target of paths) {
      if (target === "sends" && senders) {
        const apiUrl = `http://127.0.0.1:${apiPort}`;
        console.error(`sends: ${seconds} s after a 3 s warm-up...`);
        // The summary starts after the sends' own warm-up when they are the first path.
        const beforeMeasure = async () => {
          if (target === paths[0]) loadStarted = Date.now();
        };
        const result = await runPaidSends(apiUrl, senders, { seconds, warmupSeconds: 3, connections, beforeMeasure, cpu: () => null });
        requests += result.requests;
        console.log(`sends: ${result.sendsPerSec.toFixed(1)}/s, p99 ${result.latencyMs.p99.toFixed(0)} ms, non-201 ${result.non201}, errors ${result.errors}`);
        continue;
      }
      const anonymous = target.startsWith("anon:");
      const url = webUrl + (anonymous ? target.slice(5) : target);
      const headers = anonymous ? browserHeaders : { ...browserHeaders, cookie };
      const result = await measure(target, url, { seconds, connections, headers });
      requests += result.requests;
      console.log(`${target}: ${result.reqPerSec.toFixed(1)} req/s, p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}`);
    }
  } finally {
    for (const child of [web, api]) child.kill("SIGTERM");
    await Promise.all([web, api].map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r)))));
    rmSync(dataDir, { recursive: true, force: true });
  }
  summarise("web", requests, loadStarted - started);
  summarise("api", requests, loadStarted - started);
  console.log(`\nprofiles: ${outDir}/{web,api}/*.cpuprofile`);
}

void main();
