import type { Logger } from "pino";
import type { Db } from "../db/client";
import { pruneClientLimits } from "../http/limits";
import { recordJobRun } from "../metrics";
import { scheduleJob, type ScheduledJob } from "./schedule";

/** Client limits' counts (api/http/limits.ts) whose window ended over an hour ago go every hour, once across the api instances. */
export function startClientLimitsPrune(db: Db, options: { logger: Logger; intervalScale?: number }): ScheduledJob {
  return scheduleJob(db, { job: "prune-client-limits", intervalScale: options.intervalScale, logger: options.logger }, async () => {
    await recordJobRun("prune-client-limits", () => pruneClientLimits(db));
  });
}
