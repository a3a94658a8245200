import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  primaryKey,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

export const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  address: text("address").notNull(),
  kvk: text("kvk").notNull(),
  city: text("city").notNull(),
  country: text("country").notNull(),
  tradenames: jsonb("tradenames").$type<string[]>().notNull().default([]),
  vatNumbers: jsonb("vat_numbers").$type<string[]>().notNull().default([]),
  supportPhone: text("support_phone").notNull(),
  deleteDiscount: integer("delete_discount"),
  added: timestamp("added", { withTimezone: true }).notNull().defaultNow(),
});

export const sites = pgTable(
  "sites",
  {
    id: serial("id").primaryKey(),
    domain: text("domain").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    name: text("name").notNull(),
    domainLanguage: text("domain_language"),
    cdnPrefix: text("cdn_prefix").notNull().default("/uploads/"),
    niche: integer("niche").notNull().default(1),
    indexTitle: text("index_title").notNull(),
    description: text("description").notNull(),
    countries: jsonb("countries").$type<string[]>().notNull().default([]),
    signups: text("signups", { enum: ["all", "with_trafficsource", "other"] }).notNull().default("all"),
    loggedOutSearch: boolean("logged_out_search").notNull().default(false),
    loggedOutSearchTrafficsource: boolean("logged_out_search_trafficsource").notNull().default(false),
    enableSiteEntryPopup: boolean("enable_site_entry_popup").notNull().default(true),
    minimumMessageCosts: jsonb("minimum_message_costs").$type<Record<string, { costs: number; currency: string }>>().notNull().default({}),
    /** VAPID key pair (base64url, uncompressed P-256 point / 32-byte scalar) for web push; null: no push on this site. */
    pushPublicKey: text("push_public_key"),
    pushPrivateKey: text("push_private_key"),
    supportEmail: text("support_email").notNull(),
    visibleProfileFields: jsonb("visible_profile_fields").$type<string[]>().notNull().default([]),
    visibleProfileNotes: jsonb("visible_profile_notes").$type<string[]>().notNull().default([]),
    messageCredits: integer("message_credits").notNull().default(10),
    signupCredits: integer("signup_credits").notNull().default(20),
    photoCredits: integer("photo_credits").notNull().default(5),
    giftCredits: integer("gift_credits").notNull().default(25),
    messageLength: integer("message_length").notNull().default(1000),
    searchFields: jsonb("search_fields").$type<string[]>().notNull().default([]),
    memberResell: boolean("member_resell").notNull().default(false),
    fictionalIcon: text("fictional_icon").notNull().default(""),
    fictionalWarning: text("fictional_warning").notNull().default(""),
    fictionalSingular: text("fictional_singular").notNull().default(""),
    fictionalPlural: text("fictional_plural").notNull().default(""),
    refundDays: integer("refund_days").notNull().default(14),
    /** docs/product.md §9 welcome discount: how long after signup a member's first purchase gets it; 0: no welcome discount. */
    welcomeDiscountHours: integer("welcome_discount_hours").notNull().default(72),
    /** Minimum age at signup; docs/product.md §5 names min_age a parameter, 18 unless the site sets more. */
    minAge: integer("min_age").notNull().default(18),
    /** Whether the signup form asks for a first message (signup_message). */
    askSignupMessage: boolean("ask_signup_message").notNull().default(false),
    deleteDiscount: integer("delete_discount"),
    mailName: text("mail_name").notNull(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
  },
  (t) => [uniqueIndex("sites_domain_idx").on(t.domain)],
);

export const userStatuses = ["not_confirmed", "active", "deleted", "erased"] as const;

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    status: text("status", { enum: userStatuses }).notNull().default("not_confirmed"),
    credits: integer("credits").notNull().default(0),
    paidUser: boolean("paid_user").notNull().default(false),
    /** Issue 16: a direct debit of this member bounced; no more direct debits ('Your account is blocked for direct debit payments.'). */
    debitBlockedAt: timestamp("debit_blocked_at", { withTimezone: true }),
    signupDate: timestamp("signup_date", { withTimezone: true }).notNull().defaultNow(),
    language: text("language").notNull().default("en"),
    /** docs/product.md §3: why we stopped e-mailing the member (fbl: marked as spam, bounce: invalid address, listunsubscribe); empty: mail allowed. */
    notificationsDisabled: jsonb("notifications_disabled").$type<("fbl" | "bounce" | "listunsubscribe")[]>().notNull().default([]),
    /** Issue 17 /notifications: the kind x channel switches the member turned off, as "kind:channel" ("likes:email"); empty: all on (ADR 011). */
    notificationSettings: jsonb("notification_settings").$type<string[]>().notNull().default([]),
    network: text("network"),
    ref: text("ref"),
    sub1: text("sub1"),
    sub2: text("sub2"),
    sub3: text("sub3"),
    /** Set when the member soft-deletes; reactivable for 14 days, then the erase job clears personal data. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
    erasedAt: timestamp("erased_at", { withTimezone: true }),
    /** The reason a member gave when deleting the account (cleared by the erase job). */
    deletionReason: text("deletion_reason"),
  },
  (t) => [uniqueIndex("users_site_email_idx").on(t.siteId, sql`lower(${t.email})`)],
);

