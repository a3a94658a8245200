import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { userRef, users } from "./members";
import { siteRef } from "./sites";

/** Who may come in: sessions, the login throttle, single-use mail tokens, client limits and invitations. api/db/schema.ts gathers every domain's tables for drizzle and the api. */

export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    /** sha256 of the cookie token: a leaked table gives no usable session. */
    tokenHash: text("token_hash").notNull(),
    userId: userRef(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("sessions_token_idx").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

/** Failed logins per account, counted in the database so every api instance agrees. */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_failures_user_at_idx").on(t.userId, t.at)],
);

export const accountTokenKinds = ["activation", "password_reset", "email_change", "reactivation"] as const;
export type AccountTokenKind = (typeof accountTokenKinds)[number];

/** Single-use links sent by mail. Only the HMAC of the token is kept; `usedAt` makes a second use fail. */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    kind: text("kind", { enum: accountTokenKinds }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address an email_change token confirms. */
    newEmail: text("new_email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("account_tokens_hash_idx").on(t.tokenHash), index("account_tokens_user_kind_idx").on(t.userId, t.kind, t.createdAt)],
);

/** Invitations for sites whose signups are by invitation only (signups = other). */
export const invitations = pgTable(
  "invitations",
  {
    id: serial("id").primaryKey(),
    siteId: siteRef(),
    code: text("code").notNull(),
    usedByUserId: integer("used_by_user_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invitations_code_idx").on(t.siteId, t.code)],
);

/**
 * Client limits (api/http/limits.ts): one row per limited key (an action and a
 * client IP or an account), so N api instances on one PostgreSQL count together. Keys are hashed.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    points: integer("points").notNull().default(0),
    expire: timestamp("expire", { withTimezone: true }),
  },
  (t) => [index("rate_limits_expire_idx").on(t.expire)],
);

/** docs/staff.md: a member's successful logins, for the login history on the staff member page: the newest 20 (recordLogin in api/domain/login.ts); pruned with the account. */
export const memberLogins = pgTable(
  "member_logins",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    clientIp: text("client_ip"),
  },
  (t) => [index("member_logins_user_idx").on(t.userId, t.at)],
);
