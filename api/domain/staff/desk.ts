import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inboxWaitThresholds, profiles, savedReplies } from "../../db/schema";
import { recordAudit } from "./audit";
import type { StaffMember } from "./sessions";

/**
 * The operator desk's configuration (docs/staff.md, the desk): saved replies per site and per site-run profile, and
 * each site's waiting-time thresholds. Admins keep both (`replies.manage`); every change is audited in its transaction.
 */

/** A queue row waiting longer than these many minutes is marked amber, then red, unless the site sets its own. */
export const defaultWaitThresholds = { warnMinutes: 15, lateMinutes: 60 };

/** The thresholds of some sites (the default for a site without its own). */
export async function waitThresholds(db: Pick<Db, "select">, siteIds: number[]): Promise<Map<number, { warnMinutes: number; lateMinutes: number }>> {
  const rows = siteIds.length ? await db.select().from(inboxWaitThresholds).where(inArray(inboxWaitThresholds.siteId, siteIds)) : [];
  return new Map(siteIds.map((id) => [id, rows.find((row) => row.siteId === id) ?? { siteId: id, ...defaultWaitThresholds }]));
}

export type SavedReplyInput = { siteId: number; profileId: number | null; title: string; body: string };

/** A site's saved replies, the site-wide ones first (bounded: a site keeps a few dozen). */
export async function savedRepliesOfSite(db: Pick<Db, "select">, siteId: number) {
  return db
    .select({ id: savedReplies.id, siteId: savedReplies.siteId, profileId: savedReplies.fictionalProfileId, profileName: profiles.name, title: savedReplies.title, body: savedReplies.body, updatedAt: savedReplies.updatedAt })
    .from(savedReplies)
    .leftJoin(profiles, eq(profiles.id, savedReplies.fictionalProfileId))
    .where(eq(savedReplies.siteId, siteId))
    .orderBy(asc(savedReplies.fictionalProfileId), asc(savedReplies.title), asc(savedReplies.id))
    .limit(500);
}

/** Whether a profile is a site-run profile of the site (a saved reply's profile must be). */
export async function isSiteRunProfileOf(db: Pick<Db, "select">, siteId: number, profileId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.siteId, siteId), eq(profiles.fictional, true)))
    .limit(1);
  return Boolean(row);
}

export async function createSavedReply(db: Db, staff: StaffMember, ip: string | null, input: SavedReplyInput): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(savedReplies)
      .values({ siteId: input.siteId, fictionalProfileId: input.profileId, title: input.title, body: input.body, updatedBy: staff.id })
      .returning({ id: savedReplies.id });
    if (!row) throw new Error("saved reply not inserted");
    await recordAudit(tx, staff, ip, {
      action: "saved_reply.create",
      targetType: "saved_reply",
      targetId: row.id,
      siteId: input.siteId,
      changes: { title: { before: null, after: input.title }, body: { before: null, after: input.body }, profile_id: { before: null, after: input.profileId } },
    });
    return row.id;
  });
}

/** Changes a saved reply of the site; false when the site has no such reply. */
export async function updateSavedReply(db: Db, staff: StaffMember, ip: string | null, id: number, input: SavedReplyInput): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(savedReplies).where(and(eq(savedReplies.id, id), eq(savedReplies.siteId, input.siteId))).for("update");
    if (!before) return false;
    await tx
      .update(savedReplies)
      .set({ fictionalProfileId: input.profileId, title: input.title, body: input.body, updatedBy: staff.id, updatedAt: new Date() })
      .where(eq(savedReplies.id, id));
    await recordAudit(tx, staff, ip, {
      action: "saved_reply.update",
      targetType: "saved_reply",
      targetId: id,
      siteId: input.siteId,
      changes: {
        title: { before: before.title, after: input.title },
        body: { before: before.body, after: input.body },
        profile_id: { before: before.fictionalProfileId, after: input.profileId },
      },
    });
    return true;
  });
}

/** Deletes a saved reply of the site; false when the site has no such reply. */
export async function deleteSavedReply(db: Db, staff: StaffMember, ip: string | null, siteId: number, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(savedReplies).where(and(eq(savedReplies.id, id), eq(savedReplies.siteId, siteId))).returning();
    if (!gone) return false;
    await recordAudit(tx, staff, ip, {
      action: "saved_reply.delete",
      targetType: "saved_reply",
      targetId: id,
      siteId,
      changes: { title: { before: gone.title, after: null }, body: { before: gone.body, after: null } },
    });
    return true;
  });
}

/** Sets a site's waiting-time thresholds (audited with before and after). */
export async function setWaitThresholds(db: Db, staff: StaffMember, ip: string | null, siteId: number, values: { warnMinutes: number; lateMinutes: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(inboxWaitThresholds).where(eq(inboxWaitThresholds.siteId, siteId)).for("update");
    await tx
      .insert(inboxWaitThresholds)
      .values({ siteId, ...values })
      .onConflictDoUpdate({ target: inboxWaitThresholds.siteId, set: values });
    const was = before ?? defaultWaitThresholds;
    await recordAudit(tx, staff, ip, {
      action: "site.wait_thresholds",
      targetType: "site",
      targetId: siteId,
      siteId,
      changes: { warn_minutes: { before: was.warnMinutes, after: values.warnMinutes }, late_minutes: { before: was.lateMinutes, after: values.lateMinutes } },
    });
  });
}