export const profiles = pgTable(
  "profiles",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("profiles_user_idx").on(t.userId),
    index("profiles_site_newest_idx").on(t.siteId, t.status, t.createdAt),
    // Member search (GET /api/members.php): equality columns first, the date_of_birth range (age) last.
    index("profiles_search_gender_age_idx").on(t.siteId, t.status, t.gender, t.dateOfBirth),
    index("profiles_search_place_age_idx").on(t.siteId, t.status, t.country, t.region, t.dateOfBirth),
  ],
);

export const photos = pgTable(
  "photos",
  {
    id: serial("id").primaryKey(),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    thumbFilename: text("thumb_filename").notNull(),
    status: text("status", { enum: ["active", "pending", "rejected"] }).notNull().default("pending"),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("photos_profile_idx").on(t.profileId, t.position)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    /** sha256 of the cookie token: a leaked table gives no usable session. */
    tokenHash: text("token_hash").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("sessions_token_idx").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

/** Failed logins per account, counted in the database so every api instance agrees. */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_failures_user_at_idx").on(t.userId, t.at)],
);

/** Every change of a member's credits, written in the same transaction as users.credits. */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason", { enum: ["signup", "purchase", "message", "gift", "photo", "refund", "demo"] }).notNull(),
    reference: text("reference"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("credit_ledger_user_idx").on(t.userId, t.createdAt)],
);

export const interests = pgTable("interests", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
});

export const accountTokenKinds = ["activation", "password_reset", "email_change", "reactivation"] as const;
export type AccountTokenKind = (typeof accountTokenKinds)[number];

/** Single-use links sent by mail. Only the HMAC of the token is kept; `usedAt` makes a second use fail. */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: accountTokenKinds }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address an email_change token confirms. */
    newEmail: text("new_email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("account_tokens_hash_idx").on(t.tokenHash), index("account_tokens_user_kind_idx").on(t.userId, t.kind, t.createdAt)],
);

export const dismissalKeys = ["hide-enrich-alert", "hide-push-notification-alert", "hide-disabled-notifications-alert", "hide-time-bonus-modal"] as const;

/** docs/product.md §4: dismissals with a timestamp, kept per member so they follow them across devices. */
export const dismissals = pgTable(
  "dismissals",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key", { enum: dismissalKeys }).notNull(),
    dismissedAt: timestamp("dismissed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** Invitations for sites whose signups are by invitation only (signups = other). */
export const invitations = pgTable(
  "invitations",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    code: text("code").notNull(),
    usedByUserId: integer("used_by_user_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("invitations_code_idx").on(t.siteId, t.code)],
);

export const likeSources = ["profile", "swipe", "match_finder", "auto"] as const;

/**
 * docs/product.md §4 likes between profiles: a match when both like. `isNew` is the receiver's like_new flag,
 * cleared when they open the liker's profile.
 */
export const likes = pgTable(
  "likes",
  {
    likerProfileId: integer("liker_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    likedProfileId: integer("liked_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    isNew: boolean("is_new").notNull().default(true),
    source: text("source", { enum: likeSources }).notNull().default("profile"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.likerProfileId, t.likedProfileId] }), index("likes_liked_idx").on(t.likedProfileId, t.createdAt)],
);

/** docs/product.md §6 blocking: the blocked member cannot view the blocker's profile or contact them. */
export const blocks = pgTable(
  "blocks",
  {
    blockerProfileId: integer("blocker_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    blockedProfileId: integer("blocked_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerProfileId, t.blockedProfileId] }), index("blocks_blocked_idx").on(t.blockedProfileId)],
);

export const discoveryGames = ["swipe", "match_finder"] as const;

/** Like or pass decisions in /swipe-game and /match-finder: a profile is offered once per game; swipe likes per day are counted here. */
export const discoveryDecisions = pgTable(
  "discovery_decisions",
  {
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    targetProfileId: integer("target_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    game: text("game", { enum: discoveryGames }).notNull(),
    decision: text("decision", { enum: ["like", "pass"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.targetProfileId, t.game] }), index("discovery_decisions_day_idx").on(t.profileId, t.game, t.createdAt)],
);

/** docs/product.md §3 Push: a browser's push subscription (POST /api/user.php?push=1), one row per endpoint. */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint_idx").on(t.endpoint), index("push_subscriptions_user_idx").on(t.userId)],
);

