import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../db/client";
import { jobRuns } from "../db/schema";

/** This api process, as job_runs names the instance that ran a job (host, process id, and a tag against reused ids). */
export const instanceName = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/**
 * How often each scheduled job is due, written here only. A job's start may pass `intervalScale` (the api passes
 * JOB_INTERVAL_SCALE: tests and the scale-out test shorten every interval). The push worker is not here: it wakes on
 * a NOTIFY (api/jobs/push.ts).
 */
export const jobIntervalsMs = {
  "settle-payments": 60_000,
  "notification-mails": 60_000,
  "data-export": 5 * 60_000,
  "erase-deleted-accounts": 60 * 60_000,
  "sweep-chat-images": 6 * 60 * 60_000,
  "prune-client-limits": 60 * 60_000,
  "analytics-messages": 60_000,
} as const;
export type ScheduledJobName = keyof typeof jobIntervalsMs;

/** How long job_runs keeps its rows. */
const keepDays = 7;

/** The due time a moment falls in: intervals counted from the epoch, so every instance agrees on them. */
export function dueTimeOf(now: number, intervalMs: number): Date {
  return new Date(Math.floor(now / intervalMs) * intervalMs);
}

/**
 * Claims a job's due time for this instance: true when this instance inserted its job_runs row (it runs the job),
 * false when another instance had (it runs or ran it). Rows past keepDays go in the same statement.
 */
export async function claimDueTime(db: Db, job: string, dueAt: Date, instance = instanceName): Promise<boolean> {
  const claimed = await db
    .insert(jobRuns)
    .values({ job, dueAt, instance })
    .onConflictDoNothing()
    .returning({ job: jobRuns.job });
  await db.execute(sql`delete from ${jobRuns} where ${jobRuns.job} = ${job} and ${jobRuns.dueAt} < now() - make_interval(days => ${keepDays})`);
  return claimed.length > 0;
}

async function recordOutcome(db: Db, job: string, dueAt: Date, outcome: "ok" | "failed"): Promise<void> {
  await db.execute(sql`update ${jobRuns} set finished_at = now(), outcome = ${outcome} where ${jobRuns.job} = ${job} and ${jobRuns.dueAt} = ${dueAt}`);
}

export type ScheduledJob = { stop: () => void };

/**
 * Runs `task` once per due time (every jobIntervalsMs[job] × intervalScale, from the epoch) across every api instance on the database:
 * each instance wakes at each due time (and at start, for the due time under way), and the one whose claim
 * lands runs the task; the others skip it. A run still going when the next due time comes makes this instance
 * skip that one. The timer does not keep the process alive.
 */
export function scheduleJob(db: Db, options: { job: ScheduledJobName; intervalScale?: number; logger: Logger }, task: () => Promise<void>): ScheduledJob {
  const { job, logger } = options;
  const intervalMs = jobIntervalsMs[job] * (options.intervalScale ?? 1);
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const runDue = async (dueAt: Date) => {
    if (running) return;
    running = true;
    try {
      if (!(await claimDueTime(db, job, dueAt))) return;
      let outcome: "ok" | "failed" = "ok";
      try {
        await task();
      } catch (error) {
        outcome = "failed";
        logger.error({ job, err: error }, "job failed");
      }
      await recordOutcome(db, job, dueAt, outcome);
    } catch (error) {
      logger.error({ job, err: error }, "job could not be claimed");
    } finally {
      running = false;
    }
  };

  const wakeAtNextDueTime = () => {
    if (stopped) return;
    const now = Date.now();
    const next = dueTimeOf(now, intervalMs).getTime() + intervalMs;
    timer = setTimeout(() => {
      void runDue(new Date(next));
      wakeAtNextDueTime();
    }, next - now);
    timer.unref();
  };

  void runDue(dueTimeOf(Date.now(), intervalMs));
  wakeAtNextDueTime();
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
