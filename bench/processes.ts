/**
 * The bench's child processes (api, web, bare Remix, bare Express): started with piped, prefixed output, and
 * always stopped at the end (SIGTERM, then SIGKILL), also when the bench fails or is interrupted.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

type Managed = { name: string; child: ChildProcess; tail: string[]; lines: number; messages: Map<string, number>; exited: Promise<void> };

const tailLines = 40;
/** Lines of a process's output shown as they come; the rest are counted (and kept in the tail). */
const liveLines = 8;

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

export class ProcessGroup {
  private readonly managed: Managed[] = [];
  private stopping: Promise<void> | null = null;
  /** The first unexpected exit, as a message; the bench checks it between steps. */
  failure: string | null = null;

  constructor(private readonly cwd: string) {
    // Last resort if the bench exits without stopping them (an uncaught error, process.exit).
    process.on("exit", () => {
      for (const { child } of this.managed) if (alive(child)) child.kill("SIGKILL");
    });
  }

  /** Runs `node --import tsx [--import <preload>...] <script>` in the repository with the given environment. */
  start(name: string, script: string, env: NodeJS.ProcessEnv, preload: string[] = [], nodeFlags: string[] = []): void {
    const imports = preload.flatMap((module) => ["--import", module]);
    const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", ...imports, script], { cwd: this.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const entry: Managed = {
      name,
      child,
      tail: [],
      lines: 0,
      messages: new Map(),
      exited: new Promise((resolve) => child.once("exit", () => resolve())),
    };
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on("line", (line) => {
        entry.lines += 1;
        entry.tail.push(line);
        if (entry.tail.length > tailLines) entry.tail.shift();
        const message = logMessage(line);
        entry.messages.set(message, (entry.messages.get(message) ?? 0) + 1);
        if (entry.lines <= liveLines) process.stderr.write(`[${name}] ${line}\n`);
        else if (entry.lines === liveLines + 1) process.stderr.write(`[${name}] ... (more output not shown; counted in the summary)\n`);
      });
    }
    child.once("error", (error) => {
      this.failure ??= `${name} could not be started: ${error.message}`;
    });
    child.once("exit", (code, signal) => {
      if (this.stopping) return;
      // api and web exit 0 when they get SIGTERM/SIGINT: then something outside the bench stopped them.
      const hint = code === 0 && name !== "bare" ? ", as on SIGTERM/SIGINT: stopped from outside the bench?" : "";
      this.failure ??= `${name} exited unexpectedly (${signal ?? `code ${code}`}${hint})`;
    });
    this.managed.push(entry);
  }

  pid(name: string): number | undefined {
    return this.managed.find((m) => m.name === name)?.child.pid;
  }

  /** Throws if a process has died; the message carries the end of its output. */
  check(): void {
    if (this.failure) throw new Error(`${this.failure}\n${this.describeTails()}`);
  }

  /** What each process printed (with LOG_LEVEL=warn: warnings and errors), counted by pino message. */
  output(): Record<string, { lines: number; messages: Record<string, number> }> {
    return Object.fromEntries(this.managed.map((m) => [m.name, { lines: m.lines, messages: Object.fromEntries(m.messages) }]));
  }

  describeTails(): string {
    return this.managed
      .filter((m) => m.tail.length > 0)
      .map((m) => `--- last output of ${m.name} ---\n${m.tail.join("\n")}`)
      .join("\n");
  }

  /** Stops every process: SIGTERM, then SIGKILL after a grace period. Safe to call more than once. */
  stopAll(graceMs = 7000): Promise<void> {
    this.stopping ??= Promise.all(
      this.managed.map(async ({ child, exited }) => {
        if (!alive(child)) return;
        child.kill("SIGTERM");
        const timedOut = await Promise.race([exited.then(() => false), delay(graceMs, true).then(() => true)]);
        if (timedOut && alive(child)) {
          child.kill("SIGKILL");
          await Promise.race([exited, delay(2000, true)]);
        }
      }),
    ).then(() => undefined);
    return this.stopping;
  }
}

/** Resolves after `ms`; an unref'd delay does not keep the bench alive on its own. */
/** `level: msg` of a pino JSON line, else "other output". */
function logMessage(line: string): string {
  try {
    const entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
    const level = typeof entry.level === "number" ? (pinoLevels[entry.level] ?? String(entry.level)) : "log";
    return `${level}: ${typeof entry.msg === "string" ? entry.msg : "(no msg)"}`;
  } catch {
    return "other output";
  }
}

const pinoLevels: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };

export function delay(ms: number, unref = false): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (unref) timer.unref();
  });
}

/** A port the OS reports free on 127.0.0.1 (ephemeral range, so never 3000/3001). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("could not get a free port"))));
    });
  });
}

/** Polls `probe` until it returns true; fails on timeout or when a process of the group dies. */
export async function waitUntil(what: string, group: ProcessGroup, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    group.check();
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}\n${group.describeTails()}`);
    await delay(200);
  }
}
