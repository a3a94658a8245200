/**
 * `npx tsx bench/service-start.ts`: how long each service takes from its process start to its first successful
 * answer of /healthz, and its resident memory then, run from the TypeScript through tsx (as `npm start` ran them
 * before build/services) and compiled (build/services, plain node), in turns: START_RUNS (default 5) of each.
 * Resident memory is the process's and its children's (tsx's esbuild service), read from /proc once /healthz answers
 * and again START_SETTLE_MS (default 3000) later. START_PORT: the api's port (web's the next), else two free ones. Needs the production build (npm run build). docs/operations.md
 * has the figures.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./processes";
import { serviceNodeFlags } from "../scripts/start-env";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.env.START_RUNS ?? 5);
const settleMs = Number(process.env.START_SETTLE_MS ?? 3000);

const ways = {
  tsx: { api: ["--import", "tsx", "api/main.ts"], web: ["--import", "tsx", "server/main.ts"] },
  compiled: { api: ["build/services/api.js"], web: ["build/services/web.js"] },
} as const;
type Way = keyof typeof ways;

/** Resident memory in MB of a process and its descendants (from /proc). */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // The process ended meanwhile.
    }
  }
  let kb = 0;
  const visit = (id: number) => {
    kb += rss.get(id) ?? 0;
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return kb / 1024;
}

async function firstAnswer(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before answering ${url}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

type Sample = { ms: number; rssMb: number; settledRssMb: number };

async function startOnce(service: "api" | "web", way: Way, env: NodeJS.ProcessEnv, port: number): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, [...serviceNodeFlags, ...ways[way][service]], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  try {
    await firstAnswer(`http://127.0.0.1:${port}/healthz`, child);
    const ms = performance.now() - started;
    const rssMb = treeRssMb(child.pid!);
    await new Promise((r) => setTimeout(r, settleMs));
    return { ms, rssMb, settledRssMb: treeRssMb(child.pid!) };
  } finally {
    await stop(child);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rdv-start-data-"));
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", APP_MODE: "demo", LOG_LEVEL: "warn", DATA_DIR: dataDir, SESSION_SECRET: randomBytes(32).toString("base64url") };
  delete base.DATABASE_URL;
  delete base.API_URL;
  // START_PORT: the api on it and web on the next (a free pair picked by the system otherwise).
  const [apiPort, webPort] = process.env.START_PORT ? [Number(process.env.START_PORT), Number(process.env.START_PORT) + 1] : [await freePort(), await freePort()];
  const apiEnv = { ...base, API_PORT: String(apiPort), API_HOST: "127.0.0.1" };
  const webEnv = { ...base, PORT: String(webPort), HOST: "127.0.0.1", API_URL: `http://127.0.0.1:${apiPort}` };
  const samples: Record<string, Sample[]> = {};
  let api: ChildProcess | null = null;
  try {
    // The first start makes the demo data: not measured, so every measured start opens the same database.
    await startOnce("api", "compiled", apiEnv, apiPort);
    for (let run = 0; run < runs; run++) {
      const order: Way[] = run % 2 === 0 ? ["tsx", "compiled"] : ["compiled", "tsx"];
      for (const way of order) {
        const sample = await startOnce("api", way, apiEnv, apiPort);
        (samples[`api ${way}`] ??= []).push(sample);
        console.error(`api ${way}: ${sample.ms.toFixed(0)} ms, ${sample.rssMb.toFixed(0)} MB, ${sample.settledRssMb.toFixed(0)} MB after ${settleMs} ms`);
      }
    }
    // web's /healthz answers 200 once the api does: one api (compiled) for all of web's starts.
    api = spawn(process.execPath, [...serviceNodeFlags, ...ways.compiled.api], { cwd: root, env: apiEnv, stdio: ["ignore", "ignore", "inherit"] });
    await firstAnswer(`http://127.0.0.1:${apiPort}/healthz`, api);
    for (let run = 0; run < runs; run++) {
      const order: Way[] = run % 2 === 0 ? ["tsx", "compiled"] : ["compiled", "tsx"];
      for (const way of order) {
        const sample = await startOnce("web", way, webEnv, webPort);
        (samples[`web ${way}`] ??= []).push(sample);
        console.error(`web ${way}: ${sample.ms.toFixed(0)} ms, ${sample.rssMb.toFixed(0)} MB, ${sample.settledRssMb.toFixed(0)} MB after ${settleMs} ms`);
      }
    }
  } finally {
    if (api) await stop(api);
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`| service, how | start to first /healthz answer (median of ${runs}; range) | resident memory then | ${settleMs / 1000} s later |`);
  console.log("|---|---|---|---|");
  for (const [name, list] of Object.entries(samples)) {
    const ms = list.map((s) => s.ms);
    console.log(
      `| ${name} | ${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)}) | ${median(list.map((s) => s.rssMb)).toFixed(0)} MB | ${median(list.map((s) => s.settledRssMb)).toFixed(0)} MB |`,
    );
  }
  for (const service of ["api", "web"]) {
    const tsx = samples[`${service} tsx`]!;
    const compiled = samples[`${service} compiled`]!;
    // Paired by run: each run started both, one right after the other.
    const startRatio = median(compiled.map((s, i) => s.ms / tsx[i]!.ms));
    const rssRatio = median(compiled.map((s, i) => s.settledRssMb / tsx[i]!.settledRssMb));
    console.log(`${service}: compiled ÷ tsx, start time ${startRatio.toFixed(2)}, resident memory ${rssRatio.toFixed(2)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
