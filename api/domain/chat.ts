import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import type { Bindable } from "../db/prepared";
import { blocks, conversationMembers, conversations, messages, photos, profiles, users } from "../db/schema";
import { chatsPageSize, messagesPageSize, type ChatListEntry, type ChatMessage, type ChatProfile, type ChatResponse, type ChatsResponse, type Conversation } from "#contract/chat";
import { badgeCountCap } from "#contract/user";
import { listableTo } from "./visibility";
import { emitEvents, emitEventsNow } from "../events/emit";
import { announcerFor } from "../events/announce";
import type { Site } from "./sites";
import { toChatMessage } from "./chat-media";
import { countMessageSent } from "../metrics";
import { sqlState } from "./accounts/tokens";
import { findContactDetails, maskContactDetails } from "./contact-filter";
import { visibleLocales } from "#contract/locales";

/** The languages a site's members write in: its domain's, and those of the countries it serves. */
export function siteLanguages(site: Pick<Site, "countries" | "domainLanguage">): string[] {
  return [...new Set([...(site.domainLanguage ? [site.domainLanguage.slice(0, 2)] : []), ...site.countries.flatMap((country) => visibleLocales(country))])];
}

/*
 * Chat (docs/product.md §3 Chat state, §4 Unread and Removing a chat, §6 free members): conversations between
 * two profiles, each member's side of one, and messages that cost their sender credits.
 *
 * Credits move only inside the send's transaction, which starts with the conditional update of the
 * sender's balance (`credits >= cost`): that update also locks the sender's row, so one member's sends
 * are serialised and the idempotency check and the free-member count that follow it are exact.
 */

type MessageRow = typeof messages.$inferSelect;
type Pair = { low: number; high: number };

export const pairOf = (a: number, b: number): Pair => (a < b ? { low: a, high: b } : { low: b, high: a });

/** docs/product.md §6: a free member (never bought credits) may start this many conversations. */
export const freeConversationStarts = 2;

/**
 * The thumbnail of the `profiles` row in the query: its first active photo's. Written with qualified names:
 * drizzle leaves out table names when a query has one table, which would bind the inner `id` to photos.
 */
const thumbnailColumn = sql<string | null>`(select th.thumb_filename from ${photos} th where th.profile_id = "profiles"."id" and th.status = 'active' order by th.position, th.id limit 1)`;

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

const toMessage = toChatMessage;

/** Sends of a member that change nothing, and why; a sent message otherwise. */
export type SendOutcome =
  | { kind: "sent"; message: ChatMessage; credits: number; repeated: boolean }
  | { kind: "not_found" }
  | { kind: "blocked_by_member"; name: string }
  | { kind: "recipient_unconfirmed"; name: string }
  | { kind: "too_long"; max: number }
  | { kind: "not_enough_credits"; credits: number }
  | { kind: "premium_required" };

type Recipient = {
  profileId: number;
  name: string;
  profileStatus: "active" | "disabled";
  userStatus: string;
  /** Who blocked whom between the two: the viewer's own block counts as the other being gone. */
  block: "none" | "by_viewer" | "by_other";
};

/** The member at `profileId` on the site as `viewerProfileId` may write to them, and the pair's blocks, in one query; null when there is none. */
async function recipientOf(db: Db, siteId: number, viewerProfileId: number, profileId: number): Promise<Recipient | null> {
  if (profileId === viewerProfileId) return null;
  const [row] = await db
    .select({
      profileId: profiles.id,
      name: profiles.name,
      profileStatus: profiles.status,
      userStatus: users.status,
      byViewer: sql<boolean>`exists(select 1 from ${blocks} where ${blocks.blockerProfileId} = ${viewerProfileId} and ${blocks.blockedProfileId} = ${profiles.id})`,
      byOther: sql<boolean>`exists(select 1 from ${blocks} where ${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${viewerProfileId})`,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.id, profileId), eq(profiles.siteId, siteId)))
    .limit(1);
  if (!row) return null;
  const block = row.byViewer ? "by_viewer" : row.byOther ? "by_other" : "none";
  return { profileId: row.profileId, name: row.name, profileStatus: row.profileStatus, userStatus: row.userStatus, block };
}