/**
 * Client limits (rate-limiter-flexible's Drizzle store): one row per limited key (an action and a
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

/** docs/product.md §3 chat: what a message is. Text now; icebreakers, GIFs, gifts and images follow (chat extras). */
export const messageKinds = ["text", "icebreaker", "gif", "gift", "image"] as const;

/**
 * A conversation: one per pair of profiles (a site's profiles only ever talk within it), the pair kept
 * in id order so the pair is unique whoever writes first. `startedBy` is the profile that sent the
 * first message (docs/product.md §6: free members may start up to 2); `lastMessageId` is null until then (no
 * conversation shows anywhere before its first message).
 */
export const conversations = pgTable(
  "conversations",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    lowProfileId: integer("low_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    highProfileId: integer("high_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    startedBy: integer("started_by").references(() => profiles.id, { onDelete: "set null" }),
    lastMessageId: integer("last_message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("conversations_pair_idx").on(t.lowProfileId, t.highProfileId), index("conversations_started_by_idx").on(t.startedBy)],
);

/**
 * One member's side of a conversation: unread count, the last message they read, and what they
 * removed (docs/product.md §4 Removing a chat): `hiddenThroughId` hides every message up to it, `deletedAt` hides
 * the conversation until the other member writes again. `lastMessageId` mirrors the conversation's,
 * so "a member's conversations by latest message" is one index range.
 */
export const conversationMembers = pgTable(
  "conversation_members",
  {
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    otherProfileId: integer("other_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    unreadCount: integer("unread_count").notNull().default(0),
    lastReadMessageId: integer("last_read_message_id").notNull().default(0),
    hiddenThroughId: integer("hidden_through_id").notNull().default(0),
    lastMessageId: integer("last_message_id").notNull().default(0),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.profileId] }), index("conversation_members_latest_idx").on(t.profileId, t.lastMessageId)],
);

/**
 * A message, ordered by id within its conversation. `credits` is what its sender was charged (the
 * ledger entry's reference is `message:{id}`); `idempotencyKey` makes a resent form store one message.
 */
export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    senderProfileId: integer("sender_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: messageKinds }).notNull().default("text"),
    body: text("body").notNull(),
    credits: integer("credits").notNull().default(0),
    idempotencyKey: text("idempotency_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("messages_conversation_idx").on(t.conversationId, t.id), uniqueIndex("messages_idempotency_idx").on(t.senderProfileId, t.idempotencyKey)],
);

export const memberEventKinds = ["message", "typing", "read", "like", "match", "counts"] as const;

/**
 * What a member's live stream (GET /api/events.php) delivers, one row per event and recipient, written in
 * the transaction of what caused it. The bus (PostgreSQL NOTIFY) carries only the id; a reconnect with
 * Last-Event-ID replays the rows after it, so a dropped connection loses nothing. Pruned after a few days.
 */
export const memberEvents = pgTable(
  "member_events",
  {
    id: serial("id").primaryKey(),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: memberEventKinds }).notNull(),
    /** The other member the event is about (the sender, the liker, the reader, the one typing). */
    fromProfileId: integer("from_profile_id").references(() => profiles.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
    messageId: integer("message_id").references(() => messages.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("member_events_profile_idx").on(t.profileId, t.id), index("member_events_created_idx").on(t.createdAt)],
);

/**
 * Whether a member is there to see events (issue 13 web push goes to members who are away): `streamUntil`
 * is pushed forward by every open stream's heartbeat (any api instance), `hidden` is set by the
 * page-hidden beacon and cleared when a stream opens.
 */
export const memberPresence = pgTable("member_presence", {
  profileId: integer("profile_id")
    .primaryKey()
    .references(() => profiles.id, { onDelete: "cascade" }),
  streamUntil: timestamp("stream_until", { withTimezone: true }).notNull().defaultNow(),
  hidden: boolean("hidden").notNull().default(false),
});

/**
 * Web pushes waiting to be sent (issue 13; api/jobs/push.ts): one row per event and subscription, written
 * by emitEvents in the transaction of the event when its recipient is away and has a subscription. A
 * worker claims due rows with FOR UPDATE SKIP LOCKED (so N api instances share the queue), pushing
 * `runAfter` forward while it sends; sent or given-up rows are deleted, failed ones wait with backoff.
 */
export const pushJobs = pgTable(
  "push_jobs",
  {
    id: serial("id").primaryKey(),
    eventId: integer("event_id")
      .notNull()
      .references(() => memberEvents.id, { onDelete: "cascade" }),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: "cascade" }),
    attempts: integer("attempts").notNull().default(0),
    runAfter: timestamp("run_after", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("push_jobs_due_idx").on(t.runAfter, t.id), index("push_jobs_event_idx").on(t.eventId), index("push_jobs_subscription_idx").on(t.subscriptionId)],
);

