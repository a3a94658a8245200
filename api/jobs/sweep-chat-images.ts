import { readdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { messages } from "../db/schema";
import { imageKeyOf } from "../domain/chat-media";
import { recordJobRun } from "../metrics";
import { scheduleJob, type ScheduledJob } from "./schedule";

const hourMs = 60 * 60 * 1000;

/*
 * Image messages' files (DATA_DIR/chat-images/img/{key}.jpg and {key}-t.jpg) outlive their messages when a
 * conversation goes (a block removes the pair's conversation; the erase job removes a member's profile and,
 * with it, their messages). This sweep deletes files no message names any more. A file younger than
 * `minAgeMs` is left alone: its message may be in the transaction that is writing it right now.
 */
export async function sweepChatImages(db: Db, options: { dataDir: string; minAgeMs?: number; now?: number }): Promise<{ removed: string[] }> {
  const dir = path.resolve(options.dataDir, "chat-images", "img");
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { removed: [] };
  }
  const rows = await db.select({ body: messages.body }).from(messages).where(eq(messages.kind, "image"));
  const named = new Set(rows.flatMap((r) => imageKeyOf(r.body) ?? []));
  const now = options.now ?? Date.now();
  const minAge = options.minAgeMs ?? hourMs;
  const removed: string[] = [];
  for (const name of names) {
    const match = /^([A-Za-z0-9_-]{10,64})(-t)?\.jpg$/.exec(name);
    if (!match || named.has(`img/${match[1]}`)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info || now - info.mtimeMs < minAge) continue;
    await unlink(file).catch(() => undefined);
    removed.push(name);
  }
  return { removed };
}

/** Sweeps every 6 hours, once across the api instances (api/jobs/schedule.ts). */
export function startChatImageSweep(db: Db, options: { dataDir: string; logger: Logger; intervalScale?: number }): ScheduledJob {
  return scheduleJob(db, { job: "sweep-chat-images", intervalScale: options.intervalScale, logger: options.logger }, async () => {
    const { removed } = await recordJobRun("sweep-chat-images", () => sweepChatImages(db, { dataDir: options.dataDir }));
    if (removed.length > 0) options.logger.info({ job: "sweep-chat-images", removed: removed.length }, "orphaned chat images removed");
  });
}
