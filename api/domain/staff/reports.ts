import { aliasedTable, and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { complaints, conversationMembers, messages, photos, profiles, reportNotes, reports, sites, staffUsers, users } from "../../db/schema";
import { queueCountCap, type ReportRequest, type ReportStatus } from "#contract/staff-moderation";
import { recordAudit } from "./audit";
import { onStaffSites, sitesOf } from "./photo-review";
import type { StaffMember } from "./sessions";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * A member's Report on a profile or a message they can see: a profile of their site that is not their own, or a
 * message of a conversation they are in, sent by the other member. Null: nothing of the kind to report.
 */
export async function createMemberReport(db: Db, reporter: { userId: number; profileId: number; siteId: number }, body: ReportRequest): Promise<number | null> {
  let target: { profileId: number; userId: number; messageId: number | null } | null = null;
  if (body.profile_id !== undefined) {
    const [row] = await db
      .select({ profileId: profiles.id, userId: profiles.userId })
      .from(profiles)
      .where(and(eq(profiles.id, body.profile_id), eq(profiles.siteId, reporter.siteId)))
      .limit(1);
    if (row && row.profileId !== reporter.profileId) target = { ...row, messageId: null };
  } else if (body.message_id !== undefined) {
    const [row] = await db
      .select({ profileId: profiles.id, userId: profiles.userId, messageId: messages.id })
      .from(messages)
      .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, messages.conversationId), eq(conversationMembers.profileId, reporter.profileId)))
      .innerJoin(profiles, eq(profiles.id, messages.senderProfileId))
      .where(eq(messages.id, body.message_id))
      .limit(1);
    if (row && row.profileId !== reporter.profileId) target = row;
  }
  if (!target) return null;
  const [row] = await db
    .insert(reports)
    .values({
      siteId: reporter.siteId,
      source: target.messageId === null ? "profile" : "message",
      reporterUserId: reporter.userId,
      reportedUserId: target.userId,
      profileId: target.profileId,
      messageId: target.messageId,
      reason: body.reason,
      details: body.details ?? "",
    })
    .returning({ id: reports.id });
  return row?.id ?? null;
}

