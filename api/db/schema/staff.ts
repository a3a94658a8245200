import { boolean, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * The staff side (docs/staff.md): staff accounts apart from members, their sessions and failed logins, and
 * the audit log of every staff write. api/db/schema.ts gathers every domain's tables for drizzle and the api.
 */

export const staffRoles = ["admin", "moderator", "support", "operator"] as const;
export type StaffRole = (typeof staffRoles)[number];

/** A staff account: an e-mail address, a password and a mandatory second factor (TOTP), a role and the sites served. */
export const staffUsers = pgTable(
  "staff_users",
  {
    id: serial("id").primaryKey(),
    /** Lower-cased. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: staffRoles }).notNull(),
    /** The sites this account serves; an admin serves every site whatever this holds. */
    siteIds: integer("site_ids").array().notNull().default([]),
    /** scrypt, as members' passwords (api/domain/passwords.ts); null until set through the set-up link. */
    passwordHash: text("password_hash"),
    /** The TOTP secret (base32), encrypted with the deployment's secret; null until the second factor is enrolled. */
    totpSecret: text("totp_secret"),
    /** The last TOTP time step used to log in: a code works once. */
    totpLastStep: integer("totp_last_step"),
    /** HMACs of the unused recovery codes. */
    recoveryCodes: text("recovery_codes").array().notNull().default([]),
    /** Sessions made before this end (a password change, a disabled account). */
    sessionsValidFrom: timestamp("sessions_valid_from", { withTimezone: true }).notNull().defaultNow(),
    disabled: boolean("disabled").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("staff_users_email_idx").on(t.email)],
);

export const staffRef = () =>
  integer("staff_user_id")
    .notNull()
    .references(() => staffUsers.id, { onDelete: "cascade" });

export const staffTokenKinds = ["setup"] as const;

/** Single-use set-up links (a new account's password and second factor); only the token's HMAC is kept. */
export const staffTokens = pgTable(
  "staff_tokens",
  {
    id: serial("id").primaryKey(),
    staffUserId: staffRef(),
    kind: text("kind", { enum: staffTokenKinds }).notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("staff_tokens_hash_idx").on(t.tokenHash)],
);

/** Staff sessions: 12 hours, only the token's HMAC kept (as members' sessions). */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    staffUserId: staffRef(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("staff_sessions_token_idx").on(t.tokenHash), index("staff_sessions_user_idx").on(t.staffUserId)],
);

