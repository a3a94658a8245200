import { eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../db/client";
import { dataExports, sites, users } from "../db/schema";
import { claimPendingExport, markExport, removeExpiredExports, writeDataExport, type DataExport } from "../domain/accounts/data-export";
import { mailLink } from "../domain/accounts/links";
import { recipientOf } from "../domain/accounts/recipient";
import { unsubscribeUrl } from "../domain/notifications";
import type { Mailer } from "../services/mail";
import { recordJobRun } from "../metrics";
import { scheduleJob } from "./schedule";


export type DataExportJob = {
  /** Runs the queue now (a member just asked); runs already under way take the new request along. */
  kick: () => Promise<void>;
  stop: () => void;
};

/** Mails the member the link to their ready export (api/services/mail.ts; a failed send is logged by the mailer). */
async function mailReady(db: Db, mailer: Mailer, row: DataExport, logger: Logger, unsubscribeKey: Buffer): Promise<void> {
  const recipient = await recipientOf(db, row.userId);
  const [site] = await db.select({ id: sites.id, name: sites.name, mailName: sites.mailName, domain: sites.domain }).from(users).innerJoin(sites, eq(sites.id, users.siteId)).where(eq(users.id, row.userId));
  if (!recipient || !site) return;
  await mailer.send(
    {
      kind: "data_export",
      to: recipient.email,
      language: recipient.language,
      name: recipient.name,
      site: { name: site.name, mailName: site.mailName, domain: site.domain },
      link: mailLink(row.origin, recipient.language, "data_export", row.token),
      userId: row.userId,
      unsubscribeUrl: unsubscribeUrl(row.origin, unsubscribeKey, site.id, row.userId),
    },
    logger,
  );
}

/** Exports asked for and not yet being built (job_backlog, api/http/metrics.ts). */
export async function dataExportBacklog(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(dataExports).where(eq(dataExports.status, "pending"));
  return row?.n ?? 0;
}

/**
 * Data export: builds pending exports one by one (a zip of JSON files and photos in DATA_DIR/exports),
 * mails each member the link, and deletes zips past their 7 days. Runs when a member asks (kick) and every
 * few minutes for anything left (a restart in between); the timer does not keep the process alive.
 */
export function startDataExportJob(db: Db, options: { dataDir: string; mailer: Mailer; logger: Logger; unsubscribeKey: Buffer; intervalScale?: number; periodic?: boolean }): DataExportJob {
  const logger = options.logger.child({ job: "data-export" });
  let running: Promise<void> | null = null;
  let again = false;
  /** One pass: every pending export; returns how many failed (the pass then counts as failed, job_runs_total). */
  const drain = async (): Promise<number> => {
    let failures = 0;
    await removeExpiredExports(db, options.dataDir);
    for (let row = await claimPendingExport(db); row; row = await claimPendingExport(db)) {
      try {
        await writeDataExport(db, row, options.dataDir);
        await markExport(db, row.id, "ready");
        logger.info({ exportId: row.id, userId: row.userId }, "data export ready");
        await mailReady(db, options.mailer, row, logger, options.unsubscribeKey);
      } catch (error) {
        await markExport(db, row.id, "failed");
        logger.error({ exportId: row.id, userId: row.userId, err: error }, "data export failed");
        failures += 1;
      }
    }
    return failures;
  };
  const kick = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await recordJobRun("data-export", drain, (failures) => failures > 0);
        } catch (error) {
          logger.error({ err: error }, "data export run failed");
        }
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  };
  // Without `periodic` (tests' apps) the queue runs only when a member asks.
  if (!options.periodic) return { kick, stop: () => undefined };
  // The pass for what is left runs once per due time across the api instances (api/jobs/schedule.ts).
  const scheduled = scheduleJob(db, { job: "data-export", intervalScale: options.intervalScale, logger }, kick);
  return { kick, stop: scheduled.stop };
}