/** A /complaints entry joins the reports queue; a content URL of a member page names the member it is about. */
export async function queueComplaint(tx: Db | Tx, complaint: { id: number; siteId: number; reason: string; contentUrl: string; userId: number | null }): Promise<void> {
  const profileId = Number(/\/members\/(\d{1,9})(?:[/?#]|$)/.exec(complaint.contentUrl)?.[1] ?? 0);
  const [profile] = profileId
    ? await tx
        .select({ id: profiles.id, userId: profiles.userId })
        .from(profiles)
        .where(and(eq(profiles.id, profileId), eq(profiles.siteId, complaint.siteId)))
        .limit(1)
    : [];
  await tx.insert(reports).values({
    siteId: complaint.siteId,
    source: "complaint",
    complaintId: complaint.id,
    reporterUserId: complaint.userId,
    reportedUserId: profile?.userId ?? null,
    profileId: profile?.id ?? null,
    reason: complaint.reason,
  });
}

const reported = aliasedTable(profiles, "reported_profile");
const assignee = aliasedTable(staffUsers, "assignee");

const summaryColumns = {
  id: reports.id,
  source: reports.source,
  status: reports.status,
  reason: reports.reason,
  siteId: reports.siteId,
  siteName: sites.name,
  reportedUserId: reports.reportedUserId,
  reportedName: reported.name,
  assigneeId: reports.assigneeStaffId,
  assigneeName: assignee.name,
  createdAt: reports.createdAt,
};

function summaries(db: Db | Tx) {
  return db
    .select(summaryColumns)
    .from(reports)
    .innerJoin(sites, eq(sites.id, reports.siteId))
    .leftJoin(reported, eq(reported.userId, reports.reportedUserId))
    .leftJoin(assignee, eq(assignee.id, reports.assigneeStaffId));
}

export type ReportSummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>["execute"]>>[number];

export function summaryJson(row: ReportSummaryRow) {
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    reason: row.reason,
    site: { id: row.siteId, name: row.siteName },
    reported: row.reportedUserId !== null && row.reportedName !== null ? { user_id: row.reportedUserId, name: row.reportedName } : null,
    assignee: row.assigneeId !== null && row.assigneeName !== null ? { id: row.assigneeId, name: row.assigneeName } : null,
    created_at: row.createdAt.toISOString(),
  };
}

const openStatuses = ["new", "in_progress"] as const;

/** The queue: reports of the staff member's sites in a status ("open": new and in progress), oldest first when open, else newest first. */
export async function listReports(db: Db, staff: StaffMember, filter: { status?: ReportStatus | "open"; mine?: boolean; before?: number; limit: number }) {
  const status = filter.status ?? "open";
  const open = status === "open";
  const where: (SQL | undefined)[] = [
    onStaffSites(reports.siteId, sitesOf(staff)),
    open ? inArray(reports.status, [...openStatuses]) : eq(reports.status, status),
    filter.mine ? eq(reports.assigneeStaffId, staff.id) : undefined,
    filter.before === undefined ? undefined : open ? sql`${reports.id} > ${filter.before}` : lt(reports.id, filter.before),
  ];
  return summaries(db)
    .where(and(...where))
    .orderBy(open ? reports.id : desc(reports.id))
    .limit(filter.limit);
}

/** Open reports of the staff member's sites (the frame's count), up to queueCountCap (contract/staff-moderation.ts). */
export async function openReportCount(db: Db, siteIds: number[] | null): Promise<number> {
  const open = db
    .select({ one: sql<number>`1`.as("one") })
    .from(reports)
    .where(and(inArray(reports.status, [...openStatuses]), onStaffSites(reports.siteId, siteIds)))
    .limit(queueCountCap)
    .as("open");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(open);
  return row?.n ?? 0;
}

/** Reports about a member and by a member (the member page). */
export async function reportsOfMember(db: Db, userId: number) {
  const [about, by] = await Promise.all([
    summaries(db).where(eq(reports.reportedUserId, userId)).orderBy(desc(reports.id)).limit(50),
    summaries(db).where(eq(reports.reporterUserId, userId)).orderBy(desc(reports.id)).limit(50),
  ]);
  return { about, by };
}

/** One report of the staff member's sites with everything the report page shows; message text only with `withMessage`. */
export async function reportDetail(db: Db | Tx, staff: StaffMember, reportId: number, withMessage: boolean) {
  const [summary] = await summaries(db)
    .where(and(eq(reports.id, reportId), onStaffSites(reports.siteId, sitesOf(staff))))
    .limit(1);
  if (!summary) return null;
  const [report] = await db.select().from(reports).where(eq(reports.id, reportId)).limit(1);
  if (!report) return null;
  const [reporter] = report.reporterUserId
    ? await db
        .select({ userId: users.id, name: profiles.name, email: users.email })
        .from(users)
        .innerJoin(profiles, eq(profiles.userId, users.id))
        .where(eq(users.id, report.reporterUserId))
        .limit(1)
    : [];
  const [complaint] = report.complaintId ? await db.select().from(complaints).where(eq(complaints.id, report.complaintId)).limit(1) : [];
  const [profile] = report.profileId ? await db.select({ id: profiles.id, name: profiles.name, status: profiles.status }).from(profiles).where(eq(profiles.id, report.profileId)).limit(1) : [];
  const profilePhotos = profile
    ? await db.select({ id: photos.id, thumbFilename: photos.thumbFilename, status: photos.status }).from(photos).where(eq(photos.profileId, profile.id)).orderBy(photos.position, photos.id)
    : [];
  const [message] = report.messageId ? await db.select({ id: messages.id, kind: messages.kind, body: messages.body, at: messages.createdAt }).from(messages).where(eq(messages.id, report.messageId)).limit(1) : [];
  const notes = await db.select().from(reportNotes).where(eq(reportNotes.reportId, reportId)).orderBy(reportNotes.id);
  const conversation = message && withMessage ? await messageWindow(db, message.id) : [];
  return {
    ...summaryJson(summary),
    details: report.details,
    reporter: complaint
      ? { user_id: report.reporterUserId, name: complaint.name, email: complaint.email }
      : reporter
        ? { user_id: reporter.userId, name: reporter.name, email: reporter.email }
        : null,
    complaint: complaint ? { reference: complaint.reference, content_url: complaint.contentUrl, message: complaint.message } : null,
    profile: profile ? { ...profile, photos: profilePhotos } : null,
    message: message ? { id: message.id, kind: message.kind, body: withMessage ? message.body : null, at: message.at.toISOString() } : null,
    conversation,
    notes: notes.map((n) => ({ id: n.id, kind: n.kind, body: n.body, staff_name: n.staffName, at: n.createdAt.toISOString() })),
    can_reply: Boolean(complaint?.email ?? reporter?.email),
    can_state: report.reportedUserId !== null,
    siteId: report.siteId,
    reportedUserId: report.reportedUserId,
    reporterUserId: report.reporterUserId,
  };
}

/** How many messages before and after the reported one its page shows. */
export const messageWindowSize = 8;

/**
 * The reported message inside its conversation: up to messageWindowSize messages before and after it, oldest first,
 * each with its sender's name. Two index ranges over messages_conversation_idx (conversation, id), never the whole chat.
 */
export async function messageWindow(db: Db | Tx, messageId: number) {
  const [reportedMessage] = await db.select({ conversationId: messages.conversationId }).from(messages).where(eq(messages.id, messageId)).limit(1);
  if (!reportedMessage) return [];
  const columns = { id: messages.id, kind: messages.kind, body: messages.body, at: messages.createdAt, sender: profiles.name, senderProfileId: messages.senderProfileId };
  const around = (where: SQL, newestFirst: boolean, limit: number) =>
    db
      .select(columns)
      .from(messages)
      .innerJoin(profiles, eq(profiles.id, messages.senderProfileId))
      .where(and(eq(messages.conversationId, reportedMessage.conversationId), where))
      .orderBy(newestFirst ? desc(messages.id) : messages.id)
      .limit(limit);
  const [before, after] = await Promise.all([around(sql`${messages.id} <= ${messageId}`, true, messageWindowSize + 1), around(sql`${messages.id} > ${messageId}`, false, messageWindowSize)]);
  return [...before.reverse(), ...after].map((row) => ({ id: row.id, kind: row.kind, body: row.body, at: row.at.toISOString(), sender: row.sender, reported: row.id === messageId }));
}

export type ReportDetailRow = NonNullable<Awaited<ReturnType<typeof reportDetail>>>;

/** Adds a note (an internal note, or the record of a mail or an action) to a report, in the caller's transaction. */
export async function addReportNote(tx: Db | Tx, staff: StaffMember, reportId: number, kind: "note" | "reply" | "statement" | "action", body: string): Promise<void> {
  await tx.insert(reportNotes).values({ reportId, staffUserId: staff.id, staffName: staff.name, kind, body });
  await tx.update(reports).set({ updatedAt: new Date() }).where(eq(reports.id, reportId));
}

/**
 * Moves a report to a status (taking it assigns it to the staff member), by one conditional update from the
 * statuses the move starts from, with its audit entry. False: the report was not in such a status any more.
 */
export async function moveReport(
  tx: Db | Tx,
  staff: StaffMember,
  clientIp: string | null,
  report: Pick<ReportDetailRow, "id" | "status" | "siteId">,
  to: ReportStatus,
  from: readonly ReportStatus[],
): Promise<boolean> {
  const [row] = await tx
    .update(reports)
    .set({ status: to, updatedAt: new Date(), ...(to === "in_progress" ? { assigneeStaffId: staff.id } : {}) })
    .where(and(eq(reports.id, report.id), inArray(reports.status, [...from])))
    .returning({ id: reports.id });
  if (!row) return false;
  await recordAudit(tx, staff, clientIp, { action: `report.${to}`, targetType: "report", targetId: report.id, siteId: report.siteId, changes: { status: { before: report.status, after: to } } });
  // The report's own history says who took, reopened, resolved or rejected it, and when.
  await addReportNote(tx, staff, report.id, "action", statusNotes[to === "in_progress" && (report.status === "resolved" || report.status === "rejected") ? "reopened" : to]);
  return true;
}

const statusNotes: Record<ReportStatus | "reopened", string> = {
  new: "Back to new.",
  in_progress: "Taken.",
  reopened: "Reopened.",
  resolved: "Resolved.",
  rejected: "Rejected.",
};
