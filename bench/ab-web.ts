/**
 * `npx tsx bench/ab-web.ts A=<dir> B=<dir> [C=<dir>:NAME=value,...]`: web processes of different builds side by side
 * against one api, loaded in turns: the A/B of docs/performance-history.md as a command.
 *
 * Each variant is a name, the project folder whose production build it runs (its build/services/web.js and
 * build/server, build/client; "." is this one) and, after a colon, extra environment variables. One api (this
 * project's compiled one, PGlite with demo data in a fresh temporary DATA_DIR) serves them all. Each web is warmed
 * up until steady (bench/load.ts); then AB_ROUNDS rounds (default 6) of AB_SECONDS (10) of logged-in AB_PATH
 * (/members) at AB_CONNECTIONS (50), the variants in a new order each round (rotated), web's CPU a page from /proc.
 * Prints each round and, per variant, the median over the rounds of its CPU a page and req/s relative to the first
 * variant's in the same round: ratios, since this machine's speed moves between rounds (docs/performance-history.md,
 * "How far an A/B can be trusted": a difference under about 15% between two processes is no evidence on its own).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { answersOk, browserHeaders, logIn } from "./http";
import { freePort } from "./processes";
import { cpuMs } from "./cpu";
import { describeWarmUp, measure, warmUp } from "./load";
import { serviceNodeFlags } from "../scripts/start-env";

const root = fileURLToPath(new URL("..", import.meta.url));
const rounds = Number(process.env.AB_ROUNDS ?? 6);
const seconds = Number(process.env.AB_SECONDS ?? 10);
const connections = Number(process.env.AB_CONNECTIONS ?? 50);
const target = process.env.AB_PATH ?? "/members";

type Variant = { name: string; dir: string; env: Record<string, string>; child?: ChildProcess; url?: string };

function parseVariant(arg: string): Variant {
  const [name, rest] = arg.split(/=(.*)/s) as [string, string | undefined];
  if (!rest) throw new Error(`"${arg}": a variant is NAME=<dir>[:VAR=value,...]`);
  const [dir, vars] = rest.split(/:(.*)/s) as [string, string | undefined];
  const env = Object.fromEntries((vars ?? "").split(",").filter(Boolean).map((pair) => pair.split(/=(.*)/s) as [string, string]));
  return { name, dir: path.resolve(dir), env };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function waitHealthy(url: string, child: ChildProcess, name: string): Promise<void> {
  for (let i = 0; ; i++) {
    if (await answersOk(`${url}/healthz`).catch(() => false)) return;
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode})`);
    if (i > 1500) throw new Error(`${name} did not come up`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  const variants = process.argv.slice(2).map(parseVariant);
  if (variants.length < 2) throw new Error("give two variants or more, e.g. A=. B=/tmp/other-build");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rdv-ab-data-"));
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", APP_MODE: "demo", LOG_LEVEL: "warn" };
  delete base.DATABASE_URL;
  const apiPort = await freePort();
  const api = spawn(process.execPath, [...serviceNodeFlags, "build/services/api.js"], {
    cwd: root,
    env: { ...base, API_PORT: String(apiPort), API_HOST: "127.0.0.1", DATA_DIR: dataDir, SESSION_SECRET: randomBytes(32).toString("base64url") },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (const variant of variants) {
      const port = await freePort();
      variant.url = `http://127.0.0.1:${port}`;
      variant.child = spawn(process.execPath, [...serviceNodeFlags, "build/services/web.js"], {
        cwd: variant.dir,
        env: { ...base, ...variant.env, PORT: String(port), HOST: "127.0.0.1", API_URL: `http://127.0.0.1:${apiPort}` },
        stdio: ["ignore", "ignore", "inherit"],
      });
    }
    for (const variant of variants) await waitHealthy(variant.url!, variant.child!, variant.name);
    const cookie = await logIn(variants[0]!.url!, "demo@example.com", "demo-password");
    const headers = { ...browserHeaders, cookie };
    for (const variant of variants) {
      const warm = await warmUp(variant.url! + target, { seconds: 3, maxSeconds: Number(process.env.AB_WARMUP_SECONDS ?? 30), connections, headers });
      console.error(`${variant.name} warm-up: ${describeWarmUp(warm)}`);
    }
    const results = new Map<string, { cpu: number; rate: number }[]>(variants.map((v) => [v.name, []]));
    for (let round = 0; round < rounds; round++) {
      const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
      const line: string[] = [];
      for (const variant of order) {
        const before = cpuMs(variant.child!.pid);
        const result = await measure(variant.name, variant.url! + target, { seconds, connections, headers });
        const after = cpuMs(variant.child!.pid);
        // On a machine this busy a page may time out (10 s) or web's call to the api may (503): counted, not fatal
        // while they are a few; more would make the round's CPU a page meaningless.
        if (result.non2xx + result.errors > 0) console.error(`${variant.name}: ${result.non2xx} not 2xx (${JSON.stringify(result.statusCodes)}), ${result.errors} errors or timeouts in round ${round + 1}`);
        if (result.non2xx + result.errors > result.requests * 0.05) throw new Error(`${variant.name}: over 5% of the round's requests failed`);
        const cpu = before !== null && after !== null ? (after - before) / result.requests : NaN;
        results.get(variant.name)!.push({ cpu, rate: result.reqPerSec });
        line.push(`${variant.name} ${cpu.toFixed(2)} ms ${result.reqPerSec.toFixed(0)}/s`);
      }
      console.log(`round ${round + 1}: ${line.join(" | ")}`);
    }
    const first = results.get(variants[0]!.name)!;
    for (const variant of variants) {
      const own = results.get(variant.name)!;
      const cpuRatio = median(own.map((r, i) => r.cpu / first[i]!.cpu));
      const rateRatio = median(own.map((r, i) => r.rate / first[i]!.rate));
      console.log(
        `${variant.name}: web CPU a page ${median(own.map((r) => r.cpu)).toFixed(2)} ms (median), ` +
          `÷ ${variants[0]!.name} ${cpuRatio.toFixed(3)}; pages a second ÷ ${variants[0]!.name} ${rateRatio.toFixed(3)}`,
      );
    }
  } finally {
    for (const child of [...variants.map((v) => v.child), api]) child?.kill("SIGTERM");
    await Promise.all([...variants.map((v) => v.child), api].map((c) => c && new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r)))));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
