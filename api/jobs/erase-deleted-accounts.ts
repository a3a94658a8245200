import type { Logger } from "pino";
import type { Db } from "../db/client";
import { eraseDeletedAccounts } from "../domain/accounts/erase";

export { eraseDeletedAccounts };

const hourMs = 60 * 60 * 1000;

/** Runs the erase pass at start and every hour; the timer does not keep the process alive. */
export function startEraseJob(db: Db, options: { dataDir: string; logger: Logger; intervalMs?: number }): () => void {
  const run = async () => {
    try {
      const { erased } = await eraseDeletedAccounts(db, { dataDir: options.dataDir });
      if (erased.length > 0) options.logger.info({ job: "erase-deleted-accounts", erased: erased.length, userIds: erased }, "deleted accounts erased");
    } catch (error) {
      options.logger.error({ job: "erase-deleted-accounts", err: error }, "erase job failed");
    }
  };
  void run();
  const timer = setInterval(() => void run(), options.intervalMs ?? hourMs);
  timer.unref();
  return () => clearInterval(timer);
}
