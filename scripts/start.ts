/**
 * `npm start`: builds the site if there is no production build, then runs the api on a loopback
 * port and web on PORT (3000), unless API_URL points web at an api elsewhere. Both run in one mode:
 * demo unless APP_MODE=production (or NODE_ENV=production) is set (docs/security.md, Modes).
 * The services run compiled (build/services, scripts/build-services.mjs) with plain node; `npm start` runs this file
 * compiled too. `--dev` runs web with Vite's dev server instead of the build, and both services from their
 * TypeScript through tsx.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { configErrorExitCode } from "#contract/app-mode";
import { serviceEnvs, serviceNodeFlags } from "./start-env";
import { loadApiConfig } from "../api/config";
import { loadWebConfig } from "../server/config";

const dev = process.argv.includes("--dev");
const apiPort = process.env.API_PORT ?? "3001";
const external = Boolean(process.env.API_URL);

let envs: ReturnType<typeof serviceEnvs>;
try {
  envs = serviceEnvs(process.env, { dev, apiPort });
  // One check of the whole configuration before anything is built or started: every refusal is one line (each service
  // refuses the same at its own start). A live site's api must not start half-configured; demo mode has defaults for
  // what production mode requires, and its payment routes and provider keys are checked all the same.
  loadWebConfig({ ...process.env, ...envs.web });
  if (!external) loadApiConfig({ ...process.env, ...envs.api });
} catch (error) {
  console.error((error as Error).message);
  process.exit(configErrorExitCode);
}

if (!dev && !existsSync("build/server/index.js")) {
  console.log("No production build yet: building (about 10 s)...");
  const result = spawnSync("npx", ["remix", "vite:build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
if (!dev) {
  // The compiled services, made again when a source file is newer than them (about 1 s), so that a test run after an
  // edit runs the edited code.
  const result = spawnSync(process.execPath, ["scripts/build-services.mjs", "--if-stale"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Each service's entry: its compiled file, or its TypeScript through tsx in development. */
const entries = dev ? { api: ["--import", "tsx", "api/main.ts"], web: ["--import", "tsx", "server/main.ts"] } : { api: ["build/services/api.js"], web: ["build/services/web.js"] };

const children = new Map<string, ChildProcess>();
let stopping = false;

/**
 * Starts a service. When the api dies, web keeps serving (its pages answer 503 meanwhile) and the
 * api is started again with a growing delay; when web dies, or the api refuses its configuration
 * (a restart would be refused again), everything stops with that exit code.
 */
function run(name: "api" | "web", env: Record<string, string>, restartDelayMs = 0) {
  const startedAt = Date.now();
  const child = spawn(process.execPath, [...serviceNodeFlags, ...entries[name]], { stdio: "inherit", env: { ...process.env, ...env } });
  children.set(name, child);
  child.on("exit", (code, signal) => {
    children.delete(name);
    if (stopping) {
      // No argument: the exit code set when stopping began stands.
      if (children.size === 0) process.exit();
      return;
    }
    console.log(`${name} exited (${signal ?? code})`);
    if (name === "api" && code !== configErrorExitCode) {
      // A crash soon after start doubles the delay (up to 30 s); a long healthy run resets it.
      const delay = Date.now() - startedAt > 60_000 ? 1000 : Math.min(30_000, Math.max(1000, restartDelayMs * 2));
      console.log(`restarting api in ${delay / 1000} s`);
      setTimeout(() => run(name, env, delay), delay);
      return;
    }
    process.exitCode = code ?? 1;
    stopAll("SIGTERM");
  });
}

function stopAll(signal: NodeJS.Signals) {
  stopping = true;
  for (const child of children.values()) child.kill(signal);
  if (children.size === 0) process.exit();
  setTimeout(() => process.exit(), 6000).unref();
}

if (!external) run("api", envs.api);
run("web", envs.web);
const where = external ? `api at ${process.env.API_URL}` : `api on 127.0.0.1:${apiPort}`;
const mode = envs.mode === "demo" ? "DEMO mode: payments go through the sandbox checkout, where the payer picks the outcome; no real money moves" : "production mode";
console.log(`Rendezvous (${mode}): http://localhost:${process.env.PORT ?? 3000} (${where})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stopAll(signal));