/* ---- Credits and payments (issue 15) ---- */

/** docs/product.md §3 Payment: a credit package of a site for one payment country; money in integer minor units. */
export const creditPackages = pgTable(
  "credit_packages",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    country: text("country").notNull(),
    credits: integer("credits").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    mark: text("mark", { enum: ["most_chosen", "best_value"] }),
    position: integer("position").notNull().default(0),
    active: boolean("active").notNull().default(true),
  },
  (t) => [index("credit_packages_site_country_idx").on(t.siteId, t.country, t.position)],
);

/**
 * A payment: what was bought (credits and amount copied from the package at creation), with which method
 * and provider, and its state (contract/payments.ts paymentStatuses). Only a conditional update from
 * `pending` makes it final; credits are granted in the same transaction (ledger reference `payment:{id}`).
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    packageId: integer("package_id").references(() => creditPackages.id, { onDelete: "set null" }),
    credits: integer("credits").notNull(),
    amount: integer("amount").notNull(),
    transactionCosts: integer("transaction_costs").notNull().default(0),
    currency: text("currency").notNull(),
    country: text("country").notNull(),
    method: text("method").notNull(),
    provider: text("provider").notNull(),
    status: text("status", { enum: ["pending", "paid", "failed", "cancelled", "expired", "refunded"] }).notNull().default("pending"),
    /** Our reference at the provider (random, unguessable): the sandbox checkout token, Verotel's referenceID. */
    reference: text("reference").notNull(),
    /** The provider's id of the sale (Verotel saleID), once known. */
    providerReference: text("provider_reference"),
    /** A stored card the provider can charge again (repeat order); null when none. */
    storedCard: text("stored_card"),
    /** Whether this payment charged a stored card (repeat order). */
    usedStoredCard: boolean("used_stored_card").notNull().default(false),
    /** The sandbox's own state (the payer's choice): the fake provider keeps it here. */
    sandboxOutcome: text("sandbox_outcome"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    refundedCredits: integer("refunded_credits").notNull().default(0),
    /** Credits already spent when refunded: not taken back (the balance never goes below zero). */
    refundShortfall: integer("refund_shortfall").notNull().default(0),
    /** The discount this payment got (issue 16): its code (upper case), percentage and amount off the package's price. */
    discountCode: text("discount_code"),
    discountPercentage: integer("discount_percentage"),
    discountAmount: integer("discount_amount").notNull().default(0),
    /** A direct debit (sdd) through our own form: its mandate (issue 16). */
    mandateId: integer("mandate_id"),
    /** Issue 17 attribution: the member's tracking values (docs/product.md §3) when the payment started. */
    network: text("network"),
    ref: text("ref"),
    sub1: text("sub1"),
    sub2: text("sub2"),
    sub3: text("sub3"),
  },
  (t) => [uniqueIndex("payments_reference_idx").on(t.provider, t.reference), index("payments_user_idx").on(t.userId, t.createdAt)],
);

/** Every notification a provider sent (replays included), and what it changed: the audit trail of a payment. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: serial("id").primaryKey(),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    eventId: text("event_id"),
    status: text("status").notNull(),
    /**
     * applied (changed the payment), ignored (replay, late or out of order), mismatch (amount or currency
     * differs, or a `paid` without them), unconfirmed (the provider's status service did not confirm it).
     */
    outcome: text("outcome", { enum: ["applied", "ignored", "mismatch", "unconfirmed"] }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_events_payment_idx").on(t.paymentId, t.receivedAt)],
);

/**
 * docs/product.md §3 discount codes an operator hands out (the welcome discount and the time bonus are rules in
 * api/domain/payments/discounts.ts, not rows). `site_id` null: valid on every site.
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id").references(() => sites.id, { onDelete: "cascade" }),
    /** Upper case; members may type it in any case. */
    code: text("code").notNull(),
    percentage: integer("percentage").notNull(),
    /** Minor units of the package's price (before transaction costs); 0: none. */
    minimumOrderValue: integer("minimum_order_value").notNull().default(0),
    /** Only for payments in this currency (and the minimum order is in it); null: any. */
    currency: text("currency"),
    /** Only for this payment country; null: any. */
    country: text("country"),
    /** Only for these payment methods; null: any. */
    paymentMethods: jsonb("payment_methods").$type<string[]>(),
    validity: text("validity", { enum: ["once_per_user", "uses"] }).notNull().default("once_per_user"),
    /** With validity `uses`: how many paid (or running) payments may use it in all. */
    maxUses: integer("max_uses"),
    /** Uses held by running payments and used by paid ones (validity `uses`). */
    usedCount: integer("used_count").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("discount_codes_code_idx").on(t.code, t.siteId), check("discount_codes_percentage_check", sql`${t.percentage} between 1 and 90`)],
);