/** Why a member cannot write to `recipient` now, or null when they can. A send checks the same in SQL (send_message, api/db/functions/send_message.sql); tests/api/chat.test.ts checks that the two agree. */
function composerBlock(recipient: Recipient): "recipient_unconfirmed" | "unavailable" | null {
  // docs/product.md §4 Signup: an unconfirmed member (whose profile is disabled until then) cannot be replied to yet.
  if (recipient.userStatus === "not_confirmed") return "recipient_unconfirmed";
  if (recipient.userStatus !== "active" || recipient.profileStatus !== "active") return "unavailable";
  return null;
}

/** What a message of each kind costs on the site: gifts gift_credits, images photo_credits, the rest message_credits. */
export function messageCost(site: Pick<Site, "messageCredits" | "giftCredits" | "photoCredits">, kind: MessageRow["kind"]): number {
  const credits = kind === "gift" ? site.giftCredits : kind === "image" ? site.photoCredits : site.messageCredits;
  return Math.max(0, credits);
}

const ledgerReason = { text: "message", icebreaker: "message", gif: "message", gift: "gift", image: "photo" } as const;

/**
 * `sender` sends `body` to the member at `to`, paying what its kind costs (messageCost): the message, both sides
 * of the conversation and the ledger entry are written in one transaction with the conditional charge.
 * A `key` sent before answers that first message again (repeated) and charges nothing.
 */
export async function sendMessage(
  db: Db,
  site: Pick<Site, "id" | "messageCredits" | "giftCredits" | "photoCredits" | "messageLength" | "contactFilter" | "countries" | "domainLanguage">,
  sender: { userId: number; profileId: number },
  input: { to: number; body: string; key: string; kind?: MessageRow["kind"] },
  /**
   * free: a site-run profile's answer sent by an operator (docs/staff.md, the operator inbox) costs nobody anything;
   * onSent runs inside the send's transaction with the new message (the operator's record of it).
   */
  options: { free?: boolean; onSent?: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0], message: MessageRow) => Promise<void> } = {},
): Promise<SendOutcome> {
  const kind = input.kind ?? "text";
  // Gift, GIF and image bodies are references the api wrote (chat-media.ts), not the member's text.
  const tooLong = (kind === "text" || kind === "icebreaker") && input.body.length > site.messageLength;
  const cost = options.free ? 0 : messageCost(site, kind);
  // docs/staff.md, contact details in chat: a member's text with contact details is masked or held, as the site says;
  // an operator's answer (free) is never filtered. Masked or held, it is paid like any message.
  const filter = options.free || kind !== "text" ? "off" : site.contactFilter;
  const spans = filter === "off" ? [] : findContactDetails(input.body, siteLanguages(site));
  const body = spans.length && filter === "mask" ? maskContactDetails(input.body, spans) : input.body;
  const hold = spans.length > 0 && filter === "hold";
  // The send is one statement, the SQL function send_message (ADR 020; api/db/functions/send_message.sql).
  // It first checks the recipient as recipientOf and composerBlock do for an open chat (a member of the site, no
  // block either way, confirmed and active), then tooLong, and answers a refusal before writing anything. Then the
  // charge comes first and locks the sender's row, so their sends are serialised from there on; the conversation's
  // upsert locks its row, so two members writing to each other take turns. With onSent the call runs in a
  // transaction of its own that onSent's writes join. The events it writes are announced after the commit.
  const call = (runner: Pick<Db, "execute">) =>
    runner.execute(sql`select * from send_message(${site.id}::int, ${sender.userId}::int, ${sender.profileId}::int, ${input.to}::int,
      ${kind}::text, ${body}::text, ${cost}::int, ${input.key}::text, ${ledgerReason[kind]}::text, ${freeConversationStarts}::int, ${tooLong}::boolean, ${hold}::boolean)`);
  const onSent = options.onSent;
  try {
    const sent = onSent
      ? await db.transaction(async (tx) => {
          const row = sendRow(await call(tx));
          if (row.r_outcome === "sent") await onSent(tx, sentRow(row, sender.profileId, kind, body, cost, input.key));
          return row;
        })
      : sendRow(await call(db));
    switch (sent.r_outcome) {
      case "sent":
      case "held": {
        // Committed: its events are announced now (api/events/announce.ts).
        announcerFor(db).announce(sent.r_announce, sent.r_pushed === true);
        countMessageSent(kind, cost, ledgerReason[kind]);
        const message = { ...sentRow(sent, sender.profileId, kind, body, cost, input.key), moderation: sent.r_outcome === "held" ? ("held" as const) : null };
        return { kind: "sent", message: toMessage(message, sender.profileId), credits: Number(sent.r_credits), repeated: false };
      }
      case "not_found":
      case "premium_required":
        return { kind: sent.r_outcome };
      case "blocked_by_member":
      case "recipient_unconfirmed":
        return { kind: sent.r_outcome, name: sent.r_name ?? "" };
      case "too_long":
        return { kind: "too_long", max: site.messageLength };
      case "not_enough_credits":
        return { kind: "not_enough_credits", credits: Number(sent.r_credits ?? 0) };
      case "repeated":
        // The charge failed, but a message with this key exists: a resend of a message that took the last
        // credits is still that message, not a refusal.
        return await repeatedSend(db, sender, input.key, null);
      default:
        throw new Error(`send_message answered ${String(sent.r_outcome)}`);
    }
  } catch (error) {
    const state = sqlState(error);
    if (state === "RV002") return { kind: "premium_required" };
    // 23505: the key was used before (send_message's insert of the message, api/db/functions/send_message.sql, also
    // when two sends with one key run at once; before migration 0028 the function raised RV001). The send is undone,
    // the first message stands, and is the answer.
    if (state === "23505") return await repeatedSend(db, sender, input.key, error);
    throw error;
  }
}

