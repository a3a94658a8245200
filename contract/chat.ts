import { z } from "zod";
import { id, queryId, text, wholeNumber } from "./input";
import { gifIdPattern, gifQueryMax, giftIds } from "./gifts";
import { locales } from "./locales";
import { UserResponse, badgeCountCap } from "./user";

/*
 * Chat (docs/product.md §3 Chat state; §4 Unread, Removing a chat; §6 free members; §7 chats.php, chat.php).
 * Every call is for members only (403 authentication_required otherwise) and answers ApiError on failure.
 *
 *   GET    /api/chats.php              ChatsQuery -> ChatsResponse: the member's conversations, newest first, paged
 *                                      (chatsPageSize); with `conversation` or `member` also `open`: that conversation's
 *                                      latest messages (as GET /api/chat.php answers), so a chat page costs one call.
 *   GET    /api/chat.php               ChatQuery -> ChatResponse: one conversation, by id or by member, 50 messages a page
 *                                      (`before` pages back by message id). By member with no conversation yet: conversation
 *                                      null and no messages (nothing is created before the first message).
 *   POST   /api/message.php            SendMessageRequest -> SendMessageResponse: sends to a member, charging message_credits.
 *                                      The same `key` twice stores one message and charges once (the second answers the
 *                                      first message, `repeated: true`).
 *   POST   /api/chat-read.php          MarkReadRequest -> MarkReadResponse: the member read the conversation (its unread
 *                                      count becomes 0). An explicit call: opening a page that was only prefetched reads nothing.
 *   DELETE /api/chat.php               DeleteChatRequest (body) -> { ok: true }: hides the conversation for this member only;
 *                                      a later message from the other member brings it back with only what came after.
 *
 * 404 not_found: an unknown conversation, another member's, one this member deleted (until a new message), an unknown,
 *   disabled, deleted or other site's member, oneself, a member this member blocked.
 * 403 blocked_by_member {name}: the other member blocked this one (docs/product.md §8 'You're blocked by {name}...').
 * 402 not_enough_credits: fewer credits than message_credits; nothing stored, nothing charged.
 * 403 premium_required: a free member (never bought credits) starting a third conversation (docs/product.md §6).
 * 409 recipient_unconfirmed {name}: the other member has not confirmed their e-mail address, so cannot be replied to yet.
 * 400 validation_failed: an empty message, one over the site's message_length, control characters, wrong types.
 */

export const chatsPageSize = 20;
export const messagesPageSize = 50;

/** The longest message any site may allow; each site's own limit is settings.message_length. */
export const messageBodyCap = 5000;

export const ChatProfile = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The thumbnail's filename (prefix it with settings.cdn_prefix), null without an active photo. */
  thumbnail: z.string().nullable(),
  /** A site-run (fictional) profile. */
  fictional: z.boolean(),
});
export type ChatProfile = z.infer<typeof ChatProfile>;

export const MessageKind = z.enum(["text", "icebreaker", "gif", "gift", "image"]);

/**
 * What a gift, GIF or image message shows, all served by this site: a gift's picture (/gifts/{id}.svg),
 * a GIF through GET /api/gif.php, an image through GET /api/chat-image.php (the two members only).
 * `ref` is the gift's id (its name is chat:gifts.{ref}) or the GIF's id; "" for images.
 */
export const MessageMedia = z.object({
  url: z.string(),
  thumb_url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  ref: z.string(),
});
export type MessageMedia = z.infer<typeof MessageMedia>;

export const ChatMessage = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  /** The sender's profile id. */
  sender: z.number().int(),
  kind: MessageKind,
  /** The text of text and icebreaker messages; "" for gift, gif and image messages (see media). */
  body: z.string(),
  media: MessageMedia.nullable(),
  /** Credits the sender paid (shown to the sender only; 0 for the other member). */
  credits: z.number().int(),
  created_at: z.string(),
  /**
   * Only on the sender's own message that the site's contact filter held for a moderator ("held": not delivered yet)
   * or that a moderator refused ("rejected": never delivered, its credits given back). docs/staff.md.
   */
  moderation: z.enum(["held", "rejected"]).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const Conversation = z.object({
  id: z.number().int(),
  /** Latest messages, oldest first (in the list: the latest one). */
  messages: z.array(ChatMessage),
  /** Unread messages of this member in this conversation. */
  unread_count: z.number().int(),
  /** The last message of this member's the other member has read (0: none), for "read" marks. */
  other_read_through: z.number().int(),
  last_message_at: z.string().nullable(),
});
export type Conversation = z.infer<typeof Conversation>;

export const ChatListEntry = z.object({ conversation: Conversation, profile: ChatProfile, num_unread_messages: z.number().int() });
export type ChatListEntry = z.infer<typeof ChatListEntry>;

/**
 * Whether this member may write in the conversation now, and if not why: the other member blocked them,
 * or has not confirmed their e-mail address (docs/product.md §4 Signup), or is gone.
 */
export const ComposerState = z.enum(["open", "blocked_by_member", "recipient_unconfirmed", "unavailable"]);

