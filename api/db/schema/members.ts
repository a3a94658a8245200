import { sql } from "drizzle-orm";
import { boolean, primaryKey, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { siteRef } from "./sites";

/** Members: accounts, profiles, photos, dismissals and push subscriptions. api/db/schema.ts gathers every domain's tables for drizzle and the api. */

export const userStatuses = ["not_confirmed", "active", "deleted", "erased"] as const;

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    siteId: siteRef(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    status: text("status", { enum: userStatuses }).notNull().default("not_confirmed"),
    credits: integer("credits").notNull().default(0),
    paidUser: boolean("paid_user").notNull().default(false),
    /** A direct debit of this member bounced; no more direct debits ('Your account is blocked for direct debit payments.'). */
    debitBlockedAt: timestamp("debit_blocked_at", { withTimezone: true }),
    signupDate: timestamp("signup_date", { withTimezone: true }).notNull().defaultNow(),
    language: text("language").notNull().default("en"),
    /** docs/product.md §3: why we stopped e-mailing the member (fbl: marked as spam, bounce: invalid address, listunsubscribe); empty: mail allowed. */
    notificationsDisabled: jsonb("notifications_disabled").$type<("fbl" | "bounce" | "listunsubscribe")[]>().notNull().default([]),
    /** /notifications: the kind x channel switches the member turned off, as "kind:channel" ("likes:email"); empty: all on (ADR 011). */
    notificationSettings: jsonb("notification_settings").$type<string[]>().notNull().default([]),
    network: text("network"),
    ref: text("ref"),
    sub1: text("sub1"),
    sub2: text("sub2"),
    sub3: text("sub3"),
    /** The landing or lander page the member entered by before signing up (docs/staff.md, Analytics); null: none. */
    lander: text("lander"),
    /** When the member sent their first message (the analytics funnel's step, api/domain/analytics/rollups.ts). */
    firstMessageAt: timestamp("first_message_at", { withTimezone: true }),
    /** Set when the member soft-deletes; reactivable for 14 days, then the erase job clears personal data. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
    erasedAt: timestamp("erased_at", { withTimezone: true }),
    /** The reason a member gave when deleting the account (cleared by the erase job). */
    deletionReason: text("deletion_reason"),
    /** docs/staff.md: a suspension (until suspended_until) or a ban (suspended_until null) by staff, with the reason /pages/ban shows; null: none. */
    suspensionReason: text("suspension_reason"),
    suspendedUntil: timestamp("suspended_until", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("users_site_email_idx").on(t.siteId, sql`lower(${t.email})`),
    // The staff's member search by an e-mail address or its beginning, over every site (api/domain/staff/member-admin.ts).
    index("users_email_search_idx").on(sql`lower(${t.email}) text_pattern_ops`, t.id),
    // The staff dashboard's signups of the day (api/domain/staff/dashboard.ts).
    index("users_signup_date_idx").on(t.signupDate),
  ],
);

/** A row that belongs to a member account: `user_id`, referencing users, gone with the account. */
export const userRef = () => integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" });

export const profiles = pgTable(
  "profiles",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    siteId: siteRef(),
    name: text("name").notNull(),
    country: text("country").notNull(),
    region: text("region"),
    city: text("city"),
    status: text("status", { enum: ["active", "disabled"] }).notNull().default("disabled"),
    dateOfBirth: date("date_of_birth", { mode: "string" }).notNull(),
    gender: text("gender", { enum: ["male", "female"] }).notNull(),
    sexuality: text("sexuality", { enum: ["hetero", "gay", "lesbian", "bi"] }).notNull().default("hetero"),
    aboutMe: text("about_me").notNull().default(""),
    interests: jsonb("interests").$type<number[]>().notNull().default([]),
    hairColor: text("hair_color"),
    eyeColor: text("eye_color"),
    bodyType: text("body_type"),
    relationshipStatus: text("relationship_status"),
    tattoos: text("tattoos"),
    signupReason: text("signup_reason"),
    signupMessage: text("signup_message"),
    /** docs/product.md §4 invisible mode: hidden from search, messages and likes. */
    invisible: boolean("invisible").notNull().default(false),
    /** A profile run by the site (settings fictional_icon / fictional_warning label it on its page). */
    fictional: boolean("fictional").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("profiles_user_idx").on(t.userId),
    // Member search (GET /api/members.php, api/domain/members.ts): newest first along an index for each filter a search
    // narrows by (equality columns, then created_at and id), so a page reads its rows and no more; a narrow age range
    // reads its date_of_birth range instead.
    index("profiles_site_newest_idx").on(t.siteId, t.status, t.createdAt, t.id),
    index("profiles_search_gender_newest_idx").on(t.siteId, t.status, t.gender, t.createdAt, t.id),
    index("profiles_search_country_newest_idx").on(t.siteId, t.status, t.country, t.createdAt, t.id),
    index("profiles_search_region_newest_idx").on(t.siteId, t.status, t.country, t.region, t.createdAt, t.id),
    index("profiles_search_gender_age_idx").on(t.siteId, t.status, t.gender, t.dateOfBirth),
    // The staff's member search by a name's beginning (with the account, so the candidates come from the index alone).
    index("profiles_name_search_idx").on(sql`lower(${t.name}) text_pattern_ops`, t.userId),
    // The staff's list of site-run profiles, newest first (api/http/staff-profiles.ts).
    index("profiles_site_run_idx").on(t.id).where(sql`${t.fictional}`),
    // A site's site-run profiles by name (the saved replies' profile choice, api/http/staff-inbox.ts): the first 200 from the index.
    index("profiles_site_run_name_idx").on(t.siteId, t.name, t.id).where(sql`${t.fictional}`),
  ],
);

