import { and, eq, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatResponse } from "#contract/chat";
import { InboxActionResponse, InboxConversation, InboxNextResponse, InboxResponse, OperatorsResponse, inboxQueueNames } from "#contract/staff-inbox";
import { auditLog, creditLedger, messages, operatorClaims, photos, profiles, users } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { call, cookieHeader, insertMember, login, startApi, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";

/**
 * The operator inbox (docs/staff.md). Queues follow the messages; one operator per conversation
 * (a claim, under concurrency, that expires); a reply as the site-run profile reaches the member's live stream and
 * costs nobody credits.
 */
let api: Harness;
const password = "inbox-test-password";
let passwordHash: string;
let fictionalProfileId: number;
let key = 0;
const newKey = () => `inbox-key-${process.pid}-${++key}`;

beforeAll(async () => {
  api = await startApi();
  passwordHash = await hashPassword(password);
  const [fictional] = await api.db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.fictional, true), eq(profiles.siteId, 1), eq(profiles.status, "active")))
    .limit(1);
  if (!fictional) throw new Error("the demo data has no site-run profile on site 1");
  fictionalProfileId = fictional.id;
});
afterAll(async () => api?.close());

async function payingMember() {
  const inserted = await insertMember(api, { passwordHash });
  await api.db.update(users).set({ credits: 100, paidUser: true }).where(eq(users.id, inserted.userId));
  return { ...inserted, token: await login(api.baseUrl, inserted.email, password) };
}

async function write(member: { token: string }, body: string) {
  const res = await call(api, "POST", "/api/message.php", { token: member.token, body: { to: fictionalProfileId, body, key: newKey() } });
  expect(res.status, await res.clone().text()).toBe(201);
}

const inboxOf = async (token: string, queue: (typeof inboxQueueNames)[number] = "new") => InboxResponse.parse(await (await staffCall(api, token, "GET", `/api/staff/inbox.php?queue=${queue}`)).json());
/** The member's conversation in whichever queue lists it: each list holds one queue, and only that one. */
const entryOf = async (token: string, memberProfileId: number) => {
  for (const queue of inboxQueueNames) {
    const listed = await inboxOf(token, queue);
    expect(listed.conversations.every((c) => c.queue === queue)).toBe(true);
    const found = listed.conversations.find((c) => c.member.profile_id === memberProfileId);
    if (found) return found;
  }
  return undefined;
};
const act = (token: string, body: Record<string, unknown>) => staffCall(api, token, "POST", "/api/staff/inbox-conversation.php", body);
const credits = async (userId: number) => (await api.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)))[0]?.credits;

