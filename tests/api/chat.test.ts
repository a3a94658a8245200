import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { ChatResponse, ChatsResponse, MarkReadResponse, SendMessageResponse, chatsPageSize, messageBodyCap, messagesPageSize } from "#contract/chat";
import { Settings } from "#contract/settings";
import { UserResponse } from "#contract/user";
import { conversationMembers, conversations, creditLedger, messages, profiles, sites, users } from "../../api/db/schema";
import { createSession } from "../../api/domain/sessions";
import { clearSiteCache } from "../../api/domain/sites";
import { call, cookieHeader, expectApiError, insertMember, startApi, testSessionSecret, type Harness } from "./harness";

/**
 * Chat, the api over HTTP: send, list, open, unread and mark-read, delete, credits, idempotency
 * keys, free members' two conversations, the rules (blocks, invisible, unconfirmed, gone members, other
 * sites) and bad input. The 1,000-sends exactness test is in chat-concurrency.test.ts.
 *
 * Members are inserted straight into the database with a session (no password hashing): the calls under
 * test all go over HTTP.
 */
let api: Harness;
/** settings.php message_credits and message_length of the default site. */
let cost: number;
let maxLength: number;

/** A site whose messages are free (message_credits 0), set up in beforeAll. */
const freeSite = "she.localhost";

type Member = { userId: number; profileId: number; name: string; token: string; host: string };
type MemberOptions = { credits?: number; paid?: boolean; host?: string; status?: "not_confirmed" | "active" | "deleted" };

let counter = 0;

/** A member with a session; credits come with their ledger row, as signup and purchases write them. */
async function newMember(options: MemberOptions = {}): Promise<Member> {
  const host = options.host ?? "localhost";
  const inserted = await insertMember(api, { passwordHash: "not-used", host, status: options.status });
  const name = `Chatter${++counter}`;
  await api.db.update(profiles).set({ name }).where(eq(profiles.id, inserted.profileId));
  const credits = options.credits ?? 0;
  const paid = options.paid ?? false;
  await api.db.update(users).set({ credits, paidUser: paid }).where(eq(users.id, inserted.userId));
  if (credits) await api.db.insert(creditLedger).values({ userId: inserted.userId, delta: credits, balanceAfter: credits, reason: paid ? "purchase" : "signup", reference: "chat-test" });
  const token = await createSession(api.db, inserted.userId, testSessionSecret);
  return { userId: inserted.userId, profileId: inserted.profileId, name, token, host };
}

const newKey = () => randomBytes(12).toString("base64url");

function send(from: Member, to: number | unknown, body: unknown = "Hello there", key: unknown = newKey()): Promise<Response> {
  return call(api, "POST", "/api/message.php", { token: from.token, host: from.host, body: { to, body, key } });
}

/** A send that must succeed (201, a new message). */
async function sent(from: Member, to: Member, body = "Hello there", key = newKey()): Promise<SendMessageResponse> {
  const res = await send(from, to.profileId, body, key);
  expect(res.status, await res.clone().text()).toBe(201);
  const answer = SendMessageResponse.parse(await res.json());
  expect(answer.repeated).toBe(false);
  return answer;
}

async function chats(who: Member, query = ""): Promise<ChatsResponse> {
  const res = await call(api, "GET", `/api/chats.php${query}`, { token: who.token, host: who.host });
  expect(res.status, await res.clone().text()).toBe(200);
  return ChatsResponse.parse(await res.json());
}

const openRaw = (who: Member, query: string) => call(api, "GET", `/api/chat.php${query}`, { token: who.token, host: who.host });

async function open(who: Member, query: string): Promise<ChatResponse> {
  const res = await openRaw(who, query);
  expect(res.status, await res.clone().text()).toBe(200);
  return ChatResponse.parse(await res.json());
}

/** A body JSON.stringify cannot write (malformed JSON), as a client may send it. */
const rawBody = (who: Member, method: string, path: string, body: string) =>
  fetch(`${api.baseUrl}${path}`, { method, headers: { "Content-Type": "application/json", "X-Forwarded-Host": who.host, Cookie: cookieHeader(who.token) }, body });

const markRead = (who: Member, body: unknown) => call(api, "POST", "/api/chat-read.php", { token: who.token, host: who.host, body });
const deleteChat = (who: Member, body: unknown) => call(api, "DELETE", "/api/chat.php", { token: who.token, host: who.host, body });

