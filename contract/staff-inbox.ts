import { z } from "zod";
import { IdempotencyKey } from "./chat";
import { giftIds } from "./gifts";
import { id, queryId, text } from "./input";
import { inboxQueueNames } from "./staff-inbox-queues";

/*
 * The operator inbox (docs/staff.md): members' conversations with site-run profiles, answered by operators
 * and admins (`inbox.answer`) as the profile, one operator per conversation at a time (a 5-minute claim).
 *
 *   GET  /api/staff/inbox.php               InboxQuery -> InboxResponse: a queue (by default the first that holds
 *                                           conversations), the longest wait first, and the queues' sizes
 *   GET  /api/staff/inbox-conversation.php  ?id= -> InboxConversation | not_found 404
 *   POST /api/staff/inbox-conversation.php  InboxAction -> InboxActionResponse | validation_failed 400 (another
 *                                           operator holds the conversation: fields.id says who; a reply the
 *                                           member cannot receive; fields.photo_id: not an active photo of the
 *                                           site-run profile) | not_found 404
 *                                           (a reply without a live claim of the caller: params.claim says why,
 *                                           "taken" with params.by, "expired" or "left"; the claim is not taken again)
 *   GET  /api/staff/inbox-image.php         InboxImageQuery -> an image message's file (a conversation of the caller's sites)
 *   POST /api/staff/inbox-next.php          InboxNextBody -> InboxNextResponse: the longest-waiting unclaimed conversation, claimed
 *   GET  /api/staff/desk.php                -> DeskResponse: the caller's own claim, answers today, their sites' median wait
 *   GET  /api/staff/saved-replies.php       (admins) SavedRepliesQuery -> SavedRepliesResponse: a site's saved replies and thresholds
 *   POST /api/staff/saved-replies.php       (admins) SavedReplyAction -> { ok } | validation_failed 400 | not_found 404
 *   GET  /api/staff/operators.php           (admins) OperatorsQuery -> OperatorsResponse: per operator and day
 */

export { inboxQueueNames };
export const InboxQueue = z.enum(inboxQueueNames);

export const InboxEntry = z.object({
  id: z.number(),
  queue: InboxQueue,
  site: z.object({ id: z.number(), name: z.string() }),
  member: z.object({ profile_id: z.number(), name: z.string(), paying: z.boolean() }),
  profile: z.object({ id: z.number(), name: z.string() }),
  last_at: z.string(),
  last_from_member: z.boolean(),
  claimed_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** The last message: its kind and the start of its text (a text or icebreaker; other kinds have no text). */
  preview: z.object({ kind: z.string(), text: z.string() }).nullable(),
  /** The operator who sent the profile's last answer (not who holds the conversation now). */
  answered_by: z.string().nullable(),
});
export type InboxEntry = z.infer<typeof InboxEntry>;

/** A queue's filters (also of "next"): one site, one site-run profile, paying members only. */
export const InboxFilters = z.object({
  site: queryId.optional(),
  profile: queryId.optional(),
  paying: z.enum(["1", "0"]).optional(),
});

/** GET /api/staff/inbox.php?queue=: one queue's conversations (100 at most); by default the first queue that has any. */
export const InboxQuery = InboxFilters.extend({ queue: InboxQueue.optional() });

/** A site's waiting-time thresholds in minutes: past `warn_minutes` a wait shows amber, past `late_minutes` red. */
export const WaitThresholds = z.object({ site_id: z.number(), warn_minutes: z.number(), late_minutes: z.number() });

