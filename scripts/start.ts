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

const children: ChildProcess[] = [];
function run(name: string, script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: "inherit", env: { ...process.env, ...env } });
  child.on("exit", (code, signal) => {
    console.log(`${name} exited (${signal ?? code})`);
    for (const other of children) if (other !== child) other.kill("SIGTERM");
    process.exit(code ?? 1);
  });
  children.push(child);
}

if (!external) run("api", "api/main.ts", { API_PORT: apiPort, API_HOST: "127.0.0.1" });
run("web", "server/main.ts", {
  NODE_ENV: dev ? "development" : "production",
  API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}`,
});
if (!external) console.log(`Rendezvous: http://localhost:${process.env.PORT ?? 3000} (api on 127.0.0.1:${apiPort})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