/** counts.unread_messages of GET /api/user.php. */
async function unreadCount(who: Member): Promise<number | undefined> {
  const res = await call(api, "GET", "/api/user.php", { token: who.token, host: who.host });
  return UserResponse.parse(await res.json()).counts?.unread_messages;
}

/** The other members in a member's chat list, in list order. */
const listed = async (who: Member) => (await chats(who)).chats.map((c) => c.profile.id);

/** What the database holds for a member: balance, ledger sum, messages sent and ledger rows. */
async function account(who: Member) {
  const [row] = await api.db
    .select({
      credits: users.credits,
      ledger: sql<number>`(select coalesce(sum(${creditLedger.delta}), 0)::int from ${creditLedger} where ${creditLedger.userId} = ${who.userId})`,
      ledgerRows: sql<number>`(select count(*)::int from ${creditLedger} where ${creditLedger.userId} = ${who.userId})`,
      sent: sql<number>`(select count(*)::int from ${messages} where ${messages.senderProfileId} = ${who.profileId})`,
    })
    .from(users)
    .where(eq(users.id, who.userId));
  if (!row) throw new Error("no such user");
  return { credits: row.credits, ledger: Number(row.ledger), ledgerRows: Number(row.ledgerRows), sent: Number(row.sent) };
}

/** Runs a refused action and checks it stored and charged nothing for `who`. */
async function changesNothing(who: Member, action: () => Promise<void>): Promise<void> {
  const before = await account(who);
  await action();
  expect(await account(who)).toEqual(before);
}

async function conversationsBetween(a: Member, b: Member): Promise<number> {
  const [low, high] = a.profileId < b.profileId ? [a.profileId, b.profileId] : [b.profileId, a.profileId];
  const rows = await api.db.select({ id: conversations.id }).from(conversations).where(and(eq(conversations.lowProfileId, low), eq(conversations.highProfileId, high)));
  return rows.length;
}

beforeAll(async () => {
  api = await startApi();
  const res = await call(api, "GET", "/api/settings.php");
  const settings = Settings.parse(await res.json());
  cost = settings.message_credits;
  maxLength = settings.message_length;
  expect(cost).toBeGreaterThan(0);
  await api.db.update(sites).set({ messageCredits: 0 }).where(eq(sites.domain, freeSite));
  clearSiteCache();
});

afterAll(async () => {
  await api?.close();
});

describe("chat needs a member", () => {
  it("answers 403 authentication_required to a visitor on all five calls", async () => {
    const target = await newMember();
    await expectApiError(await call(api, "GET", "/api/chats.php"), 403, "authentication_required");
    await expectApiError(await call(api, "GET", `/api/chat.php?member=${target.profileId}`), 403, "authentication_required");
    await expectApiError(await call(api, "POST", "/api/message.php", { body: { to: target.profileId, body: "hi", key: newKey() } }), 403, "authentication_required");
    await expectApiError(await call(api, "POST", "/api/chat-read.php", { body: { conversation: 1 } }), 403, "authentication_required");
    await expectApiError(await call(api, "DELETE", "/api/chat.php", { body: { conversation: 1 } }), 403, "authentication_required");
  });
});