/** The answer to a key sent before: its first message, and the balance now; `error` is rethrown when there is none. */
async function repeatedSend(db: Db, sender: { userId: number; profileId: number }, key: string, error: unknown): Promise<SendOutcome> {
  const earlier = await messageByKey(db, sender.profileId, key);
  if (!earlier) throw error ?? new Error("send_message answered repeated without a message");
  return { kind: "sent", message: toMessage(earlier, sender.profileId), credits: await balanceOf(db, sender.userId), repeated: true };
}

/** send_message's answer (one row). */
type SendRow = {
  r_outcome: string;
  r_credits: number | null;
  r_message_id: number | null;
  r_conversation_id: number | null;
  r_created_ms: number | null;
  /** The recipient's name, with the refusals that show it. */
  r_name: string | null;
  /** A sent message's events, to announce after the commit ("event id:profile id" pairs), and whether a push was queued. */
  r_announce: string | null;
  r_pushed: boolean | null;
};

function sendRow(result: unknown): SendRow {
  const row = (result as { rows: SendRow[] }).rows[0];
  if (!row) throw new Error("send_message answered no row");
  return row;
}

/** The messages row send_message stored, from what was sent and the ids and time it answered. */
function sentRow(row: SendRow, senderProfileId: number, kind: MessageRow["kind"], body: string, credits: number, key: string): MessageRow {
  if (row.r_message_id == null || row.r_conversation_id == null || row.r_created_ms == null) throw new Error("send_message sent a message without its id");
  return {
    id: Number(row.r_message_id),
    conversationId: Number(row.r_conversation_id),
    senderProfileId,
    kind,
    body,
    credits,
    idempotencyKey: key,
    createdAt: new Date(Number(row.r_created_ms)),
    moderation: null,
  };
}

