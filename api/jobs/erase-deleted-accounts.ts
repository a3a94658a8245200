import type { Logger } from "pino";
import type { Db } from "../db/client";
import { eraseDeletedAccounts } from "../domain/accounts/erase";
import { recordJobRun } from "../metrics";
import { scheduleJob, type ScheduledJob } from "./schedule";

export { eraseDeletedAccounts };


/** Runs the erase pass every hour, once across the api instances (api/jobs/schedule.ts). */
export function startEraseJob(db: Db, options: { dataDir: string; logger: Logger; intervalScale?: number }): ScheduledJob {
  return scheduleJob(db, { job: "erase-deleted-accounts", intervalScale: options.intervalScale, logger: options.logger }, async () => {
    const { erased } = await recordJobRun("erase-deleted-accounts", () => eraseDeletedAccounts(db, { dataDir: options.dataDir }));
    if (erased.length > 0) options.logger.info({ job: "erase-deleted-accounts", erased: erased.length, userIds: erased }, "deleted accounts erased");
  });
}