/**
 * A discount held by a running payment (`reserved`) or used by a paid one (`used`). A payment that ends
 * unpaid gives its reservation back. A once-per-member code has `once_key` = the member, so the unique
 * index lets one payment of theirs hold it at a time, however many start at once.
 */
export const discountUses = pgTable(
  "discount_uses",
  {
    id: serial("id").primaryKey(),
    code: text("code").notNull(),
    discountCodeId: integer("discount_code_id").references(() => discountCodes.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    onceKey: integer("once_key"),
    status: text("status", { enum: ["reserved", "used"] }).notNull().default("reserved"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("discount_uses_payment_idx").on(t.paymentId), uniqueIndex("discount_uses_once_idx").on(t.code, t.onceKey), index("discount_uses_user_idx").on(t.userId)],
);

/**
 * A direct debit mandate (issue 16, docs/product.md §3 Direct debit form), given once the SMS code is right. The IBAN
 * is kept encrypted (AES-256-GCM, docs/decisions/010-direct-debit-mandates.md) and masked for display.
 */
export const debitMandates = pgTable(
  "debit_mandates",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountHolder: text("account_holder").notNull(),
    ibanEncrypted: text("iban_encrypted").notNull(),
    ibanMasked: text("iban_masked").notNull(),
    street: text("street").notNull(),
    houseNumber: text("house_number").notNull(),
    zip: text("zip").notNull(),
    city: text("city").notNull(),
    phone: text("phone").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("debit_mandates_user_idx").on(t.userId)],
);

/**
 * A direct debit waiting for its SMS code: what the member entered (the IBAN encrypted), the package,
 * the code's hash, its expiry and the wrong tries. Confirmed once (confirmed_at, the payment it made).
 */
export const debitRequests = pgTable(
  "debit_requests",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    packageId: integer("package_id")
      .notNull()
      .references(() => creditPackages.id, { onDelete: "cascade" }),
    discountCode: text("discount_code"),
    details: jsonb("details").$type<{ accountHolder: string; ibanEncrypted: string; ibanMasked: string; street: string; houseNumber: string; zip: string; city: string; phone: string }>().notNull(),
    codeHash: text("code_hash").notNull(),
    codeExpiresAt: timestamp("code_expires_at", { withTimezone: true }).notNull(),
    codesSent: integer("codes_sent").notNull().default(1),
    wrongTries: integer("wrong_tries").notNull().default(0),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("debit_requests_user_idx").on(t.userId, t.createdAt)],
);

/* ---- Data export (issue 17) ---- */

/**
 * A member's request for a copy of their data: the job (api/jobs/data-export.ts) builds a zip under
 * DATA_DIR/exports/<token>.zip and mails the link; the member downloads it with their session for 7 days.
 * `origin` is the request's, for the link in the mail the job sends later.
 */
export const dataExports = pgTable(
  "data_exports",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    status: text("status", { enum: ["pending", "building", "ready", "failed"] }).notNull().default("pending"),
    origin: text("origin").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp("ready_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("data_exports_token_idx").on(t.token), index("data_exports_user_idx").on(t.userId, t.requestedAt), index("data_exports_pending_idx").on(t.status, t.id)],
);

/** Issue 17 /complaints: a report about content on a site, answered with its reference and mailed to support_email. */
export const complaints = pgTable(
  "complaints",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    reference: text("reference").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    contentUrl: text("content_url").notNull(),
    reason: text("reason").notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("complaints_reference_idx").on(t.reference), index("complaints_site_idx").on(t.siteId, t.createdAt)],
);

/**
 * Issue 17 attribution: entries through a tracked funnel URL (network, ref, sub1-sub3), counted per day and
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
 * Issue 17 notification mails (api/jobs/notification-mails.ts): per member and kind, the newest event already
 * mailed about and when, so a member gets at most one mail per kind per interval and never one twice.
 */
export const notificationMails = pgTable(
  "notification_mails",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["message", "like", "match"] }).notNull(),
    lastEventId: integer("last_event_id").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
