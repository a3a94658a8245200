import type { Logger } from "pino";
import type { Db } from "../db/client";
import { rollUpMessages } from "../domain/analytics/rollups";
import { recordJobRun } from "../metrics";
import { scheduleJob, type ScheduledJob } from "./schedule";

/** The messages sent since the last pass go into the analytics rollups every minute, once across the api instances (a bounded batch a pass). */
export function startAnalyticsRollUp(db: Db, options: { logger: Logger; intervalScale?: number }): ScheduledJob {
  return scheduleJob(db, { job: "analytics-messages", intervalScale: options.intervalScale, logger: options.logger }, async () => {
    await recordJobRun("analytics-messages", () => rollUpMessages(db));
  });
}
