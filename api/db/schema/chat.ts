import { sql } from "drizzle-orm";
import { boolean, primaryKey, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { profileRef, profiles, pushSubscriptions } from "./members";
import { siteRef } from "./sites";

/** Chat: conversations with a side per member, messages, live events, presence and push jobs. api/db/schema.ts gathers every domain's tables for drizzle and the api. */

/** docs/product.md §3 chat: what a message is. Text now; icebreakers, GIFs, gifts and images follow (chat extras). */
export const messageKinds = ["text", "icebreaker", "gif", "gift", "image"] as const;
/** A message's moderation state (messages.moderation); delivered messages have none. */
export const messageModerations = ["held", "rejected"] as const;

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
    siteId: siteRef(),
    lowProfileId: profileRef("low_profile_id"),
    highProfileId: profileRef("high_profile_id"),
    startedBy: integer("started_by").references(() => profiles.id, { onDelete: "set null" }),
    lastMessageId: integer("last_message_id"),
    createdAt: createdAt(),
    /*
     * The operator inbox's state (docs/staff.md), kept by send_message with the last message (migration 0032):
     * `fictionalProfileId` the site-run side of a member's conversation with a site-run profile (null: two members or
     * two site-run profiles), `lastMessageAt` and whether its sender was the member, and whether the site-run side has
     * written at all. The queues are index ranges over them (api/domain/staff/inbox.ts), not a read of every message.
     */
    fictionalProfileId: integer("fictional_profile_id"),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    lastFromMember: boolean("last_from_member").notNull().default(true),
    answered: boolean("answered").notNull().default(false),
    /** The site-run side's last message: the operator's reply a member's next messages are counted against (operator_replies). */
    lastAnswerId: integer("last_answer_id"),
  },
  (t) => [
    uniqueIndex("conversations_pair_idx").on(t.lowProfileId, t.highProfileId),
    index("conversations_started_by_idx").on(t.startedBy),
    // The inbox's new, unreplied and waiting queues (the longest wait first) and the stopped one (the newest first).
    index("conversations_inbox_idx").on(t.lastFromMember, t.answered, t.lastMessageAt).where(sql`${t.fictionalProfileId} is not null`),
    index("conversations_inbox_stopped_idx").on(t.lastMessageAt).where(sql`${t.fictionalProfileId} is not null`),
    // The queues of one site-run profile (the desk's profile filter).
    index("conversations_inbox_profile_idx").on(t.fictionalProfileId, t.lastFromMember, t.answered, t.lastMessageAt).where(sql`${t.fictionalProfileId} is not null`),
  ],
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
    profileId: profileRef("profile_id"),
    otherProfileId: profileRef("other_profile_id"),
    unreadCount: integer("unread_count").notNull().default(0),
    lastReadMessageId: integer("last_read_message_id").notNull().default(0),
    hiddenThroughId: integer("hidden_through_id").notNull().default(0),
    lastMessageId: integer("last_message_id").notNull().default(0),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.profileId] }),
    index("conversation_members_latest_idx").on(t.profileId, t.lastMessageId),
    // The member's unread badge reads only their conversations with unread messages (api/domain/chat.ts unreadTotalQuery).
    index("conversation_members_unread_idx").on(t.profileId).where(sql`${t.unreadCount} > 0`),
  ],
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
    senderProfileId: profileRef("sender_profile_id"),
    kind: text("kind", { enum: messageKinds }).notNull().default("text"),
    body: text("body").notNull(),
    credits: integer("credits").notNull().default(0),
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
    /**
     * docs/staff.md, contact details in chat: "held", a member's message with contact details waiting for a moderator
     * (its sender sees it, its recipient does not); "rejected", refused by one (never delivered); null, delivered.
     */
    moderation: text("moderation", { enum: messageModerations }),
  },
  (t) => [
    index("messages_conversation_idx").on(t.conversationId, t.id),
    // The queue of held messages, oldest first: a handful of rows however many messages there are.
    index("messages_held_idx").on(t.id).where(sql`${t.moderation} = 'held'`),
    uniqueIndex("messages_idempotency_idx").on(t.senderProfileId, t.idempotencyKey),
    // The staff dashboard's messages of the day: ids follow time, so a block range index is small and exact enough.
    index("messages_created_idx").using("brin", t.createdAt).with({ autosummarize: true }),
  ],
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
    profileId: profileRef("profile_id"),
    kind: text("kind", { enum: memberEventKinds }).notNull(),
    /** The other member the event is about (the sender, the liker, the reader, the one typing). */
    fromProfileId: integer("from_profile_id").references(() => profiles.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
    messageId: integer("message_id").references(() => messages.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("member_events_profile_idx").on(t.profileId, t.id), index("member_events_created_idx").using("brin", t.createdAt).with({ autosummarize: true })],
);

/**
 * Whether a member is there to see events (web push goes to members who are away, docs/push.md): `streamUntil`
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
 * Web pushes waiting to be sent (api/jobs/push.ts): one row per event and subscription, written
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
    createdAt: createdAt(),
  },
  (t) => [index("push_jobs_due_idx").on(t.runAfter, t.id), index("push_jobs_event_idx").on(t.eventId), index("push_jobs_subscription_idx").on(t.subscriptionId)],
);

/* ---- Credits and payments ---- */
