import { eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../db/client";
import { payments } from "../db/schema";
import type { PaymentProviders } from "../services/payments";
import { settleAbandonedPayments } from "../domain/payments/payments";
import { recordJobRun } from "../metrics";
import { scheduleJob, type ScheduledJob } from "./schedule";

/** Runs the settle pass (docs/payments.md) every minute, once across the api instances (api/jobs/schedule.ts). */
export function startSettlePaymentsJob(db: Db, providers: PaymentProviders, options: { logger: Logger; intervalScale?: number }): ScheduledJob {
  return scheduleJob(db, { job: "settle-payments", intervalScale: options.intervalScale, logger: options.logger }, async () => {
    const done = await recordJobRun("settle-payments", () => settleAbandonedPayments(db, providers));
    if (done.expired || done.renotified) options.logger.info({ job: "settle-payments", ...done }, "pending payments settled");
  });
}

/**
 * The payments this job waits on (job_backlog and payments_pending_oldest_seconds, api/http/metrics.ts): how many are
 * pending, and for how many seconds the oldest has been (0 when none is).
 */
export async function pendingPayments(db: Db): Promise<{ count: number; oldestSeconds: number }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, oldestSeconds: sql<number>`coalesce(extract(epoch from now() - min(${payments.createdAt})), 0)::float8` })
    .from(payments)
    .where(eq(payments.status, "pending"));
  return { count: row?.count ?? 0, oldestSeconds: Number(row?.oldestSeconds ?? 0) };
}