describe("send, list and open", () => {
  it("stores the message, charges the sender message_credits with a ledger row, and shows it to both", async () => {
    const a = await newMember({ credits: 5 * cost, paid: true });
    const b = await newMember();
    const answer = await sent(a, b, "  Hi Bob,\r\nhow are you?\t\n");
    // Trimmed, line breaks and tabs inside kept.
    expect(answer.message).toMatchObject({ sender: a.profileId, kind: "text", body: "Hi Bob,\r\nhow are you?", credits: cost });
    expect(answer.credits).toBe(4 * cost);

    const [stored] = await api.db.select().from(messages).where(eq(messages.id, answer.message.id));
    expect(stored).toMatchObject({ conversationId: answer.message.conversation_id, senderProfileId: a.profileId, body: "Hi Bob,\r\nhow are you?", credits: cost });
    const [entry] = await api.db.select().from(creditLedger).where(and(eq(creditLedger.userId, a.userId), eq(creditLedger.reason, "message")));
    expect(entry).toMatchObject({ delta: -cost, balanceAfter: 4 * cost, reference: `message:${answer.message.id}` });
    expect(await account(a)).toEqual({ credits: 4 * cost, ledger: 4 * cost, ledgerRows: 2, sent: 1 });

    // The recipient's list: the sender's profile and the message, whose price only the sender sees.
    const ofB = await chats(b);
    expect(ofB.chats).toHaveLength(1);
    expect(ofB.chats[0]!.profile).toMatchObject({ id: a.profileId, name: a.name, fictional: false });
    expect(ofB.chats[0]!.conversation.id).toBe(answer.message.conversation_id);
    expect(ofB.chats[0]!.conversation.messages).toEqual([{ ...answer.message, credits: 0 }]);
    expect((await chats(a)).chats[0]!.conversation.messages).toEqual([answer.message]);

    // Opened by id and by member: the same conversation, with the sender's price and balance.
    const byId = await open(a, `?conversation=${answer.message.conversation_id}`);
    expect(byId).toMatchObject({ profile: { id: b.profileId, name: b.name }, composer: "open", has_earlier: false, message_credits: cost, credits: 4 * cost, message_length: maxLength });
    // The demo site's minimum message cost in the member's country (NL), shown with the price in credits.
    expect(byId.minimum_message_cost).toEqual({ costs: 1.99, currency: "EUR" });
    expect(byId.conversation?.messages).toEqual([answer.message]);
    expect(await open(a, `?member=${b.profileId}`)).toEqual(byId);
    // with_user answers the member too.
    expect((await open(a, `?member=${b.profileId}&with_user=1`)).me?.user?.profile.id).toBe(a.profileId);
  });

  it("opens a member without a conversation as conversation null and creates nothing", async () => {
    const a = await newMember({ credits: cost });
    const b = await newMember();
    const chat = await open(a, `?member=${b.profileId}`);
    expect(chat).toEqual({ conversation: null, profile: { id: b.profileId, name: b.name, thumbnail: null, fictional: false }, composer: "open", has_earlier: false, message_credits: cost, gift_credits: expect.any(Number), photo_credits: expect.any(Number), credits: cost, message_length: maxLength, minimum_message_cost: { costs: 1.99, currency: "EUR" } });
    const list = await chats(a, `?member=${b.profileId}`);
    expect(list.open).toEqual(chat);
    expect(list.chats).toEqual([]);
    expect(await conversationsBetween(a, b)).toBe(0);
  });

  it("lists conversations newest first, chatsPageSize a page, and moves one with a new message to the top", async () => {
    const me = await newMember({ credits: cost, paid: true });
    const senders: Member[] = [];
    for (let i = 0; i <= chatsPageSize; i++) {
      const s = await newMember({ credits: cost, paid: true });
      await sent(s, me);
      senders.push(s);
    }
    const newestFirst = senders.map((s) => s.profileId).reverse();
    const page1 = await chats(me);
    expect(page1.chats.map((c) => c.profile.id)).toEqual(newestFirst.slice(0, chatsPageSize));
    expect({ page: page1.page, has_more: page1.has_more, open: page1.open }).toEqual({ page: 1, has_more: true, open: null });
    const page2 = await chats(me, "?page=2");
    expect(page2.chats.map((c) => c.profile.id)).toEqual(newestFirst.slice(chatsPageSize));
    expect({ page: page2.page, has_more: page2.has_more }).toEqual({ page: 2, has_more: false });

    // A reply in the oldest conversation makes it the newest.
    await sent(me, senders[0]!);
    expect((await listed(me)).slice(0, 2)).toEqual([senders[0]!.profileId, senders[chatsPageSize]!.profileId]);
  });

  it("pages a conversation's messages by `before`, messagesPageSize a page, oldest first, also inside chats.php", async () => {
    const a = await newMember({ credits: (messagesPageSize + 2) * cost, paid: true });
    const b = await newMember();
    const ids: number[] = [];
    for (let i = 0; i < messagesPageSize + 2; i++) ids.push((await sent(a, b, `message ${i}`)).message.id);
    const conversationId = (await chats(b)).chats[0]!.conversation.id;

    const latest = await open(b, `?conversation=${conversationId}`);
    expect(latest.conversation!.messages.map((m) => m.id)).toEqual(ids.slice(2));
    expect(latest.has_earlier).toBe(true);
    expect(latest.conversation!.messages.at(-1)!.body).toBe(`message ${messagesPageSize + 1}`);
    const earlier = await open(b, `?conversation=${conversationId}&before=${ids[2]}`);
    expect(earlier.conversation!.messages.map((m) => m.id)).toEqual(ids.slice(0, 2));
    expect(earlier.has_earlier).toBe(false);
    expect((await open(b, `?member=${a.profileId}&before=${ids[1]}`)).conversation!.messages.map((m) => m.id)).toEqual([ids[0]]);

    // chats.php with conversation= or member= embeds the same page as `open`, next to the list.
    const { me: _me, ...asOpen } = latest;
    const byConversation = await chats(b, `?conversation=${conversationId}`);
    expect(byConversation.open).toEqual(asOpen);
    expect(byConversation.chats.map((c) => c.conversation.id)).toEqual([conversationId]);
    expect((await chats(b, `?member=${a.profileId}`)).open).toEqual(asOpen);
    expect((await chats(b, `?conversation=${conversationId}&before=${ids[2]}`)).open?.conversation?.messages.map((m) => m.id)).toEqual(ids.slice(0, 2));
  });
});

