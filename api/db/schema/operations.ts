import { primaryKey, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { profiles, userRef, users } from "./members";
import { messages } from "./chat";
import { siteRef, sites } from "./sites";

/** Data exports, complaints, funnel attribution and notification mails. api/db/schema.ts gathers every domain's tables for drizzle and the api. */

/**
 * A member's request for a copy of their data: the job (api/jobs/data-export.ts) builds a zip under
 * DATA_DIR/exports/<token>.zip and mails the link; the member downloads it with their session for 7 days.
 * `origin` is the request's, for the link in the mail the job sends later.
 */
export const dataExports = pgTable(
  "data_exports",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    token: text("token").notNull(),
    status: text("status", { enum: ["pending", "building", "ready", "failed"] }).notNull().default("pending"),
    origin: text("origin").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp("ready_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("data_exports_token_idx").on(t.token), index("data_exports_user_idx").on(t.userId, t.requestedAt), index("data_exports_pending_idx").on(t.status, t.id)],
);

/** /complaints: a report about content on a site, answered with its reference and mailed to support_email. */
export const complaints = pgTable(
  "complaints",
  {
    id: serial("id").primaryKey(),
    siteId: siteRef(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    reference: text("reference").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    contentUrl: text("content_url").notNull(),
    reason: text("reason").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("complaints_reference_idx").on(t.reference), index("complaints_site_idx").on(t.siteId, t.createdAt)],
);

/**
 * Attribution: entries through a tracked funnel URL (network, ref, sub1-sub3), counted per day and
 * site. Empty strings stand for a value the URL did not carry (so the key is one row, not NULL-distinct).
 */
export const attributionVisits = pgTable(
  "attribution_visits",
  {
    day: date("day").notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    network: text("network").notNull().default(""),
    ref: text("ref").notNull().default(""),
    sub1: text("sub1").notNull().default(""),
    sub2: text("sub2").notNull().default(""),
    sub3: text("sub3").notNull().default(""),
    visits: integer("visits").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.siteId, t.network, t.ref, t.sub1, t.sub2, t.sub3] })],
);

/**
 * Notification mails (api/jobs/notification-mails.ts): per member and kind, the newest event already
 * mailed about and when, so a member gets at most one mail per kind per interval and never one twice.
 */
export const notificationMails = pgTable(
  "notification_mails",
  {
    userId: userRef(),
    kind: text("kind", { enum: ["message", "like", "match"] }).notNull(),
    lastEventId: integer("last_event_id").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

export const reportSources = ["profile", "message", "complaint"] as const;
export const reportStatuses = ["new", "in_progress", "resolved", "rejected"] as const;

/**
 * docs/staff.md reports: the one queue of member reports (a Report on a profile or a message) and /complaints entries,
 * worked at /staff/reports. The member reported about (reported_user_id) is who a statement of reasons goes to.
 */
export const reports = pgTable(
  "reports",
  {
    id: serial("id").primaryKey(),
    siteId: siteRef(),
    source: text("source", { enum: reportSources }).notNull(),
    reporterUserId: integer("reporter_user_id").references(() => users.id, { onDelete: "set null" }),
    reportedUserId: integer("reported_user_id").references(() => users.id, { onDelete: "set null" }),
    profileId: integer("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    messageId: integer("message_id").references(() => messages.id, { onDelete: "set null" }),
    complaintId: integer("complaint_id").references(() => complaints.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    details: text("details").notNull().default(""),
    status: text("status", { enum: reportStatuses }).notNull().default("new"),
    assigneeStaffId: integer("assignee_staff_id"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reports_queue_idx").on(t.status, t.createdAt), index("reports_reported_idx").on(t.reportedUserId), index("reports_reporter_idx").on(t.reporterUserId)],
);

/** Internal notes on a report, and the record of the mails sent about it (a reply to the sender, a statement of reasons). */
export const reportNotes = pgTable(
  "report_notes",
  {
    id: serial("id").primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    staffUserId: integer("staff_user_id").notNull(),
    staffName: text("staff_name").notNull(),
    kind: text("kind", { enum: ["note", "reply", "statement", "action"] }).notNull().default("note"),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("report_notes_report_idx").on(t.reportId, t.id)],
);

/** docs/product.md §1 live-cam tiles: clicks per site and UTC day (one upsert per click; `npm run report -- cam`). */
export const camClicks = pgTable(
  "cam_clicks",
  {
    siteId: siteRef(),
    day: date("day").notNull(),
    clicks: integer("clicks").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.day] })],
);

/**
 * One row per periodic job and due time (api/jobs/schedule.ts): the api instance that inserts it runs the job
 * for that time, the others see the row and skip it, so several instances run each job once per due time.
 * Kept 7 days: which instance ran what, when it ended and how.
 */
export const jobRuns = pgTable(
  "job_runs",
  {
    job: text("job").notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    instance: text("instance").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    outcome: text("outcome", { enum: ["ok", "failed"] }),
  },
  (t) => [primaryKey({ columns: [t.job, t.dueAt] })],
);
