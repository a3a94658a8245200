import type { Logger } from "pino";
import type { Db } from "../db/client";
import { messageBatch, rollUpMessages } from "../domain/analytics/rollups";
import { recordJobRun } from "../metrics";
import { scheduleJob, type ScheduledJob } from "./schedule";

/** The messages sent since the last pass go into the analytics rollups every minute, once across the api instances (bounded batches). */
export function startAnalyticsRollUp(db: Db, options: { logger: Logger; intervalScale?: number }): ScheduledJob {
  return scheduleJob(db, { job: "analytics-messages", intervalScale: options.intervalScale, logger: options.logger }, async () => {
    await recordJobRun("analytics-messages", async () => {
      // Batch after batch until caught up, at most 50 a run (250,000 messages; the next run goes on).
      for (let batch = 0; batch < 50 && (await rollUpMessages(db)) === messageBatch; batch++);
    });
  });
}