describe("unread", () => {
  it("counts the recipient's unread messages, keeps them on GET and clears them on POST /api/chat-read.php only", async () => {
    const a = await newMember({ credits: 3 * cost, paid: true });
    const b = await newMember({ credits: cost });
    await sent(a, b, "one");
    const { message } = await sent(a, b, "two");
    const conversation = message.conversation_id;

    const expectUnread = async (who: Member, n: number) => {
      const list = await chats(who);
      expect({ entry: list.chats[0]!.conversation.unread_count, num: list.chats[0]!.num_unread_messages, total: list.num_unread_messages, counts: await unreadCount(who) }).toEqual({
        entry: n,
        num: n,
        total: n,
        counts: n,
      });
    };
    await expectUnread(b, 2);
    // The sender's own messages never count.
    await expectUnread(a, 0);

    // Opening (a prefetch) reads nothing.
    expect((await open(b, `?conversation=${conversation}`)).conversation!.unread_count).toBe(2);
    await open(b, `?member=${a.profileId}`);
    await chats(b, `?conversation=${conversation}`);
    await expectUnread(b, 2);

    const res = await markRead(b, { conversation, with_user: 1 });
    expect(res.status).toBe(200);
    const read = MarkReadResponse.parse(await res.json());
    expect(read.num_unread_messages).toBe(0);
    expect(read.me?.counts?.unread_messages).toBe(0);
    await expectUnread(b, 0);
    // The sender sees how far the other read.
    expect((await open(a, `?conversation=${conversation}`)).conversation!.other_read_through).toBe(message.id);

    // A reply counts for the first sender only.
    await sent(b, a, "three");
    await expectUnread(a, 1);
    await expectUnread(b, 0);
  });

  it("answers 404 for marking another member's or an unknown conversation read", async () => {
    const a = await newMember({ credits: cost });
    const b = await newMember();
    const c = await newMember();
    const { message } = await sent(a, b);
    await expectApiError(await markRead(c, { conversation: message.conversation_id }), 404, "not_found");
    await expectApiError(await markRead(c, { conversation: 999_999 }), 404, "not_found");
    expect(await unreadCount(b)).toBe(1);
  });
});

describe("DELETE /api/chat.php", () => {
  it("hides the conversation for that member only until the other writes again, showing only the new message", async () => {
    const a = await newMember({ credits: 3 * cost, paid: true });
    const b = await newMember();
    const { message } = await sent(a, b, "before the delete");
    const conversation = message.conversation_id;

    const res = await deleteChat(b, { conversation });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(await listed(b)).toEqual([]);
    expect(await unreadCount(b)).toBe(0);
    expect(await listed(a)).toEqual([b.profileId]);
    await expectApiError(await openRaw(b, `?conversation=${conversation}`), 404, "not_found");
    await expectApiError(await deleteChat(b, { conversation }), 404, "not_found");
    // By member the page is empty, as before a first message.
    expect((await open(b, `?member=${a.profileId}`)).conversation).toBeNull();

    const after = await sent(a, b, "after the delete");
    expect(after.message.conversation_id).toBe(conversation);
    const back = await chats(b);
    expect(back.chats.map((c) => [c.profile.id, c.conversation.unread_count])).toEqual([[a.profileId, 1]]);
    expect((await open(b, `?conversation=${conversation}`)).conversation!.messages.map((m) => m.body)).toEqual(["after the delete"]);
    // The other member kept everything.
    expect((await open(a, `?conversation=${conversation}`)).conversation!.messages.map((m) => m.body)).toEqual(["before the delete", "after the delete"]);
  });

  it("answers 404 for another member's or an unknown conversation and leaves it as it was", async () => {
    const a = await newMember({ credits: cost });
    const b = await newMember();
    const c = await newMember();
    const { message } = await sent(a, b);
    await expectApiError(await deleteChat(c, { conversation: message.conversation_id }), 404, "not_found");
    await expectApiError(await deleteChat(c, { conversation: 999_999 }), 404, "not_found");
    expect(await listed(a)).toEqual([b.profileId]);
    expect(await listed(b)).toEqual([a.profileId]);
  });
});

