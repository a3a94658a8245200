/**
 * CPU time a process has used, from /proc (Linux): divided by the requests of a run it gives the
 * CPU cost per request, which holds up better than req/s on a machine shared with other work.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU ms of a process so far, or null where /proc is not available. */
export function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm)": state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return ((utime + stime) * 1000) / clockTicks();
  } catch {
    return null;
  }
}

/**
 * Waits until the processes have (almost) stopped using CPU: after a warm-up the servers are still
 * working off the requests autocannon left in flight, which would be billed to the next run.
 */
export async function waitForIdle(pids: (number | undefined)[], maxMs = 10_000): Promise<void> {
  const total = () => pids.reduce<number | null>((sum, pid) => {
    const ms = cpuMs(pid);
    return sum === null || ms === null ? null : sum + ms;
  }, 0);
  const deadline = Date.now() + maxMs;
  let last = total();
  if (last === null) return;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = total();
    if (now === null) return;
    // Under 8% of a core over the last 250 ms: idle (timers, GC, the odd health check).
    if (now - last < 20) return;
    last = now;
  }
}

/**
 * CPU ms so far of every process of a PostgreSQL server on this machine (named `postgres`), by pid; null where /proc
 * cannot be read. Two samples give PostgreSQL's CPU between them (cpuSpent), for a server on the same machine.
 */
export function postgresCpu(): Map<number, number> | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const byPid = new Map<number, number>();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "postgres") continue;
    const ms = cpuMs(Number(pid));
    if (ms !== null) byPid.set(Number(pid), ms);
  }
  return byPid;
}

/**
 * The CPU ms the processes of `after` spent since `before`, counting the processes in both (a backend that started or
 * ended between the samples is left out: sample while the clients' connections are open). Null without processes.
 */
export function cpuSpent(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after || after.size === 0) return null;
  let ms = 0;
  for (const [pid, total] of after) {
    const start = before.get(pid);
    if (start !== undefined) ms += total - start;
  }
  return ms;
}