async function messageByKey(db: Pick<Db, "select">, senderProfileId: number, key: string): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.senderProfileId, senderProfileId), eq(messages.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

async function balanceOf(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return row?.credits ?? 0;
}

const other = alias(conversationMembers, "other_side");

/** Conditions on the member's side `conversationMembers` (and the other profile `profiles`) for a conversation shown to them. */
function shownSide(siteId: Bindable<number>, profileId: Bindable<number>) {
  return and(
    eq(conversationMembers.profileId, profileId),
    sql`${conversationMembers.deletedAt} is null`,
    gt(conversationMembers.lastMessageId, conversationMembers.hiddenThroughId),
    eq(profiles.siteId, siteId),
    // docs/product.md §4: invisible members are hidden from messages as from search and likes; blocked pairs have no conversations.
    listableTo(profileId),
  );
}

/**
 * docs/product.md §3 total unread messages, as a subquery for the member's counts (loadMe): up to badgeCountCap
 * (contract/user.ts), which stands for that many or more. It reads the member's conversations with unread messages
 * only (conversation_members_unread_idx), at most badgeCountCap of them, each counting at least one.
 */
export function unreadTotalQuery(db: Db, siteId: Bindable<number>, profileId: Bindable<number>) {
  const unread = db
    .select({ n: conversationMembers.unreadCount })
    .from(conversationMembers)
    .innerJoin(profiles, eq(profiles.id, conversationMembers.otherProfileId))
    .where(and(shownSide(siteId, profileId), gt(conversationMembers.unreadCount, 0)))
    .limit(badgeCountCap)
    .as("unread");
  return db.select({ n: sql<number>`least(coalesce(sum(${unread.n}), 0), ${sql.raw(String(badgeCountCap))})::int` }).from(unread);
}

export async function unreadTotal(db: Db, siteId: number, profileId: number): Promise<number> {
  const [row] = await unreadTotalQuery(db, siteId, profileId);
  return Number(row?.n ?? 0);
}

function chatProfile(row: { id: number; name: string; fictional: boolean; thumbnail: string | null }): ChatProfile {
  return { id: row.id, name: row.name, fictional: row.fictional, thumbnail: row.thumbnail };
}

/** GET /api/chats.php: the member's conversations by latest message, `chatsPageSize` a page. */
export async function chatList(db: Db, siteId: number, profileId: number, page: number): Promise<Omit<ChatsResponse, "open" | "me">> {
  const rows = await db
    .select({
      side: conversationMembers,
      otherReadThrough: other.lastReadMessageId,
      profile: { id: profiles.id, name: profiles.name, fictional: profiles.fictional, thumbnail: thumbnailColumn },
      message: messages,
    })
    .from(conversationMembers)
    .innerJoin(profiles, eq(profiles.id, conversationMembers.otherProfileId))
    .innerJoin(messages, eq(messages.id, conversationMembers.lastMessageId))
    .leftJoin(other, and(eq(other.conversationId, conversationMembers.conversationId), eq(other.profileId, conversationMembers.otherProfileId)))
    .where(shownSide(siteId, profileId))
    .orderBy(desc(conversationMembers.lastMessageId))
    .limit(chatsPageSize + 1)
    .offset((page - 1) * chatsPageSize);
  const chats: ChatListEntry[] = rows.slice(0, chatsPageSize).map((r) => ({
    conversation: {
      id: r.side.conversationId,
      messages: [toMessage(r.message, profileId)],
      unread_count: r.side.unreadCount,
      other_read_through: r.otherReadThrough ?? 0,
      last_message_at: iso(r.message.createdAt),
    },
    profile: chatProfile(r.profile),
    num_unread_messages: r.side.unreadCount,
  }));
  return { chats, num_unread_messages: await unreadTotal(db, siteId, profileId), page, has_more: rows.length > chatsPageSize };
}

export type OpenChatOutcome = { kind: "found"; chat: Omit<ChatResponse, "me"> } | { kind: "not_found" } | { kind: "blocked_by_member"; name: string };

/**
 * One conversation for GET /api/chat.php: by its id (the member's own, not deleted by them), or by the
 * other member (null conversation until the first message). Messages after what the member removed,
 * `messagesPageSize` at a time, before `before` when given.
 */
export async function openChat(
  db: Db,
  site: Pick<Site, "id" | "messageCredits" | "giftCredits" | "photoCredits" | "messageLength" | "minimumMessageCosts">,
  me: { userId: number; profileId: number },
  target: { conversation: number } | { member: number },
  before?: number,
): Promise<OpenChatOutcome> {
  let otherProfileId: number;
  let side: typeof conversationMembers.$inferSelect | null = null;
  if ("conversation" in target) {
    const [row] = await db
      .select()
      .from(conversationMembers)
      .where(and(eq(conversationMembers.conversationId, target.conversation), eq(conversationMembers.profileId, me.profileId), sql`${conversationMembers.deletedAt} is null`))
      .limit(1);
    if (!row) return { kind: "not_found" };
    side = row;
    otherProfileId = row.otherProfileId;
  } else {
    otherProfileId = target.member;
  }

  const recipient = await recipientOf(db, site.id, me.profileId, otherProfileId);
  if (!recipient || recipient.block === "by_viewer") return { kind: "not_found" };
  if (recipient.block === "by_other") return { kind: "blocked_by_member", name: recipient.name };
  const [profile] = await db
    .select({ id: profiles.id, name: profiles.name, fictional: profiles.fictional, thumbnail: thumbnailColumn, invisible: profiles.invisible })
    .from(profiles)
    .where(eq(profiles.id, otherProfileId));
  if (!profile) return { kind: "not_found" };

  if (!side && "member" in target) {
    const pair = pairOf(me.profileId, otherProfileId);
    const [row] = await db
      .select({ side: conversationMembers })
      .from(conversations)
      .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, conversations.id), eq(conversationMembers.profileId, me.profileId)))
      .where(and(eq(conversations.lowProfileId, pair.low), eq(conversations.highProfileId, pair.high), sql`${conversationMembers.deletedAt} is null`))
      .limit(1);
    side = row?.side ?? null;
  }
  const closed = composerBlock(recipient);
  // By member with no conversation: invisible, disabled and deleted members are not there to write to.
  // A conversation that exists stays readable (by id and by member), its composer closed.
  if (!side && (profile.invisible || closed === "unavailable")) return { kind: "not_found" };

  const [balance] = await db.select({ credits: users.credits, country: profiles.country }).from(users).innerJoin(profiles, eq(profiles.id, me.profileId)).where(eq(users.id, me.userId));
  const base = {
    profile: chatProfile(profile),
    composer: closed ?? ("open" as const),
    message_credits: site.messageCredits,
    gift_credits: site.giftCredits,
    photo_credits: site.photoCredits,
    credits: balance?.credits ?? 0,
    message_length: site.messageLength,
    // docs/product.md §3 minimum_message_costs: the least a message costs in money in the member's country, shown with its price in credits.
    minimum_message_cost: (balance?.country ? site.minimumMessageCosts[balance.country] : undefined) ?? null,
  };
  if (!side) return { kind: "found", chat: { ...base, conversation: null, has_earlier: false } };

  // Held and rejected messages show to their sender only (docs/staff.md, contact details in chat).
  const conditions = [eq(messages.conversationId, side.conversationId), gt(messages.id, side.hiddenThroughId), or(isNull(messages.moderation), eq(messages.senderProfileId, me.profileId))];
  if (before !== undefined) conditions.push(lt(messages.id, before));
  const rows = await db
    .select()
    .from(messages)
    .where(and(...conditions))
    .orderBy(desc(messages.id))
    .limit(messagesPageSize + 1);
  const [otherSide] = await db
    .select({ readThrough: conversationMembers.lastReadMessageId })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.conversationId, side.conversationId), eq(conversationMembers.profileId, otherProfileId)));
  const page = rows.slice(0, messagesPageSize).reverse();
  const conversation: Conversation = {
    id: side.conversationId,
    messages: page.map((m) => toMessage(m, me.profileId)),
    unread_count: side.unreadCount,
    other_read_through: otherSide?.readThrough ?? 0,
    last_message_at: rows[0] ? iso(rows[0].createdAt) : null,
  };
  return { kind: "found", chat: { ...base, conversation, has_earlier: rows.length > messagesPageSize } };
}

