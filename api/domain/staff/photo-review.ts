import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { photos, profiles, sites, users } from "../../db/schema";
import type { PhotoRejectionReason } from "#contract/photos";
import { queueCountCap } from "#contract/staff-moderation";
import { servesEverySite } from "#contract/staff-permissions";
import { recordAudit } from "./audit";
import type { StaffMember } from "./sessions";

/** The sites a staff member's queues cover: null, every site (an admin). */
export function sitesOf(staff: Pick<StaffMember, "role" | "siteIds">): number[] | null {
  return servesEverySite(staff.role) ? null : staff.siteIds;
}

/** A condition on a site column for the staff member's sites (none served: nothing). */
export function onStaffSites(column: Parameters<typeof inArray>[0], siteIds: number[] | null): SQL | undefined {
  return siteIds ? inArray(column, siteIds.length ? siteIds : [0]) : undefined;
}

export type QueuedPhoto = {
  id: number;
  filename: string;
  thumbFilename: string;
  status: "active" | "pending";
  createdAt: Date;
  profileId: number;
  userId: number;
  name: string;
  siteId: number;
  siteName: string;
  moderation: "pre" | "post";
  cdnPrefix: string;
};

/**
 * docs/staff.md photo moderation: the photos no moderator has looked at yet (pending under pre-moderation, live under
 * post-moderation), across the staff member's sites, oldest first; `total` is the queue's length up to queueCountCap
 * (contract/staff-moderation.ts), which stands for that many or more.
 */
export async function photoQueue(db: Db, siteIds: number[] | null, limit: number): Promise<{ photos: QueuedPhoto[]; total: number }> {
  const where = and(isNull(photos.reviewedAt), ne(photos.status, "rejected"), onStaffSites(photos.siteId, siteIds));
  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: photos.id,
        filename: photos.filename,
        thumbFilename: photos.thumbFilename,
        status: photos.status,
        createdAt: photos.createdAt,
        profileId: profiles.id,
        userId: profiles.userId,
        name: profiles.name,
        siteId: profiles.siteId,
        siteName: sites.name,
        moderation: sites.photoModeration,
        cdnPrefix: sites.cdnPrefix,
      })
      .from(photos)
      .innerJoin(profiles, eq(profiles.id, photos.profileId))
      .innerJoin(sites, eq(sites.id, profiles.siteId))
      .where(where)
      .orderBy(asc(photos.createdAt), asc(photos.id))
      .limit(limit),
    db.select({ n: sql<number>`count(*)::int` }).from(
      db
        .select({ one: sql<number>`1`.as("one") })
        .from(photos)
        .where(where)
        .limit(queueCountCap)
        .as("queued"),
    ),
  ]);
  return { photos: rows as QueuedPhoto[], total: count?.n ?? 0 };
}

export type Review = { decision: "approve" } | { decision: "reject"; reason: PhotoRejectionReason };

/** A rejected photo, for the mail to its owner and the removal of its files. */
export type RejectedPhoto = { id: number; userId: number; siteId: number; filename: string; thumbFilename: string; reason: PhotoRejectionReason };

/**
 * Approves or rejects photos of the staff member's sites, each by one conditional update (still unreviewed, or for a
 * rejection: not rejected already), with its audit entry in the same transaction. Approval makes a pending photo live;
 * rejection takes it from everyone's sight and frees its slot, and the owner sees the reason on /profile. `force`: a
 * photo approved before (or live, under post-moderation) can be rejected later, as a report's "hide this photo".
 * Answers what changed; photos of other sites, unknown ones and ones another moderator took first are left out.
 */
export async function reviewPhotos(
  db: Db,
  staff: StaffMember,
  clientIp: string | null,
  ids: number[],
  review: Review,
  options: { force?: boolean; now?: Date } = {},
): Promise<{ approved: number[]; rejected: RejectedPhoto[] }> {
  const now = options.now ?? new Date();
  const siteIds = sitesOf(staff);
  return db.transaction(async (tx) => {
    const approved: number[] = [];
    const rejected: RejectedPhoto[] = [];
    for (const id of [...new Set(ids)]) {
      const [photo] = await tx
        .select({ id: photos.id, status: photos.status, siteId: profiles.siteId, userId: profiles.userId })
        .from(photos)
        .innerJoin(profiles, eq(profiles.id, photos.profileId))
        .where(and(eq(photos.id, id), onStaffSites(profiles.siteId, siteIds)))
        .limit(1);
      if (!photo) continue;
      const open = options.force ? ne(photos.status, "rejected") : and(isNull(photos.reviewedAt), ne(photos.status, "rejected"));
      if (review.decision === "approve") {
        const [row] = await tx.update(photos).set({ status: "active", reviewedAt: now }).where(and(eq(photos.id, id), open)).returning({ id: photos.id });
        if (!row) continue;
        approved.push(id);
        await recordAudit(tx, staff, clientIp, { action: "photo.approve", targetType: "photo", targetId: id, siteId: photo.siteId, changes: { status: { before: photo.status, after: "active" } } });
      } else {
        const [row] = await tx
          .update(photos)
          .set({ status: "rejected", reviewedAt: now, rejectionReason: review.reason, rejectionSeenAt: null })
          .where(and(eq(photos.id, id), open))
          .returning({ id: photos.id, filename: photos.filename, thumbFilename: photos.thumbFilename });
        if (!row) continue;
        rejected.push({ ...row, userId: photo.userId, siteId: photo.siteId, reason: review.reason });
        await recordAudit(tx, staff, clientIp, {
          action: "photo.reject",
          targetType: "photo",
          targetId: id,
          siteId: photo.siteId,
          changes: { status: { before: photo.status, after: "rejected" }, rejection_reason: { before: null, after: review.reason } },
        });
      }
    }
    return { approved, rejected };
  });
}

/** The member of a rejected photo, to mail: their address, language and name, and the site. */
export async function photoOwnerMail(db: Db, userId: number) {
  const [row] = await db
    .select({ email: users.email, language: users.language, name: profiles.name, status: users.status, siteName: sites.name, mailName: sites.mailName, domain: sites.domain, siteId: sites.id })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}
