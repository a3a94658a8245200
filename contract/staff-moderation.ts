import { z } from "zod";
import { EventDate, FormKey, id, queryId, text } from "./input";

export { FormKey };
import { moderationReasons, reportMeasures, reportReasons, reportStatusNames } from "./moderation-reasons";

export { reportMeasures } from "./moderation-reasons";
import { PhotoRejectionReason } from "./photos";
import { queueCountCap } from "./queue-count";

export { queueCountCap, queueCountText } from "./queue-count";

/*
 * The staff side's moderation and member support (docs/staff.md). Every endpoint is behind the
 * staff gate (api/http/staff.ts) with the action named here, and acts only on the sites the staff member serves.
 *
 *   GET  /api/staff/photos.php    (photos.moderate) -> PhotoQueueResponse: unreviewed photos, oldest first
 *   POST /api/staff/photos.php    (photos.moderate) PhotoReviewRequest -> PhotoReviewResponse
 *   GET  /api/staff/reports.php   (reports.handle)  ReportsQuery -> ReportsResponse
 *   GET  /api/staff/report.php    (reports.handle)  ?id= -> ReportDetail | not_found 404
 *   POST /api/staff/report.php    (reports.handle)  ReportActionRequest -> ReportDetail (hide_photo: photos.moderate;
 *                                                    suspend: members.suspend)
 *   GET  /api/staff/members.php   (members.read)    MembersQuery -> StaffMembersResponse
 *   GET  /api/staff/member.php    (members.read)    ?id= -> StaffMemberDetail | not_found 404
 *   POST /api/staff/member.php    MemberActionRequest -> StaffMemberDetail (each action its own permission:
 *                                                    api/domain/staff/permissions.ts) | validation_failed 400
 *   GET  /api/staff/queues.php    (staff.self)      -> QueueSizes: open photo and report queues of one's sites
 */

export { moderationReasons, reportReasons, reportStatusNames };
export const ModerationReason = z.enum(moderationReasons);
export type ModerationReason = z.infer<typeof ModerationReason>;

export const ReportReason = z.enum(reportReasons);
export type ReportReason = z.infer<typeof ReportReason>;

/** POST /api/report.php (a member): a Report on a profile or a message; limited per member (too_many_requests). */
export const ReportRequest = z
  .object({
    profile_id: id.optional(),
    message_id: id.optional(),
    reason: ReportReason,
    details: text(1000).optional(),
  })
  .refine((body) => (body.profile_id === undefined) !== (body.message_id === undefined), { message: "Report either a profile or a message", path: ["profile_id"] });
export type ReportRequest = z.infer<typeof ReportRequest>;
export const ReportResponse = z.object({ ok: z.literal(true), report_id: z.number() });

export const QueuedPhoto = z.object({
  id: z.number(),
  url: z.string(),
  thumb_url: z.string(),
  status: z.enum(["active", "pending"]),
  created_at: z.string(),
  member: z.object({ user_id: z.number(), profile_id: z.number(), name: z.string() }),
  site: z.object({ id: z.number(), name: z.string(), moderation: z.enum(["pre", "post"]) }),
});
export const PhotoQueueResponse = z.object({ photos: z.array(QueuedPhoto), total: z.number().int().min(0).max(queueCountCap) });
export type PhotoQueueResponse = z.infer<typeof PhotoQueueResponse>;

export const photoReviewMax = 100;

export const PhotoReviewRequest = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("approve"), ids: z.array(id).min(1).max(photoReviewMax) }),
  z.object({ decision: z.literal("reject"), ids: z.array(id).min(1).max(photoReviewMax), reason: PhotoRejectionReason }),
]);
export type PhotoReviewRequest = z.infer<typeof PhotoReviewRequest>;
export const PhotoReviewResponse = z.object({ approved: z.array(z.number()), rejected: z.array(z.number()), total: z.number() });
export type PhotoReviewResponse = z.infer<typeof PhotoReviewResponse>;

export const ReportStatus = z.enum(reportStatusNames);
export type ReportStatus = z.infer<typeof ReportStatus>;

export const ReportsQuery = z.object({
  /** "open": new and in progress (the default). */
  status: z.enum([...reportStatusNames, "open"]).optional(),
  mine: z.enum(["1"]).optional(),
  before: queryId.optional(),
});