/** docs/product.md §4 Unread: the member read the conversation; false when it is not theirs (or deleted by them). */
export async function markRead(db: Db, profileId: number, conversationId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(conversationMembers)
      .set({ unreadCount: 0, lastReadMessageId: sql`greatest(${conversationMembers.lastReadMessageId}, ${conversationMembers.lastMessageId})` })
      .where(and(eq(conversationMembers.conversationId, conversationId), eq(conversationMembers.profileId, profileId), sql`${conversationMembers.deletedAt} is null`))
      .returning({ other: conversationMembers.otherProfileId, through: conversationMembers.lastReadMessageId });
    if (!updated) return false;
    // The other member sees their messages as read; this member's other tabs update their counts.
    await emitEvents(tx, [
      { profileId: updated.other, kind: "read", fromProfileId: profileId, conversationId, messageId: updated.through },
      { profileId, kind: "counts" },
    ]);
    return true;
  });
}

/**
 * docs/product.md §4 Removing a chat: hidden for this member only, with everything in it so far; a later message from
 * the other member brings the conversation back showing only what came after. False when not theirs.
 */
export async function deleteChat(db: Db, profileId: number, conversationId: number): Promise<boolean> {
  const updated = await db
    .update(conversationMembers)
    .set({
      deletedAt: new Date(),
      hiddenThroughId: conversationMembers.lastMessageId,
      unreadCount: 0,
      lastReadMessageId: sql`greatest(${conversationMembers.lastReadMessageId}, ${conversationMembers.lastMessageId})`,
    })
    .where(and(eq(conversationMembers.conversationId, conversationId), eq(conversationMembers.profileId, profileId), sql`${conversationMembers.deletedAt} is null`))
    .returning({ id: conversationMembers.conversationId });
  if (updated.length === 0) return false;
  await emitEventsNow(db, [{ profileId, kind: "counts" }]);
  return true;
}