describe("credits", () => {
  it("answers 402 not_enough_credits below message_credits, storing and charging nothing", async () => {
    const a = await newMember({ credits: cost + cost - 1, paid: true });
    const b = await newMember();
    await sent(a, b);
    await changesNothing(a, async () => {
      const refused = await expectApiError(await send(a, b.profileId), 402, "not_enough_credits");
      expect(refused.params?.credits).toBe(cost - 1);
    });
    expect(await account(a)).toEqual({ credits: cost - 1, ledger: cost - 1, ledgerRows: 2, sent: 1 });
    expect((await open(a, `?member=${b.profileId}`)).conversation!.messages).toHaveLength(1);
  });

  it("sends for free with no ledger row on a site whose message_credits is 0", async () => {
    const a = await newMember({ host: freeSite });
    const b = await newMember({ host: freeSite });
    const answer = await sent(a, b);
    expect({ credits: answer.credits, charged: answer.message.credits }).toEqual({ credits: 0, charged: 0 });
    expect(await account(a)).toEqual({ credits: 0, ledger: 0, ledgerRows: 0, sent: 1 });
    expect((await open(a, `?member=${b.profileId}`)).message_credits).toBe(0);
  });
});

describe("idempotency key", () => {
  it("stores one message and charges once when the same key is sent 10 times in a row", async () => {
    // Credits for one message only: the repeats must not answer not_enough_credits either.
    const a = await newMember({ credits: cost, paid: true });
    const b = await newMember();
    const key = newKey();
    const first = await sent(a, b, "once", key);
    for (let i = 0; i < 9; i++) {
      const res = await send(a, b.profileId, `again ${i}`, key);
      expect(res.status).toBe(200);
      expect(SendMessageResponse.parse(await res.json())).toEqual({ message: first.message, credits: 0, repeated: true });
    }
    expect(await account(a)).toEqual({ credits: 0, ledger: 0, ledgerRows: 2, sent: 1 });
  });

  it("stores one message and charges once when the same key is sent 10 times at once", async () => {
    const a = await newMember({ credits: 10 * cost, paid: true });
    const b = await newMember();
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const res = await send(a, b.profileId, "at once", key);
        return { status: res.status, body: SendMessageResponse.parse(await res.json()) };
      }),
    );
    expect(answers.filter((x) => x.status === 201 && !x.body.repeated)).toHaveLength(1);
    expect(answers.filter((x) => x.status === 200 && x.body.repeated)).toHaveLength(9);
    expect(new Set(answers.map((x) => x.body.message.id)).size).toBe(1);
    expect(await account(a)).toEqual({ credits: 9 * cost, ledger: 9 * cost, ledgerRows: 2, sent: 1 });
  });
});

describe("free members (docs/product.md §6)", () => {
  it("may start two conversations, not a third (403 premium_required, nothing charged); replies do not count", async () => {
    const free = await newMember({ credits: 10 * cost });
    const [x, y, z, w] = [await newMember(), await newMember(), await newMember(), await newMember({ credits: cost })];
    await sent(free, x!);
    await sent(free, y!);
    await changesNothing(free, async () => {
      await expectApiError(await send(free, z!.profileId), 403, "premium_required");
    });
    expect(await conversationsBetween(free, z!)).toBe(0);
    // Writing again where they started is no new start.
    await sent(free, x!);
    // Replying where someone else started does not count.
    await sent(w!, free);
    await sent(free, w!);
    await expectApiError(await send(free, z!.profileId), 403, "premium_required");
  });

  it("lets a paid member start more", async () => {
    const paid = await newMember({ credits: 3 * cost, paid: true });
    for (let i = 0; i < 3; i++) await sent(paid, await newMember());
    expect((await chats(paid)).chats).toHaveLength(3);
  });
});

