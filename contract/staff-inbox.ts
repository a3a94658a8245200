import { z } from "zod";
import { IdempotencyKey } from "./chat";
import { giftIds } from "./gifts";
import { id, queryId, text } from "./input";
import { inboxQueueNames } from "./staff-inbox-queues";

/*
 * The operator inbox (docs/staff.md): members' conversations with site-run profiles, answered by operators
 * and admins (`inbox.answer`) as the profile, one operator per conversation at a time (a 5-minute claim).
 *
 *   GET  /api/staff/inbox.php               InboxQuery -> InboxResponse: a queue, the longest wait first, and the queues' sizes
 *   GET  /api/staff/inbox-conversation.php  ?id= -> InboxConversation | not_found 404
 *   POST /api/staff/inbox-conversation.php  InboxAction -> InboxActionResponse | validation_failed 400 (another
 *                                           operator holds the conversation: fields.id says who; a reply the
 *                                           member cannot receive; fields.photo_id: not an active photo of the
 *                                           site-run profile) | not_found 404
 *   POST /api/staff/inbox-next.php          -> InboxNextResponse: the longest-waiting unclaimed conversation, claimed
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
});
export type InboxEntry = z.infer<typeof InboxEntry>;

/** GET /api/staff/inbox.php?queue=: one queue's conversations (100 at most); by default the new ones. */
export const InboxQuery = z.object({ queue: InboxQueue.default("new") });

export const InboxResponse = z.object({
  queue: InboxQueue,
  conversations: z.array(InboxEntry),
  /** Each queue's size, counted up to 1,000 (api/domain/staff/inbox.ts inboxCountCap); `counts_capped`: the queues with more. */
  counts: z.object({ new: z.number(), unreplied: z.number(), waiting: z.number(), stopped: z.number() }),
  counts_capped: z.array(InboxQueue),
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
  member: InboxProfile.extend({ credits: z.number(), paying: z.boolean() }),
  profile: InboxProfile,
  messages: z.array(z.object({ id: z.number(), from_member: z.boolean(), kind: z.string(), body: z.string(), at: z.string() })),
  note: z.object({ body: z.string(), updated_at: z.string() }).nullable(),
  /** The member's other conversations with site-run profiles. */
  others: z.array(InboxEntry),
});
export type InboxConversation = z.infer<typeof InboxConversation>;

export const inboxReplyMax = 5000;

export const InboxAction = z.discriminatedUnion("action", [
  z.object({ id, action: z.literal("claim") }),
  z.object({ id, action: z.literal("release") }),
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