export const ChatResponse = z.object({
  conversation: Conversation.nullable(),
  profile: ChatProfile,
  composer: ComposerState,
  /** More messages before the first one in `conversation.messages`. */
  has_earlier: z.boolean(),
  /** What one message costs this member, and their balance. */
  message_credits: z.number().int(),
  /** What a gift and an image message cost (GIFs and icebreakers cost message_credits). */
  gift_credits: z.number().int(),
  photo_credits: z.number().int(),
  credits: z.number().int(),
  message_length: z.number().int(),
  /** docs/product.md §3 minimum_message_costs: the least one message costs in money in the member's country (null: the site sets none there). */
  minimum_message_cost: z.object({ costs: z.number(), currency: z.string() }).nullable().default(null),
  me: UserResponse.optional(),
});
export type ChatResponse = z.infer<typeof ChatResponse>;

export const ChatsResponse = z.object({
  chats: z.array(ChatListEntry),
  /** docs/product.md §3 total unread messages, up to badgeCountCap (contract/user.ts: that many or more). */
  num_unread_messages: z.number().int().min(0).max(badgeCountCap),
  page: z.number().int(),
  has_more: z.boolean(),
  open: ChatResponse.omit({ me: true }).nullable(),
  me: UserResponse.optional(),
});
export type ChatsResponse = z.infer<typeof ChatsResponse>;

const withUser = z.literal("1").optional();

/** GET /api/chat.php: a conversation by id, or by member; `before` a message id to page back from. */
export const ChatQuery = z
  .object({ conversation: queryId.optional(), member: queryId.optional(), before: queryId.optional(), with_user: withUser })
  .refine((q) => (q.conversation === undefined) !== (q.member === undefined), { message: "give either conversation or member", path: ["conversation"] });
export type ChatQuery = z.infer<typeof ChatQuery>;

/** GET /api/chats.php */
export const ChatsQuery = z
  .object({ page: wholeNumber(1, 1000).optional(), conversation: queryId.optional(), member: queryId.optional(), before: queryId.optional(), with_user: withUser })
  .refine((q) => q.conversation === undefined || q.member === undefined, { message: "give conversation or member, not both", path: ["conversation"] });
export type ChatsQuery = z.infer<typeof ChatsQuery>;

/** An idempotency key: what a form or a retry carries so one message is stored once (a UUID or similar token). */
export const IdempotencyKey = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be a token of 8 to 64 letters, digits, - or _");

/**
 * POST /api/message.php. `kind` (default text): text and icebreaker send `body` as the text; gift sends the gift's
 * id as `body` (gift_credits), gif the GIF's id (message_credits). An unknown gift or GIF id: 400 validation_failed.
 * Image messages are sent by POST /api/chat-image.php (multipart).
 */
export const SendMessageRequest = z.object({
  /** The recipient's profile id. */
  to: id,
  kind: z.enum(["text", "icebreaker", "gift", "gif"]).optional(),
  body: text(messageBodyCap, { trim: true, min: 1, multiline: true }),
  key: IdempotencyKey,
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

export const SendMessageResponse = z.object({
  message: ChatMessage,
  /** The sender's balance after the message. */
  credits: z.number().int(),
  /** The same key was sent before: nothing new was stored or charged. */
  repeated: z.boolean(),
});
export type SendMessageResponse = z.infer<typeof SendMessageResponse>;

/** POST /api/chat-read.php; `with_user` answers the member's counts after reading. */
export const MarkReadRequest = z.object({ conversation: id, with_user: z.literal(1).optional() });
export const MarkReadResponse = z.object({ num_unread_messages: z.number().int().min(0).max(badgeCountCap), me: UserResponse.optional() });

/** DELETE /api/chat.php, docs/product.md §7 "body: conversation (id)". */
export const DeleteChatRequest = z.object({ conversation: id });
export const DeleteChatResponse = z.object({ ok: z.literal(true) });

/** A gift id as a form sends it (POST /api/message.php kind gift checks it the same way). */
export const GiftChoice = z.enum(giftIds);

/** GET /api/gifs.php?q=&locale=: GIFs matching the words, in English and in the locale's language. */
export const GifsQuery = z.object({
  q: text(gifQueryMax, { trim: true, min: 1 }),
  locale: z.enum(locales).optional(),
});
export type GifsQuery = z.infer<typeof GifsQuery>;

export const GifResult = z.object({ id: z.string(), url: z.string(), thumb_url: z.string(), width: z.number().int(), height: z.number().int(), label: z.string() });
export type GifResult = z.infer<typeof GifResult>;
export const GifsResponse = z.object({ gifs: z.array(GifResult), message_credits: z.number().int() });
export type GifsResponse = z.infer<typeof GifsResponse>;

/** GET /api/gif.php?id=: the GIF's file (catalogue, or the provider's media fetched once and cached). */
export const GifQuery = z.object({ id: z.string().regex(gifIdPattern, "must be a GIF id"), size: z.enum(["full", "thumb"]).optional() });

/** GET /api/chat-image.php?message=&size=: an image message's file, for the two members of its conversation only (404 otherwise). */
export const ChatImageQuery = z.object({ message: queryId, size: z.enum(["full", "thumb"]).optional() });

/** POST /api/chat-image.php (multipart: to, key, photo) answers SendMessageResponse. */
export const ChatImageFields = z.object({ to: queryId, key: IdempotencyKey });