describe("who can write to whom", () => {
  it("keeps a blocked pair from writing either way and removes their conversation for both", async () => {
    const blocker = await newMember({ credits: 2 * cost, paid: true });
    const blocked = await newMember({ credits: 2 * cost, paid: true });
    await sent(blocked, blocker);
    await sent(blocker, blocked);
    const res = await call(api, "POST", "/api/block.php", { token: blocker.token, body: { id: blocked.profileId } });
    expect(res.status).toBe(200);

    expect(await conversationsBetween(blocker, blocked)).toBe(0);
    for (const who of [blocker, blocked]) {
      const list = await chats(who);
      expect({ chats: list.chats, unread: list.num_unread_messages, counts: await unreadCount(who) }).toEqual({ chats: [], unread: 0, counts: 0 });
    }
    await changesNothing(blocked, async () => {
      const refused = await expectApiError(await send(blocked, blocker.profileId), 403, "blocked_by_member");
      expect(refused.params?.name).toBe(blocker.name);
    });
    await changesNothing(blocker, async () => {
      await expectApiError(await send(blocker, blocked.profileId), 404, "not_found");
    });
    // The blocked member's chat page of the blocker: docs/product.md §8 "You're blocked by {name}".
    const page = await expectApiError(await openRaw(blocked, `?member=${blocker.profileId}`), 403, "blocked_by_member");
    expect(page.params?.name).toBe(blocker.name);
    expect(page.message).toContain(blocker.name);
    await expectApiError(await call(api, "GET", `/api/chats.php?member=${blocker.profileId}`, { token: blocked.token }), 403, "blocked_by_member");
    await expectApiError(await openRaw(blocker, `?member=${blocked.profileId}`), 404, "not_found");
  });

  it("hides an invisible member's conversation from the other's list and unread total", async () => {
    const hidden = await newMember({ credits: cost });
    const viewer = await newMember();
    await sent(hidden, viewer);
    expect(await unreadCount(viewer)).toBe(1);
    await api.db.update(profiles).set({ invisible: true }).where(eq(profiles.id, hidden.profileId));
    const list = await chats(viewer);
    expect({ chats: list.chats, total: list.num_unread_messages, counts: await unreadCount(viewer) }).toEqual({ chats: [], total: 0, counts: 0 });
    // The invisible member still has their own conversation.
    expect(await listed(hidden)).toEqual([viewer.profileId]);
    await api.db.update(profiles).set({ invisible: false }).where(eq(profiles.id, hidden.profileId));
    expect(await listed(viewer)).toEqual([hidden.profileId]);
  });

  it("counts the unread total up to 100, which the badges show as 99+ (the api reads at most 100 conversations for it)", async () => {
    const viewer = await newMember();
    const senders = await Promise.all([0, 1, 2].map(() => newMember({ credits: cost })));
    for (const sender of senders) await sent(sender, viewer);
    expect(await unreadCount(viewer)).toBe(3);
    // 3 conversations of 45 unread messages each: 135, counted as 100.
    await api.db.update(conversationMembers).set({ unreadCount: 45 }).where(eq(conversationMembers.profileId, viewer.profileId));
    expect({ counts: await unreadCount(viewer), list: (await chats(viewer)).num_unread_messages }).toEqual({ counts: 100, list: 100 });
    await api.db.update(conversationMembers).set({ unreadCount: 33 }).where(eq(conversationMembers.profileId, viewer.profileId));
    expect(await unreadCount(viewer)).toBe(99);
  });

  it("lets an unconfirmed member send, but not be replied to (409 recipient_unconfirmed)", async () => {
    const unconfirmed = await newMember({ credits: cost, status: "not_confirmed" });
    const other = await newMember({ credits: 2 * cost, paid: true });
    await changesNothing(other, async () => {
      const refused = await expectApiError(await send(other, unconfirmed.profileId), 409, "recipient_unconfirmed");
      expect(refused.params?.name).toBe(unconfirmed.name);
    });
    await sent(unconfirmed, other);
    await changesNothing(other, async () => {
      await expectApiError(await send(other, unconfirmed.profileId), 409, "recipient_unconfirmed");
    });
    expect((await open(other, `?member=${unconfirmed.profileId}`)).composer).toBe("recipient_unconfirmed");
    // Once confirmed, the reply goes.
    await api.db.update(users).set({ status: "active", emailConfirmedAt: new Date() }).where(eq(users.id, unconfirmed.userId));
    await api.db.update(profiles).set({ status: "active" }).where(eq(profiles.id, unconfirmed.profileId));
    await sent(other, unconfirmed);
  });

  it("answers 404 for writing to a disabled profile, a deleted member, another site's member, oneself or nobody", async () => {
    const a = await newMember({ credits: cost, paid: true });
    const disabled = await newMember();
    await api.db.update(profiles).set({ status: "disabled" }).where(eq(profiles.id, disabled.profileId));
    const deleted = await newMember({ status: "deleted" });
    const elsewhere = await newMember({ host: "gay.localhost" });
    await changesNothing(a, async () => {
      for (const to of [disabled.profileId, deleted.profileId, elsewhere.profileId, a.profileId, 999_999]) {
        const res = await send(a, to);
        expect({ to, status: res.status }).toEqual({ to, status: 404 });
        await expectApiError(res, 404, "not_found");
      }
    });
    for (const member of [elsewhere.profileId, a.profileId, 999_999]) await expectApiError(await openRaw(a, `?member=${member}`), 404, "not_found");
  });

  it("keeps a conversation readable when the other member is gone, with the composer unavailable", async () => {
    const a = await newMember({ credits: cost });
    const gone = await newMember();
    const { message } = await sent(a, gone);
    await api.db.update(users).set({ status: "deleted", deletedAt: new Date() }).where(eq(users.id, gone.userId));
    await api.db.update(profiles).set({ status: "disabled" }).where(eq(profiles.id, gone.profileId));
    const chat = await open(a, `?conversation=${message.conversation_id}`);
    expect({ composer: chat.composer, messages: chat.conversation?.messages.map((m) => m.id) }).toEqual({ composer: "unavailable", messages: [message.id] });
  });

  it("the composer of an open chat and a send agree on every state of the recipient (composerBlock and send_message both hold the rules)", async () => {
    const states = [
      { recipient: "active", user: "active", profile: "active", composer: "open", send: 201 },
      { recipient: "unconfirmed", user: "not_confirmed", profile: "active", composer: "recipient_unconfirmed", send: 409 },
      { recipient: "with a disabled profile", user: "active", profile: "disabled", composer: "unavailable", send: 404 },
      { recipient: "erased", user: "erased", profile: "disabled", composer: "unavailable", send: 404 },
      { recipient: "deleted", user: "deleted", profile: "disabled", composer: "unavailable", send: 404 },
    ] as const;
    const seen = [];
    for (const state of states) {
      const a = await newMember({ credits: 2 * cost, paid: true });
      const b = await newMember();
      const { message } = await sent(a, b);
      await api.db.update(users).set({ status: state.user }).where(eq(users.id, b.userId));
      await api.db.update(profiles).set({ status: state.profile }).where(eq(profiles.id, b.profileId));
      const composer = (await open(a, `?conversation=${message.conversation_id}`)).composer;
      seen.push({ recipient: state.recipient, composer, send: (await send(a, b.profileId)).status });
    }
    expect(seen).toEqual(states.map(({ recipient, composer, send }) => ({ recipient, composer, send })));
  });

  it("answers 404 for opening a disabled profile or a deleted member by member id when there is no conversation", async () => {
    const a = await newMember();
    const disabled = await newMember();
    await api.db.update(profiles).set({ status: "disabled" }).where(eq(profiles.id, disabled.profileId));
    const deleted = await newMember({ status: "deleted" });
    for (const member of [disabled.profileId, deleted.profileId]) await expectApiError(await openRaw(a, `?member=${member}`), 404, "not_found");
  });
});

