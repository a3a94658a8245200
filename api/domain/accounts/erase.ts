import { rm } from "node:fs/promises";
import path from "node:path";
import { and, eq, inArray, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountTokens, dataExports, debitMandates, debitRequests, loginFailures, photos, profiles, sessions, users } from "../../db/schema";
import { exportFile } from "./data-export";
import { reactivationWindowMs } from "./deletion";

/**
 * Erases the personal data of accounts deleted more than 14 days before `now`. The UPDATE on users picks
 * the accounts and flips them to erased in one statement, so a second pass (or a second api instance)
 * finds nothing left to do. Credits ledger rows stay: they are bookkeeping, not profile data. With `dataDir`,
 * the files go too: photos under DATA_DIR/uploads and data exports (zips) under DATA_DIR/exports.
 */
export async function eraseDeletedAccounts(
  db: Db,
  options: {
    now?: Date;
    dataDir?: string;
    /** Erase these accounts now, whatever their state (staff's "erase account"), instead of those whose 14 days are over. */
    userIds?: number[];
    /** Runs inside the erasing transaction (the staff side's audit entry). */
    onErased?: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0], ids: number[]) => Promise<void>;
  } = {},
): Promise<{ erased: number[] }> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - reactivationWindowMs);
  const { erased, files, exports } = await db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({
        email: sql`'erased-' || ${users.id} || '@erased.invalid'`,
        passwordHash: null,
        network: null,
        ref: null,
        sub1: null,
        sub2: null,
        sub3: null,
        deletionReason: null,
        status: "erased",
        erasedAt: now,
      })
      .where(options.userIds ? and(inArray(users.id, options.userIds.length ? options.userIds : [0]), ne(users.status, "erased")) : and(eq(users.status, "deleted"), lte(users.deletedAt, cutoff)))
      .returning({ id: users.id });
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return { erased: ids, files: [] as string[], exports: [] as string[] };
    const profileRows = await tx
      .update(profiles)
      .set({ name: "Deleted member", aboutMe: "", city: null, region: null, signupMessage: null, status: "disabled" })
      .where(inArray(profiles.userId, ids))
      .returning({ id: profiles.id });
    const photoRows = profileRows.length
      ? await tx.delete(photos).where(inArray(photos.profileId, profileRows.map((p) => p.id))).returning({ filename: photos.filename, thumb: photos.thumbFilename })
      : [];
    // Tokens can hold a new e-mail address; sessions and failures are of no use to anyone any more.
    await tx.delete(accountTokens).where(inArray(accountTokens.userId, ids));
    await tx.delete(sessions).where(inArray(sessions.userId, ids));
    await tx.delete(loginFailures).where(inArray(loginFailures.userId, ids));
    // Bank accounts, addresses and phone numbers of direct debits: the payments keep only their amounts.
    await tx.delete(debitRequests).where(inArray(debitRequests.userId, ids));
    await tx.delete(debitMandates).where(inArray(debitMandates.userId, ids));
    // Data exports hold everything above: the zips go with their rows.
    const exportRows = await tx.delete(dataExports).where(inArray(dataExports.userId, ids)).returning({ token: dataExports.token });
    await options.onErased?.(tx, ids);
    return { erased: ids, files: photoRows.flatMap((p) => [p.filename, p.thumb]), exports: exportRows.map((e) => e.token) };
  });
  if (options.dataDir) {
    await removeUploads(path.resolve(options.dataDir, "uploads"), files);
    for (const token of exports) await rm(exportFile(options.dataDir, token), { force: true });
  }
  return { erased };
}

/** Deletes photo files under the uploads folder; a name that points outside it is left alone. */
async function removeUploads(uploadsDir: string, names: string[]): Promise<void> {
  const root = path.resolve(uploadsDir);
  for (const name of new Set(names)) {
    const file = path.resolve(root, name);
    if (!file.startsWith(root + path.sep)) continue;
    await rm(file, { force: true });
  }
}
