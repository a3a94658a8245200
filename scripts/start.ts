/**
 * `npm start`: builds the site if there is no production build, then runs the api on a loopback
 * port and web on PORT (3000), unless API_URL points web at an api elsewhere.
 * `--dev` runs web with Vite's dev server instead of the build.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

const dev = process.argv.includes("--dev");
const apiPort = process.env.API_PORT ?? "3001";
const external = Boolean(process.env.API_URL);

if (!dev && !existsSync("build/server/index.js")) {
  console.log("No production build yet: building (about 10 s)...");
  const result = spawnSync("npx", ["remix", "vite:build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const children = new Map<string, ChildProcess>();
let stopping = false;

/**
 * Starts a service. When the api dies, web keeps serving (its pages answer 503 meanwhile) and the
 * api is started again with a growing delay; when web dies, everything stops.
 */
function run(name: string, script: string, env: Record<string, string>, restartDelayMs = 0) {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: "inherit", env: { ...process.env, ...env } });
  children.set(name, child);
  child.on("exit", (code, signal) => {
    children.delete(name);
    if (stopping) {
      if (children.size === 0) process.exit(0);
      return;
    }
    console.log(`${name} exited (${signal ?? code})`);
    if (name === "api") {
      // A crash soon after start doubles the delay (up to 30 s); a long healthy run resets it.
      const delay = Date.now() - startedAt > 60_000 ? 1000 : Math.min(30_000, Math.max(1000, restartDelayMs * 2));
      console.log(`restarting api in ${delay / 1000} s`);
      setTimeout(() => run(name, script, env, delay), delay);
      return;
    }
    stopAll("SIGTERM");
    process.exitCode = code ?? 1;
  });
}

function stopAll(signal: NodeJS.Signals) {
  stopping = true;
  for (const child of children.values()) child.kill(signal);
  if (children.size === 0) process.exit();
  setTimeout(() => process.exit(), 6000).unref();
}

if (!external) run("api", "api/main.ts", { API_PORT: apiPort, API_HOST: "127.0.0.1" });
run("web", "server/main.ts", {
  NODE_ENV: dev ? "development" : "production",
  API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}`,
});
if (!external) console.log(`Rendezvous: http://localhost:${process.env.PORT ?? 3000} (api on 127.0.0.1:${apiPort})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stopAll(signal));