/**
 * docs/product.md §4 "A blocked user loses chats and likes": the pair's conversation goes, for both, with its messages.
 * A message still held for a moderator (contact details, docs/staff.md) was paid but never delivered: its sender gets
 * its credits back first, with a ledger entry each, as a moderator's rejection gives them (api/domain/staff/held-messages.ts).
 */
export async function removeConversationsBetween(db: Pick<Db, "delete" | "execute">, a: number, b: number): Promise<void> {
  const pair = pairOf(a, b);
  await db.execute(sql`
    with held as (
      select m.id, m.credits, p.user_id
        from ${messages} m join ${conversations} c on c.id = m.conversation_id join ${profiles} p on p.id = m.sender_profile_id
       where c.low_profile_id = ${pair.low} and c.high_profile_id = ${pair.high} and m.moderation = 'held' and m.credits > 0
    ), refunded as (
      update ${users} u set credits = u.credits + h.total
        from (select user_id, sum(credits)::int as total from held group by user_id) h
       where u.id = h.user_id
      returning u.id, u.credits
    )
    insert into credit_ledger (user_id, delta, balance_after, reason, reference)
    select h.user_id, h.credits,
           r.credits - coalesce(sum(h.credits) over (partition by h.user_id order by h.id desc rows between unbounded preceding and 1 preceding), 0),
           'message', 'message:' || h.id
      from held h join refunded r on r.id = h.user_id
     order by h.id`);
  await db.delete(conversations).where(and(eq(conversations.lowProfileId, pair.low), eq(conversations.highProfileId, pair.high)));
}