export const InboxResponse = z.object({
  queue: InboxQueue,
  conversations: z.array(InboxEntry),
  /** Each queue's size, counted up to 1,000 (api/domain/staff/inbox.ts inboxCountCap); `counts_capped`: the queues with more. */
  counts: z.object({ new: z.number(), unreplied: z.number(), waiting: z.number(), stopped: z.number() }),
  counts_capped: z.array(InboxQueue),
  /** The thresholds of the sites of the listed conversations. */
  thresholds: z.array(WaitThresholds),
  /** The sites and site-run profiles to filter by (the caller's sites; profiles of the chosen site, 200 at most). */
  sites: z.array(z.object({ id: z.number(), name: z.string() })),
  profiles: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type InboxResponse = z.infer<typeof InboxResponse>;

const InboxProfile = z.object({
  id: z.number(),
  name: z.string(),
  age: z.number(),
  gender: z.string(),
  city: z.string().nullable(),
  country: z.string(),
  about_me: z.string(),
  photos: z.array(z.object({ id: z.number(), thumb_url: z.string(), url: z.string() })),
});

export const InboxConversation = z.object({
  entry: InboxEntry,
  /** The staff member's own claim, if they hold one now. */
  mine: z.boolean(),
  member: InboxProfile.extend({
    credits: z.number(),
    paying: z.boolean(),
    /** Paid payments summed per currency, in minor units. */
    spend: z.array(z.object({ currency: z.string(), amount: z.number() })),
    signup_date: z.string(),
    /** The later of the newest login and the newest message here (null: neither known). */
    last_seen: z.string().nullable(),
    language: z.string(),
  }),
  profile: InboxProfile,
  /** `media`: a GIF's id (gif) or an image's size (image: its file from /api/staff/inbox-image.php). */
  messages: z.array(
    z.object({
      id: z.number(),
      from_member: z.boolean(),
      kind: z.string(),
      body: z.string(),
      at: z.string(),
      media: z.object({ gif: z.string().nullable(), width: z.number(), height: z.number() }).nullable(),
    }),
  ),
  /** Saved replies for this conversation (the site's and the profile's own), their placeholders unfilled. */
  saved_replies: z.array(z.object({ id: z.number(), title: z.string(), body: z.string(), profile_only: z.boolean() })),
  /** The waiting-time thresholds of the conversation's site. */
  thresholds: WaitThresholds,
  note: z.object({ body: z.string(), updated_at: z.string() }).nullable(),
  /** The member's other conversations with site-run profiles. */
  others: z.array(InboxEntry),
});
export type InboxConversation = z.infer<typeof InboxConversation>;

export const inboxReplyMax = 5000;

export const InboxAction = z.discriminatedUnion("action", [
  z.object({ id, action: z.literal("claim") }),
  /** `until`: only the claim that ends then (the one the page saw; a late beacon after a reload ends nothing). */
  z.object({ id, action: z.literal("release"), until: z.string().datetime().optional() }),
  /** The operator is typing: renews the claim and shows the member the typing indicator. */
  z.object({ id, action: z.literal("typing") }),
  z.object({ id, action: z.literal("reply"), text: text(inboxReplyMax, { min: 1, trim: true, multiline: true }), key: IdempotencyKey }),
  /** An answer with one of the site-run profile's own active photos: the member gets it as an image message. */
  z.object({ id, action: z.literal("reply_photo"), photo_id: id, key: IdempotencyKey }),
  /** An answer with a gift (a gift message, as members send them). Like text, both cost nobody credits. */
  z.object({ id, action: z.literal("reply_gift"), gift: z.enum(giftIds), key: IdempotencyKey }),
  z.object({ id, action: z.literal("note"), text: text(4000, { multiline: true }) }),
]);
export type InboxAction = z.infer<typeof InboxAction>;

export const InboxActionResponse = z.object({
  ok: z.literal(true),
  claim: z.object({ mine: z.boolean(), by: z.string().nullable(), until: z.string() }).nullable(),
});
export type InboxActionResponse = z.infer<typeof InboxActionResponse>;

export const InboxNextResponse = z.object({ id: z.number().nullable() });
/** POST /api/staff/inbox-next.php: the queue's filters, and a conversation not to take (the one just answered). */
export const InboxNextBody = z.object({
  site: id.optional(),
  profile: id.optional(),
  paying: z.boolean().optional(),
  skip: id.optional(),
});

export const InboxImageQuery = z.object({ message: queryId, size: z.enum(["full", "thumb"]).optional() });

/** GET /api/staff/desk.php: the caller's own work (the dashboard of an operator). */
export const DeskResponse = z.object({
  claim: InboxEntry.nullable(),
  answered_today: z.number(),
  /** The median wait of today's answers on the caller's sites (the newest 1,000), in seconds; null: none yet. */
  median_wait_seconds: z.number().nullable(),
});
export type DeskResponse = z.infer<typeof DeskResponse>;

/*
 * Saved replies (admins, `replies.manage`): per site and optionally one site-run profile. `{member}` and `{profile}` in a
 * body become the member's and the profile's names when an operator inserts it.
 */
export const savedReplyPlaceholders = ["member", "profile"] as const;
export const SavedRepliesQuery = z.object({ site: queryId });
export const SavedReply = z.object({ id: z.number(), profile: z.object({ id: z.number(), name: z.string() }).nullable(), title: z.string(), body: z.string(), updated_at: z.string() });
export const SavedRepliesResponse = z.object({
  site: z.object({ id: z.number(), name: z.string() }),
  replies: z.array(SavedReply),
  /** The site's site-run profiles a reply may be kept for (200 at most). */
  profiles: z.array(z.object({ id: z.number(), name: z.string() })),
  thresholds: WaitThresholds,
});
export type SavedRepliesResponse = z.infer<typeof SavedRepliesResponse>;
const replyFields = { site: id, profile: id.nullable(), title: text(80, { min: 1, trim: true }), body: text(2000, { min: 1, trim: true, multiline: true }) };
export const SavedReplyAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), ...replyFields }),
  z.object({ action: z.literal("update"), id, ...replyFields }),
  z.object({ action: z.literal("delete"), site: id, id }),
  z.object({
    action: z.literal("thresholds"),
    site: id,
    warn_minutes: z.number().int().min(1).max(10_080),
    /** More than warn_minutes (the api refuses it otherwise). */
    late_minutes: z.number().int().min(1).max(10_080),
  }),
]);
export type SavedReplyAction = z.infer<typeof SavedReplyAction>;

export const InboxConversationQuery = z.object({ id: queryId });

export const operatorDaysMax = 366;
export const OperatorsQuery = z.object({ days: z.coerce.number().int().min(1).max(operatorDaysMax).optional() });
export const OperatorDay = z.object({
  staff_id: z.number(),
  name: z.string(),
  /** YYYY-MM-DD, UTC. */
  day: z.string(),
  replies: z.number(),
  conversations: z.number(),
  /** How long members had waited for the answers, in seconds (null: no wait known). */
  median_seconds: z.number().nullable(),
  p90_seconds: z.number().nullable(),
  /** Member messages that followed an answer (before the profile's next message). */
  member_messages_after: z.number(),
});
export const OperatorsResponse = z.object({ days: z.number(), rows: z.array(OperatorDay) });
export type OperatorsResponse = z.infer<typeof OperatorsResponse>;
