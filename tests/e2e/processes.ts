import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository (the services run from it); not from ./fixtures, so vitest's scale-out test can use this file too. */
const projectRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Services started by a spec itself (not the shared webServer), each one node process in its own group. */
export type Managed = { name: string; child: ChildProcess; output: string[] };

/** The environment for the children: the runner's, without anything that would point them elsewhere; both in demo mode, as the shared webServer. */
export function childEnv(extra: Record<string, string>, drop: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "API_URL", "HOST", "PORT", "API_PORT", "DATA_DIR", "E2E_DATA_DIR", ...drop]) Reflect.deleteProperty(env, name);
  return { ...env, LOG_LEVEL: "warn", APP_MODE: "demo", ...extra };
}

/** `npx tsx <script>` without the npx/tsx wrapper processes: one node process per service, in its own group. */
export function start(name: string, script: string, env: NodeJS.ProcessEnv): Managed {
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: projectRoot, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const managed: Managed = { name, child, output: [] };
  const keep = (chunk: Buffer) => {
    managed.output.push(chunk.toString());
    if (managed.output.length > 200) managed.output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return managed;
}

export function running(managed: Managed): boolean {
  return managed.child.exitCode === null && managed.child.signalCode === null;
}

/** Signals the child's whole process group and waits for it to exit; SIGKILL after the grace time. */
export async function stop(managed: Managed, signal: NodeJS.Signals = "SIGTERM", graceMs = 8000): Promise<void> {
  const { child } = managed;
  if (!running(managed) || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), sig);
    } catch {
      // The group is already gone.
    }
  };
  kill(signal);
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs));
  if ((await Promise.race([exited, timer])) === "timeout") {
    kill("SIGKILL");
    await exited;
  }
}

export async function status(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

/** Polls until `url` answers 200; fails early when the process died. */
export async function waitHealthy(managed: Managed, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running(managed)) throw new Error(`${managed.name} exited (${managed.child.exitCode ?? managed.child.signalCode}):\n${managed.output.join("")}`);
    if ((await status(url)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${managed.name} not healthy at ${url} within ${timeoutMs} ms:\n${managed.output.join("")}`);
}