describe("the operator inbox", () => {
  it("puts conversations in queues that follow the messages; a reply reaches the member live and costs nothing", async () => {
    const member = await payingMember();
    const operator = await staffToken(api, await newStaff(api, "operator"));
    await write(member, "Hi there, are you around tonight?");
    expect(await credits(member.userId)).toBe(90);
    const entry = await entryOf(operator, member.profileId);
    expect(entry).toMatchObject({ queue: "new", member: { paying: true }, profile: { id: fictionalProfileId }, claimed_by: null });

    const opened = InboxConversation.parse(await (await staffCall(api, operator, "GET", `/api/staff/inbox-conversation.php?id=${entry!.id}`)).json());
    expect(opened.messages.map((m) => [m.from_member, m.body])).toEqual([[true, "Hi there, are you around tonight?"]]);
    expect(opened.member).toMatchObject({ credits: 90, paying: true });

    // The member's live stream is open when the answer goes out.
    const controller = new AbortController();
    const stream = await fetch(`${api.baseUrl}/api/events.php`, { headers: { Cookie: cookieHeader(member.token), "X-Forwarded-Host": "localhost" }, signal: controller.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const claim = InboxActionResponse.parse(await (await act(operator, { id: entry!.id, action: "claim" })).json());
    expect(claim.claim).toMatchObject({ mine: true });
    expect((await act(operator, { id: entry!.id, action: "typing" })).status).toBe(200);
    const reply = await act(operator, { id: entry!.id, action: "reply", text: "Hey! I am, what do you have in mind?", key: newKey() });
    expect(reply.status, await reply.clone().text()).toBe(200);
    let seen = "";
    const deadline = Date.now() + 5000;
    while (!/event: message/.test(seen) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    controller.abort();
    expect(seen).toMatch(/event: typing/);
    expect(seen).toMatch(/event: message/);
    // Nobody paid for the answer; the claim ended with it; the conversation waits for the member.
    expect(await credits(member.userId)).toBe(90);
    const after = await entryOf(operator, member.profileId);
    expect(after).toMatchObject({ queue: "waiting", claimed_by: null });
    const chat = ChatResponse.parse(await (await call(api, "GET", `/api/chat.php?member=${fictionalProfileId}`, { token: member.token })).json());
    expect(chat.conversation?.messages.map((m) => m.body)).toContain("Hey! I am, what do you have in mind?");
    const [audited] = await api.db.select().from(auditLog).where(and(eq(auditLog.action, "inbox.reply"), eq(auditLog.targetId, String(entry!.id))));
    expect(audited).toBeTruthy();

    await write(member, "Dinner?");
    expect((await entryOf(operator, member.profileId))?.queue).toBe("unreplied");
    // A week of silence: stopped.
    await api.db.execute(sql`update messages set created_at = now() - interval '8 days' where conversation_id = ${entry!.id}`);
    await api.db.execute(sql`update conversations set last_message_at = now() - interval '8 days' where id = ${entry!.id}`);
    expect((await entryOf(operator, member.profileId))?.queue).toBe("stopped");
  });

  it("answers with a gift and with one of the profile's own photos: live, of their kind, free; others' photos and held conversations are refused", async () => {
    const member = await payingMember();
    await write(member, "Send me something nice?");
    const operator = await staffToken(api, await newStaff(api, "operator"));
    const entry = await entryOf(operator, member.profileId);
    const [own] = await api.db.select({ id: photos.id }).from(photos).where(and(eq(photos.profileId, fictionalProfileId), eq(photos.status, "active"))).limit(1);
    const [foreign] = await api.db.select({ id: photos.id }).from(photos).where(and(ne(photos.profileId, fictionalProfileId), eq(photos.status, "active"))).limit(1);
    if (!own || !foreign) throw new Error("the demo data has no photos to answer with");
    // The page offers the profile's own photos.
    const opened = InboxConversation.parse(await (await staffCall(api, operator, "GET", `/api/staff/inbox-conversation.php?id=${entry!.id}`)).json());
    expect(opened.profile.photos.map((p) => p.id)).toContain(own.id);

    // Another operator holds the conversation: no gift, no photo from this one.
    const holder = await staffToken(api, await newStaff(api, "operator"));
    expect(InboxActionResponse.parse(await (await act(holder, { id: entry!.id, action: "claim" })).json()).claim).toMatchObject({ mine: true });
    for (const held of [{ action: "reply_gift", gift: "rose" }, { action: "reply_photo", photo_id: own.id }]) {
      const refused = await act(operator, { id: entry!.id, ...held, key: newKey() });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain("is answering this conversation");
    }
    await act(holder, { id: entry!.id, action: "release" });
    expect(InboxActionResponse.parse(await (await act(operator, { id: entry!.id, action: "claim" })).json()).claim).toMatchObject({ mine: true });

    // Another profile's photo, a photo not live yet, an unknown gift: refused, nothing sent.
    const [pending] = await api.db.insert(photos).values({ profileId: fictionalProfileId, siteId: 1, filename: "demo/pending.svg", thumbFilename: "demo/pending.svg", status: "pending", position: 99 }).returning({ id: photos.id });
    for (const photoId of [foreign.id, pending!.id]) {
      const refused = await act(operator, { id: entry!.id, action: "reply_photo", photo_id: photoId, key: newKey() });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { fields?: Record<string, string[]> }).fields?.photo_id?.[0]).toContain("is not one of");
    }
    expect((await act(operator, { id: entry!.id, action: "reply_gift", gift: "diamond", key: newKey() })).status).toBe(400);
    expect(await api.db.select({ id: messages.id }).from(messages).where(and(eq(messages.conversationId, entry!.id), eq(messages.senderProfileId, fictionalProfileId)))).toHaveLength(0);

    const controller = new AbortController();
    const stream = await fetch(`${api.baseUrl}/api/events.php`, { headers: { Cookie: cookieHeader(member.token), "X-Forwarded-Host": "localhost" }, signal: controller.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const gift = await act(operator, { id: entry!.id, action: "reply_gift", gift: "rose", key: newKey() });
    expect(gift.status, await gift.clone().text()).toBe(200);
    let seen = "";
    const deadline = Date.now() + 5000;
    while (!/event: message/.test(seen) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    controller.abort();
    expect(seen).toMatch(/event: message/);
    // Sending ended the claim: a second answer needs the conversation taken again (as the page does when it sends).
    expect((await entryOf(operator, member.profileId))?.claimed_by).toBeNull();
    expect((await act(operator, { id: entry!.id, action: "reply_photo", photo_id: own.id, key: newKey() })).status).toBe(400);
    await act(operator, { id: entry!.id, action: "claim" });
    const photo = await act(operator, { id: entry!.id, action: "reply_photo", photo_id: own.id, key: newKey() });
    expect(photo.status, await photo.clone().text()).toBe(200);

    // The member sees both as any gift and image message; the image is theirs to load.
    const chat = ChatResponse.parse(await (await call(api, "GET", `/api/chat.php?member=${fictionalProfileId}`, { token: member.token })).json());
    const answers = chat.conversation!.messages.filter((m) => m.sender === fictionalProfileId);
    expect(answers.map((m) => [m.kind, m.media?.ref])).toEqual([
      ["gift", "rose"],
      ["image", ""],
    ]);
    const image = await call(api, "GET", answers[1]!.media!.thumb_url, { token: member.token });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");

    // Nobody paid: the member's credits are as after their own message, the answers cost 0 and have no ledger row.
    expect(await credits(member.userId)).toBe(90);
    const sent = await api.db.select({ id: messages.id, credits: messages.credits }).from(messages).where(and(eq(messages.conversationId, entry!.id), eq(messages.senderProfileId, fictionalProfileId)));
    expect(sent.map((m) => m.credits)).toEqual([0, 0]);
    for (const m of sent) expect(await api.db.select().from(creditLedger).where(eq(creditLedger.reference, `message:${m.id}`))).toHaveLength(0);
    const audited = await api.db.select().from(auditLog).where(and(eq(auditLog.action, "inbox.reply"), eq(auditLog.targetId, String(entry!.id))));
    expect(audited.map((a) => (a.changes as { kind?: { after: string } }).kind?.after)).toEqual(["gift", "image"]);
  });

  it("lets one of two operators claiming at once win; the other is told who holds it and cannot send; a claim expires", async () => {
    const member = await payingMember();
    await write(member, "Hello?");
    const first = await staffToken(api, await newStaff(api, "operator"));
    const secondAccount = await newStaff(api, "admin", []);
    const second = await staffToken(api, secondAccount);
    const entry = await entryOf(first, member.profileId);
    const claims = await Promise.all([first, second].map(async (token) => InboxActionResponse.parse(await (await act(token, { id: entry!.id, action: "claim" })).json()).claim));
    expect(claims.filter((c) => c?.mine)).toHaveLength(1);
    const loser = claims[0]?.mine ? second : first;
    const winnerName = claims.find((c) => c?.mine)?.by;
    expect(claims.find((c) => !c?.mine)?.by).toBe(winnerName);
    const refused = await act(loser, { id: entry!.id, action: "reply", text: "Me too!", key: newKey() });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain(`${winnerName} is answering this conversation`);
    expect((await entryOf(loser, member.profileId))?.claimed_by?.name).toBe(winnerName);

    // Five minutes without typing: the claim has run out, and the other operator can take it.
    await api.db.update(operatorClaims).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(operatorClaims.conversationId, entry!.id));
    expect(InboxActionResponse.parse(await (await act(loser, { id: entry!.id, action: "claim" })).json()).claim).toMatchObject({ mine: true });
    await act(loser, { id: entry!.id, action: "release" });

    // "Next" claims the longest-waiting new or unreplied conversation nobody holds.
    // (new and unreplied merged by their wait: the oldest last message first)
    const open = [...(await inboxOf(loser, "new")).conversations, ...(await inboxOf(loser, "unreplied")).conversations]
      .filter((c) => c.claimed_by === null)
      .sort((x, y) => Date.parse(x.last_at) - Date.parse(y.last_at) || x.id - y.id);
    const expected = open[0];
    const next = InboxNextResponse.parse(await (await staffCall(api, loser, "POST", "/api/staff/inbox-next.php")).json()).id;
    expect(next).toBe(expected?.id ?? null);
    const other = first === loser ? second : first;
    if (next !== null) expect([...(await inboxOf(other, "new")).conversations, ...(await inboxOf(other, "unreplied")).conversations].find((c) => c.id === next)?.claimed_by?.id).toEqual(loser === second ? secondAccount.id : expect.any(Number));
  });

  it("keeps shared notes per member, and refuses operators' and admins' inbox to other roles", async () => {
    const member = await payingMember();
    await write(member, "Notes test");
    const operator = await staffToken(api, await newStaff(api, "operator"));
    const entry = await entryOf(operator, member.profileId);
    expect((await act(operator, { id: entry!.id, action: "note", text: "Likes hiking; lives near the coast." })).status).toBe(200);
    const colleague = await staffToken(api, await newStaff(api, "operator"));
    const opened = InboxConversation.parse(await (await staffCall(api, colleague, "GET", `/api/staff/inbox-conversation.php?id=${entry!.id}`)).json());
    expect(opened.note?.body).toBe("Likes hiking; lives near the coast.");
    const moderator = await staffToken(api, await newStaff(api, "moderator"));
    expect((await staffCall(api, moderator, "GET", "/api/staff/inbox.php")).status).toBe(403);
  });

  it("gives admins each operator's figures per day: replies, conversations, waits, and the member messages that followed", async () => {
    const member = await payingMember();
    await write(member, "Figures, please");
    const account = await newStaff(api, "operator");
    const operator = await staffToken(api, account);
    const entry = await entryOf(operator, member.profileId);
    await act(operator, { id: entry!.id, action: "claim" });
    expect((await act(operator, { id: entry!.id, action: "reply", text: "Here you are", key: newKey() })).status).toBe(200);
    await write(member, "Thanks!");
    await write(member, "And more?");
    const admin = await staffToken(api, await newStaff(api, "admin", []));
    const figures = OperatorsResponse.parse(await (await staffCall(api, admin, "GET", "/api/staff/operators.php?days=7")).json());
    const row = figures.rows.find((r) => r.staff_id === account.id);
    expect(row).toMatchObject({ day: new Date().toISOString().slice(0, 10), replies: 1, conversations: 1, member_messages_after: 2 });
    expect(row!.median_seconds).toBeGreaterThanOrEqual(0);
    expect(row!.p90_seconds).toBeGreaterThanOrEqual(row!.median_seconds!);
    expect((await staffCall(api, operator, "GET", "/api/staff/operators.php")).status).toBe(403);
    expect((await staffCall(api, admin, "GET", "/api/staff/operators.php?days=0")).status).toBe(400);
  });
});