/** Failed staff logins per account (wrong password or code), for the same lock-out members have. */
export const staffLoginFailures = pgTable(
  "staff_login_failures",
  {
    id: serial("id").primaryKey(),
    staffUserId: staffRef(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("staff_login_failures_user_at_idx").on(t.staffUserId, t.at)],
);

/**
 * The keys of staff forms already booked (a credit grant or deduction, a refund, a new package, discount code or
 * invitation): each form carries a key made when it was rendered, taken here in the booking's transaction, so a
 * double click, a resent form or two tabs book once (api/domain/staff/form-keys.ts).
 */
export const staffFormKeys = pgTable(
  "staff_form_keys",
  {
    staffUserId: integer("staff_user_id").notNull(),
    formKey: text("form_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("staff_form_keys_key_idx").on(t.staffUserId, t.formKey)],
);

/**
 * Every staff write: who (and their role then), what, on what, the fields before and after (secrets left out), from
 * which address, when. Append-only: the migration's trigger refuses UPDATE and DELETE. Rows outlive their staff
 * account (no foreign key), so the log stays whole.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    staffUserId: integer("staff_user_id").notNull(),
    staffEmail: text("staff_email").notNull(),
    role: text("role", { enum: staffRoles }).notNull(),
    action: text("action").notNull(),
    /** What was acted on: a kind ("member", "photo", "site", ...) and its id. */
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** The site the action concerned, where one did. */
    siteId: integer("site_id"),
    /** The changed fields: { field: { before, after } }, secrets never included. */
    changes: jsonb("changes").$type<Record<string, { before: unknown; after: unknown }>>().notNull().default({}),
    clientIp: text("client_ip"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_staff_idx").on(t.staffUserId, t.at), index("audit_log_target_idx").on(t.targetType, t.targetId)],
);

/**
 * The operator inbox's claims (docs/staff.md, The operator inbox): who answers a member's conversation with a site-run profile right now.
 * One row per conversation; a claim lasts until `expires_at` (5 minutes, renewed while the operator types) and is
 * taken by one conditional upsert, so two operators (on any api instance) never hold one conversation.
 */
export const operatorClaims = pgTable(
  "operator_claims",
  {
    conversationId: integer("conversation_id").primaryKey(),
    staffUserId: staffRef(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  // An operator holds one conversation at a time: claiming one ends their other claims (api/domain/staff/inbox.ts).
  (t) => [index("operator_claims_staff_idx").on(t.staffUserId)],
);

/**
 * The operators' shared notes about a member: one per member profile, shown on every conversation of the member with
 * a site-run profile (migration 0037 joined the earlier per-pair notes into these).
 */
export const operatorMemberNotes = pgTable("operator_member_notes", {
  memberProfileId: integer("member_profile_id").primaryKey(),
  body: text("body").notNull().default(""),
  updatedBy: integer("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Saved replies of the operator desk (docs/staff.md): texts an operator inserts into an answer, per site and, when
 * `fictional_profile_id` is set, for one site-run profile only. `{member}` and `{profile}` in the body become the
 * member's and the profile's names. Admins keep them (`replies.manage`), each change audited.
 */
export const savedReplies = pgTable(
  "saved_replies",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id").notNull(),
    fictionalProfileId: integer("fictional_profile_id"),
    title: text("title").notNull(),
    body: text("body").notNull(),
    updatedBy: integer("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("saved_replies_site_idx").on(t.siteId, t.fictionalProfileId)],
);

/**
 * A site's waiting-time thresholds of the operator desk (docs/staff.md): a conversation waiting longer than
 * `warn_minutes` is marked amber in the queues, longer than `late_minutes` red. A site without a row uses the defaults
 * (api/domain/staff/desk.ts).
 */
export const inboxWaitThresholds = pgTable("inbox_wait_thresholds", {
  siteId: integer("site_id").primaryKey(),
  warnMinutes: integer("warn_minutes").notNull(),
  lateMinutes: integer("late_minutes").notNull(),
});

/** Which operator sent a site-run profile's message (the operator figures). */
export const operatorReplies = pgTable(
  "operator_replies",
  {
    messageId: integer("message_id").primaryKey(),
    staffUserId: staffRef(),
    conversationId: integer("conversation_id").notNull(),
    /** How long the member had waited for this answer, in seconds (from their message before it). */
    waitedSeconds: integer("waited_seconds"),
    /** The member's messages after this reply, before the profile's next one: counted by send_message as they come. */
    memberMessagesAfter: integer("member_messages_after").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("operator_replies_staff_idx").on(t.staffUserId, t.createdAt), index("operator_replies_created_idx").on(t.createdAt)],
);

/**
 * The operators' figures of a finished UTC day, per operator (api/domain/staff/inbox.ts operatorFigures): reckoned once
 * from operator_replies when first asked for, then read; `operator_day_rollups` lists the days reckoned (a day without
 * replies has no figures but is reckoned all the same).
 */
export const operatorDays = pgTable(
  "operator_days",
  {
    staffUserId: integer("staff_user_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    replies: integer("replies").notNull(),
    conversations: integer("conversations").notNull(),
    medianSeconds: integer("median_seconds"),
    p90Seconds: integer("p90_seconds"),
    memberMessagesAfter: integer("member_messages_after").notNull(),
  },
  (t) => [primaryKey({ columns: [t.staffUserId, t.day] }), index("operator_days_day_idx").on(t.day)],
);

export const operatorDayRollups = pgTable("operator_day_rollups", {
  day: date("day", { mode: "string" }).primaryKey(),
  reckonedAt: timestamp("reckoned_at", { withTimezone: true }).notNull().defaultNow(),
});