/** A column naming a member's profile (`name`), referencing profiles, gone with the profile. */
export const profileRef = (name: string) => integer(name).notNull().references(() => profiles.id, { onDelete: "cascade" });

export const photos = pgTable(
  "photos",
  {
    id: serial("id").primaryKey(),
    profileId: profileRef("profile_id"),
    /** Its profile's site (a profile never changes site): the moderation queue counts per site from the photos alone. */
    siteId: siteRef(),
    filename: text("filename").notNull(),
    thumbFilename: text("thumb_filename").notNull(),
    status: text("status", { enum: ["active", "pending", "rejected"] }).notNull().default("pending"),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    /** docs/staff.md moderation: when a moderator approved or rejected it (null: in the queue), and why it was rejected. */
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    rejectionReason: text("rejection_reason"),
    /** When the owner dismissed the notice of its rejection on /profile. */
    rejectionSeenAt: timestamp("rejection_seen_at", { withTimezone: true }),
  },
  (t) => [
    index("photos_profile_idx").on(t.profileId, t.position),
    index("photos_review_queue_idx").on(t.createdAt).where(sql`${t.reviewedAt} is null`),
    // A site's queue (api/domain/staff/photo-review.ts, the dashboard): its photos no moderator has seen, oldest first.
    index("photos_site_review_queue_idx").on(t.siteId, t.createdAt).where(sql`${t.reviewedAt} is null`),
  ],
);

export const dismissalKeys = ["hide-enrich-alert", "hide-push-notification-alert", "hide-disabled-notifications-alert", "hide-time-bonus-modal"] as const;

/** docs/product.md §4: dismissals with a timestamp, kept per member so they follow them across devices. */
export const dismissals = pgTable(
  "dismissals",
  {
    userId: userRef(),
    key: text("key", { enum: dismissalKeys }).notNull(),
    dismissedAt: timestamp("dismissed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** docs/product.md §3 Push: a browser's push subscription (POST /api/user.php?push=1), one row per endpoint. */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint_idx").on(t.endpoint), index("push_subscriptions_user_idx").on(t.userId)],
);