export const ReportSummary = z.object({
  id: z.number(),
  source: z.enum(["profile", "message", "complaint"]),
  status: ReportStatus,
  reason: z.string(),
  site: z.object({ id: z.number(), name: z.string() }),
  reported: z.object({ user_id: z.number(), name: z.string() }).nullable(),
  assignee: z.object({ id: z.number(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type ReportSummary = z.infer<typeof ReportSummary>;
export const reportsPageSize = 50;
export const ReportsResponse = z.object({ reports: z.array(ReportSummary), next_before: z.number().nullable() });
export type ReportsResponse = z.infer<typeof ReportsResponse>;

export const ReportNote = z.object({ id: z.number(), kind: z.enum(["note", "reply", "statement", "action"]), body: z.string(), staff_name: z.string(), at: z.string() });

export const ReportDetail = ReportSummary.extend({
  details: z.string(),
  reporter: z.object({ user_id: z.number().nullable(), name: z.string(), email: z.string().nullable() }).nullable(),
  /** A complaint's own fields (the /complaints form). */
  complaint: z.object({ reference: z.string(), content_url: z.string(), message: z.string() }).nullable(),
  /** The reported profile and its photos (hidden ones marked). */
  profile: z
    .object({
      id: z.number(),
      name: z.string(),
      status: z.enum(["active", "disabled"]),
      photos: z.array(z.object({ id: z.number(), thumb_url: z.string(), status: z.enum(["active", "pending", "rejected"]) })),
    })
    .nullable(),
  /** The reported message: its text only for roles that may read messages (support sees none). */
  message: z.object({ id: z.number(), kind: z.string(), body: z.string().nullable(), at: z.string() }).nullable(),
  /** The reported message's conversation around it (contract of api/domain/staff/reports.ts messageWindow), for roles that may read messages. */
  conversation: z.array(z.object({ id: z.number(), kind: z.string(), body: z.string(), at: z.string(), sender: z.string(), reported: z.boolean() })),
  notes: z.array(ReportNote),
  /** Whether a reply mail can go to the sender, and whether a statement of reasons can go to the member reported. */
  can_reply: z.boolean(),
  can_state: z.boolean(),
});
export type ReportDetail = z.infer<typeof ReportDetail>;

const note = text(2000, { min: 1 });
export const ReportActionRequest = z.discriminatedUnion("action", [
  z.object({ id, action: z.literal("take") }),
  z.object({ id, action: z.literal("note"), text: note }),
  z.object({ id, action: z.literal("resolve"), text: text(2000).optional() }),
  z.object({ id, action: z.literal("reject"), text: text(2000).optional() }),
  z.object({ id, action: z.literal("reopen") }),
  z.object({ id, action: z.literal("hide_photo"), photo_id: id, reason: PhotoRejectionReason }),
  z.object({ id, action: z.literal("hide_profile"), reason: ModerationReason }),
  z.object({ id, action: z.literal("suspend"), reason: ModerationReason, until: EventDate.optional() }),
  /** A reply mail to the sender (the member who reported, or the complaint's sender). */
  z.object({ id, action: z.literal("reply"), text: note }),
  /** A statement of reasons to the member affected (what was decided and why). */
  z.object({ id, action: z.literal("statement"), reason: ModerationReason, text: note }),
  /**
   * One step: the measure against the member reported (none, hide the profile, suspend until a date, ban), the
   * statement of reasons mailed to them, and the report resolved or rejected; the sender is told the outcome in their
   * language (with `reply` when given). A measure needs a reason and a statement, and goes only with resolve.
   */
  z
    .object({
      id,
      action: z.literal("decide"),
      outcome: z.enum(["resolve", "reject"]),
      measure: z.enum(reportMeasures),
      reason: ModerationReason.optional(),
      until: EventDate.optional(),
      statement: text(2000).optional(),
      reply: text(2000).optional(),
      note: text(2000).optional(),
    })
    .superRefine((body, ctx) => {
      if (body.measure === "none") return;
      if (body.outcome === "reject") ctx.addIssue({ code: "custom", path: ["measure"], message: "A rejected report takes no measure: choose none, or resolve it." });
      if (!body.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "Choose the reason the member is told." });
      if (!body.statement) ctx.addIssue({ code: "custom", path: ["statement"], message: "Write the statement of reasons the member gets." });
      if (body.measure === "suspend" && !body.until) ctx.addIssue({ code: "custom", path: ["until"], message: "Choose the last day of the suspension." });
    }),
]);
export type ReportDecision = Extract<ReportActionRequest, { action: "decide" }>;
export type ReportActionRequest = z.infer<typeof ReportActionRequest>;

export const MembersQuery = z.object({ q: text(254, { min: 1 }) });
export const StaffMemberRow = z.object({
  user_id: z.number(),
  profile_id: z.number(),
  name: z.string(),
  email: z.string(),
  site: z.object({ id: z.number(), name: z.string() }),
  status: z.string(),
  suspended: z.boolean(),
  credits: z.number(),
  paid_user: z.boolean(),
  signup_date: z.string(),
});
export const StaffMembersResponse = z.object({ members: z.array(StaffMemberRow) });
export type StaffMembersResponse = z.infer<typeof StaffMembersResponse>;

export const StaffMemberDetail = StaffMemberRow.extend({
  profile: z.object({
    status: z.enum(["active", "disabled"]),
    gender: z.string(),
    date_of_birth: z.string(),
    country: z.string(),
    region: z.string().nullable(),
    city: z.string().nullable(),
    about_me: z.string(),
    fictional: z.boolean(),
  }),
  photos: z.array(z.object({ id: z.number(), thumb_url: z.string(), status: z.enum(["active", "pending", "rejected"]), reviewed: z.boolean() })),
  suspension: z.object({ reason: ModerationReason, until: z.string().nullable() }).nullable(),
  email_confirmed: z.boolean(),
  debit_blocked_at: z.string().nullable(),
  ledger: z.array(z.object({ id: z.number(), delta: z.number(), balance_after: z.number(), reason: z.string(), reference: z.string().nullable(), at: z.string() })),
  ledger_sum: z.number(),
  payments: z.array(
    z.object({
      id: z.number(),
      provider: z.string(),
      method: z.string(),
      status: z.string(),
      amount: z.number(),
      currency: z.string(),
      credits: z.number(),
      created_at: z.string(),
      paid_at: z.string().nullable(),
      refundable: z.boolean(),
      /** A refund: what was paid back (minor units), the credits taken back, and why. */
      refund: z.object({ amount: z.number(), credits: z.number(), reason: z.string().nullable() }).nullable(),
    }),
  ),
  logins: z.array(z.object({ at: z.string(), client_ip: z.string().nullable() })),
  conversations: z.number(),
  reports_about: z.array(ReportSummary),
  reports_by: z.array(ReportSummary),
  /** After a write with a form key: true when that form was booked already and nothing was booked again. */
  replay: z.boolean().optional(),
});
export type StaffMemberDetail = z.infer<typeof StaffMemberDetail>;

export const creditAdjustMax = 100_000;
export const MemberActionRequest = z.discriminatedUnion("action", [
  z.object({ id, action: z.literal("suspend"), reason: ModerationReason, until: EventDate }),
  z.object({ id, action: z.literal("ban"), reason: ModerationReason }),
  z.object({ id, action: z.literal("lift") }),
  z.object({ id, action: z.literal("hide_profile") }),
  z.object({ id, action: z.literal("show_profile") }),
  z.object({ id, action: z.literal("resend_activation") }),
  z.object({
    id,
    action: z.literal("credits"),
    delta: z
      .number()
      .int()
      .min(-creditAdjustMax)
      .max(creditAdjustMax)
      .refine((delta) => delta !== 0, "Grant or deduct at least 1 credit"),
    note: text(200, { min: 3 }),
    form_key: FormKey,
  }),
  /** amount: a part of the payment (minor units); without it the whole. */
  z.object({ id, action: z.literal("refund"), payment_id: id, amount: z.number().int().min(1).max(100_000_000).optional(), reason: text(500, { min: 3 }), form_key: FormKey }),
  z.object({ id, action: z.literal("lift_debit_block") }),
  z.object({ id, action: z.literal("erase"), confirm: z.literal("ERASE") }),
]);
export type MemberActionRequest = z.infer<typeof MemberActionRequest>;

export const QueueSizes = z.object({ photos: z.number().int().min(0).max(queueCountCap), reports: z.number().int().min(0).max(queueCountCap) });
export type QueueSizes = z.infer<typeof QueueSizes>;