describe("bad input", () => {
  const int4Past = 2_147_483_648;

  it("refuses bad sends with 400 validation_failed, storing and charging nothing", async () => {
    const a = await newMember({ credits: 3 * cost, paid: true });
    const b = await newMember();
    const to = b.profileId;
    const cases: { name: string; body: unknown }[] = [
      ...["", "   ", "\r\n\t ", "a".repeat(maxLength + 1), "a".repeat(messageBodyCap + 1), "a\u0000b", "\u0000", "bell\u0007", "esc\u001b[0m", "del\u007f", "v\u000bt", "f\u000cf", "\u0000   "].map((body) => ({
        name: `body ${JSON.stringify(body.slice(0, 12))} (${body.length})`,
        body: { to, body, key: newKey() },
      })),
      ...[5, {}, [], ["hi"], null, true].map((body) => ({ name: `body ${JSON.stringify(body)}`, body: { to, body, key: newKey() } })),
      { name: "body missing", body: { to, key: newKey() } },
      ...[String(to), [to], 1.5, 0, -1, int4Past, null, "abc"].map((value) => ({ name: `to ${JSON.stringify(value)}`, body: { to: value, body: "hi", key: newKey() } })),
      { name: "to missing", body: { body: "hi", key: newKey() } },
      ...["short", "has spaces in it", "x".repeat(65), "key\u0000key00", "ключключключ", 12345678, null].map((key) => ({ name: `key ${JSON.stringify(key)}`, body: { to, body: "hi", key } })),
      { name: "key missing", body: { to, body: "hi" } },
      { name: "an array", body: [{ to, body: "hi", key: newKey() }] },
    ];
    await changesNothing(a, async () => {
      for (const c of cases) {
        const res = await call(api, "POST", "/api/message.php", { token: a.token, body: c.body });
        expect({ case: c.name, status: res.status }).toEqual({ case: c.name, status: 400 });
        await expectApiError(res, 400, "validation_failed");
      }
      for (const raw of ['{"to":', "not json", `{"to":${to},"body":"hi","key":"${newKey()}",}`]) {
        const res = await rawBody(a, "POST", "/api/message.php", raw);
        expect({ raw, status: res.status }).toEqual({ raw, status: 400 });
        await expectApiError(res, 400, "validation_failed");
      }
    });
    // The over-long answer names the site's limit; a message of exactly message_length goes.
    const tooLong = await expectApiError(await send(a, to, "a".repeat(maxLength + 1)), 400, "validation_failed");
    expect(tooLong.params?.max).toBe(maxLength);
    expect((await sent(a, b, "a".repeat(maxLength))).message.body).toHaveLength(maxLength);
  });

  it("refuses bad queries and bodies of the other calls with 400, and unknown conversations with 404", async () => {
    const a = await newMember({ credits: cost });
    const b = await newMember();
    const { message } = await sent(a, b);
    const conversation = message.conversation_id;
    const bad = ["abc", "1e3", "-1", "0", "1.5", "0x10", "", "%00", "2147483648", "1%00"];
    const get400: string[] = [
      ...bad.flatMap((v) => [`/api/chat.php?conversation=${v}`, `/api/chat.php?member=${v}`, `/api/chats.php?conversation=${v}`, `/api/chats.php?member=${v}`, `/api/chats.php?page=${v}`, `/api/chat.php?conversation=${conversation}&before=${v}`]),
      `/api/chat.php?conversation=${conversation}&member=${b.profileId}`,
      `/api/chats.php?conversation=${conversation}&member=${b.profileId}`,
      "/api/chat.php",
      `/api/chat.php?conversation=${conversation}&conversation=${conversation}`,
      `/api/chat.php?conversation[]=${conversation}`,
      `/api/chat.php?conversation=${conversation}&with_user=yes`,
      "/api/chats.php?page=1001",
    ];
    for (const path of get400) {
      const res = await call(api, "GET", path, { token: a.token });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      await expectApiError(res, 400, "validation_failed");
    }
    const bodies400: unknown[] = [{}, { conversation: String(conversation) }, { conversation: [conversation] }, { conversation: 1.5 }, { conversation: 0 }, { conversation: -1 }, { conversation: int4Past }, { conversation: null }];
    for (const body of bodies400) {
      for (const [name, res] of [
        ["read", await markRead(a, body)],
        ["delete", await deleteChat(a, body)],
      ] as const) {
        expect({ name, body, status: res.status }).toEqual({ name, body, status: 400 });
        await expectApiError(res, 400, "validation_failed");
      }
    }
    await expectApiError(await markRead(a, { conversation, with_user: true }), 400, "validation_failed");
    await expectApiError(await rawBody(a, "POST", "/api/chat-read.php", '{"conversation":'), 400, "validation_failed");
    await expectApiError(await rawBody(a, "DELETE", "/api/chat.php", '{"conversation":'), 400, "validation_failed");
    for (const path of ["/api/chat.php?conversation=999999", "/api/chats.php?conversation=999999", "/api/chat.php?conversation=2147483647"]) {
      await expectApiError(await call(api, "GET", path, { token: a.token }), 404, "not_found");
    }
    // Still there, unread, after all that.
    expect(await listed(a)).toEqual([b.profileId]);
    expect(await unreadCount(b)).toBe(1);
  });
});
