import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { ChatResponse, ChatsResponse, SendMessageResponse } from "#contract/chat";
import { HeldMessageOutcome, HeldMessagesResponse } from "#contract/staff-held-messages";
import { auditLog, conversations, creditLedger, profiles, sites, users } from "../../api/db/schema";
import { createSession } from "../../api/domain/sessions";
import { clearSiteCache } from "../../api/domain/sites";
import { call, expectApiError, insertMember, startApi, testSessionSecret, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";

/**
 * docs/staff.md, contact details in chat, over HTTP: a site's contact filter off, masking, or holding a member's
 * message for a moderator, who approves (delivered) or rejects it (undelivered, credits back); the money stays exact.
 * The rules of what counts as contact details are tests/unit/contact-filter.test.ts.
 */
let api: Harness;
type Member = { userId: number; profileId: number; token: string };
const disguised = "call me: zero six, 12 34 - 56 78 ok?";

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api?.close());

async function filter(mode: "off" | "mask" | "hold") {
  await api.db.update(sites).set({ contactFilter: mode }).where(eq(sites.id, 1));
  clearSiteCache();
}

async function newMember(credits = 100): Promise<Member> {
  const inserted = await insertMember(api, { passwordHash: "not-used" });
  await api.db.update(users).set({ credits, paidUser: true }).where(eq(users.id, inserted.userId));
  await api.db.insert(creditLedger).values({ userId: inserted.userId, delta: credits, balanceAfter: credits, reason: "purchase", reference: "contact-filter-test" });
  return { userId: inserted.userId, profileId: inserted.profileId, token: await createSession(api.db, inserted.userId, testSessionSecret) };
}

const send = (from: Member, to: Member, body: string) => call(api, "POST", "/api/message.php", { token: from.token, body: { to: to.profileId, body, key: randomBytes(12).toString("base64url") } });
async function sent(from: Member, to: Member, body: string) {
  const res = await send(from, to, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return SendMessageResponse.parse(await res.json());
}
async function chatOf(who: Member, other: Member) {
  const res = await call(api, "GET", `/api/chat.php?member=${other.profileId}`, { token: who.token });
  expect(res.status).toBe(200);
  return ChatResponse.parse(await res.json());
}
const bodiesOf = async (who: Member, other: Member) => (await chatOf(who, other)).conversation?.messages.map((m) => m.body) ?? [];
const balanceOf = async (member: Member) => (await api.db.select({ credits: users.credits }).from(users).where(eq(users.id, member.userId)))[0]?.credits;
const ledgerSum = async (member: Member) => (await api.db.select({ delta: creditLedger.delta }).from(creditLedger).where(eq(creditLedger.userId, member.userId))).reduce((sum, row) => sum + row.delta, 0);
const messageCost = async () => (await api.db.select({ credits: sites.messageCredits }).from(sites).where(eq(sites.id, 1)))[0]?.credits ?? 0;

describe("a site's contact filter", () => {
  it("off: a message with contact details goes as written", async () => {
    await filter("off");
    const [a, b] = [await newMember(), await newMember()];
    const answer = await sent(a, b, disguised);
    expect(answer.message.body).toBe(disguised);
    expect(answer.message.moderation).toBeUndefined();
    expect(await bodiesOf(b, a)).toEqual([disguised]);
  });

  it("mask: both members see the message with the contact details masked, paid like any message", async () => {
    await filter("mask");
    const [a, b] = [await newMember(), await newMember()];
    const cost = await messageCost();
    const answer = await sent(a, b, disguised);
    expect(answer.message.body).toBe("call me: ••• ok?");
    expect(answer.credits).toBe(100 - cost);
    expect(await bodiesOf(a, b)).toEqual(["call me: ••• ok?"]);
    expect(await bodiesOf(b, a)).toEqual(["call me: ••• ok?"]);
    // A message without contact details is not touched.
    expect((await sent(a, b, "see you at 8, I'm 34")).message.body).toBe("see you at 8, I'm 34");
    expect(await balanceOf(a)).toBe(await ledgerSum(a));
  });

  it("hold: the message waits for a moderator, paid, seen by its sender only; approving delivers it once", async () => {
    await filter("hold");
    const [a, b] = [await newMember(), await newMember()];
    const cost = await messageCost();
    const answer = await sent(a, b, disguised);
    expect(answer.message).toMatchObject({ body: disguised, moderation: "held" });
    expect(await balanceOf(a)).toBe(100 - cost);
    expect(await ledgerSum(a)).toBe(100 - cost);
    // The sender sees it with the note; the recipient has no conversation at all.
    expect((await chatOf(a, b)).conversation?.messages.map((m) => m.moderation)).toEqual(["held"]);
    expect((await chatOf(b, a)).conversation).toBeNull();
    const list = ChatsResponse.parse(await (await call(api, "GET", "/api/chats.php", { token: b.token })).json());
    expect(list.chats.some((entry) => entry.profile.id === a.profileId)).toBe(false);

    // The queue: moderators and admins of the site; support may not; a moderator of another site sees none of it.
    const moderator = await staffToken(api, await newStaff(api, "moderator", [1]));
    const elsewhere = await staffToken(api, await newStaff(api, "moderator", [2]));
    const support = await staffToken(api, await newStaff(api, "support", [1]));
    const queue = HeldMessagesResponse.parse(await (await staffCall(api, moderator, "GET", "/api/staff/held-messages.php")).json());
    const held = queue.messages.find((m) => m.sender.profile_id === a.profileId);
    expect(held).toMatchObject({ body: disguised, credits: cost, recipient: { profile_id: b.profileId }, site: { id: 1 } });
    const id = held?.id ?? 0;
    const otherQueue = HeldMessagesResponse.parse(await (await staffCall(api, elsewhere, "GET", "/api/staff/held-messages.php")).json());
    expect(otherQueue.messages.some((m) => m.id === id)).toBe(false);
    await expectApiError(await staffCall(api, support, "GET", "/api/staff/held-messages.php"), 403, "forbidden");
    await expectApiError(await staffCall(api, support, "POST", "/api/staff/held-messages.php", { id, decision: "approve" }), 403, "forbidden");
    await expectApiError(await staffCall(api, elsewhere, "POST", "/api/staff/held-messages.php", { id, decision: "approve" }), 404, "not_found");
    await expectApiError(await staffCall(api, moderator, "POST", "/api/staff/held-messages.php", { id, decision: "maybe" }), 400, "validation_failed");

    const approved = await staffCall(api, moderator, "POST", "/api/staff/held-messages.php", { id, decision: "approve" });
    expect(approved.status, await approved.clone().text()).toBe(200);
    expect(HeldMessageOutcome.parse(await approved.json())).toMatchObject({ decision: "approve", refunded: 0 });
    expect(await bodiesOf(b, a)).toEqual([disguised]);
    expect((await chatOf(a, b)).conversation?.messages[0]?.moderation).toBeUndefined();
    const after = ChatsResponse.parse(await (await call(api, "GET", "/api/chats.php", { token: b.token })).json());
    expect(after.chats.find((entry) => entry.profile.id === a.profileId)?.num_unread_messages).toBe(1);
    // Decided once: a second decision finds nothing; the audit log has the one.
    await expectApiError(await staffCall(api, moderator, "POST", "/api/staff/held-messages.php", { id, decision: "reject" }), 404, "not_found");
    const audited = await api.db.select().from(auditLog).where(and(eq(auditLog.targetType, "message"), eq(auditLog.targetId, String(id))));
    expect(audited.map((entry) => entry.action)).toEqual(["message.approve"]);
    expect(await balanceOf(a)).toBe(100 - cost);
  });

  it("hold: a rejected message is never delivered and its credits come back, with a ledger entry", async () => {
    await filter("hold");
    const [a, b] = [await newMember(), await newMember()];
    const cost = await messageCost();
    await sent(a, b, "hi there");
    await sent(a, b, "mail me: anna.b (at) gmail (dot) com");
    expect(await balanceOf(a)).toBe(100 - 2 * cost);
    const admin = await staffToken(api, await newStaff(api, "admin", []));
    const queue = HeldMessagesResponse.parse(await (await staffCall(api, admin, "GET", "/api/staff/held-messages.php")).json());
    const id = queue.messages.find((m) => m.sender.profile_id === a.profileId)?.id ?? 0;
    const rejected = await staffCall(api, admin, "POST", "/api/staff/held-messages.php", { id, decision: "reject" });
    expect(HeldMessageOutcome.parse(await rejected.json())).toMatchObject({ decision: "reject", refunded: cost });
    expect(await balanceOf(a)).toBe(100 - cost);
    expect(await ledgerSum(a)).toBe(100 - cost);
    expect(await bodiesOf(b, a)).toEqual(["hi there"]);
    expect((await chatOf(a, b)).conversation?.messages.map((m) => m.moderation ?? "delivered")).toEqual(["delivered", "rejected"]);
    await expectApiError(await staffCall(api, admin, "POST", "/api/staff/held-messages.php", { id, decision: "reject" }), 404, "not_found");
    expect(await balanceOf(a)).toBe(100 - cost);
  });

  it("hold: a block takes the pair's conversation with a held message, and the sender gets that message's credits back", async () => {
    await filter("hold");
    const [a, b] = [await newMember(), await newMember()];
    const cost = await messageCost();
    await sent(a, b, "hi there");
    await sent(a, b, "text me on 06 12 34 56 78");
    await sent(a, b, "or mail anna at gmail dot com");
    expect(await balanceOf(a)).toBe(100 - 3 * cost);
    const blocked = await call(api, "POST", "/api/block.php", { token: b.token, body: { id: a.profileId } });
    expect(blocked.status, await blocked.clone().text()).toBe(200);
    // The delivered message was paid for and stays paid; the two never delivered come back, each with its ledger entry.
    expect(await balanceOf(a)).toBe(100 - cost);
    expect(await ledgerSum(a)).toBe(100 - cost);
    const refunds = await api.db.select().from(creditLedger).where(and(eq(creditLedger.userId, a.userId), eq(creditLedger.delta, cost), eq(creditLedger.reason, "message"))).orderBy(creditLedger.id);
    expect(refunds.map((row) => row.balanceAfter)).toEqual([100 - 2 * cost, 100 - cost]);
    const admin = await staffToken(api, await newStaff(api, "admin", []));
    const queue = HeldMessagesResponse.parse(await (await staffCall(api, admin, "GET", "/api/staff/held-messages.php")).json());
    expect(queue.messages.filter((m) => m.sender.profile_id === a.profileId)).toEqual([]);
  });

  it("never filters an operator's answer as a site-run profile", async () => {
    await filter("mask");
    const member = await newMember();
    const [profile] = await api.db.select({ id: profiles.id }).from(profiles).where(and(eq(profiles.fictional, true), eq(profiles.siteId, 1), eq(profiles.status, "active"))).limit(1);
    await sent(member, { userId: 0, profileId: profile!.id, token: "" }, "hello there");
    const operator = await staffToken(api, await newStaff(api, "operator"));
    const [conversation] = await api.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.fictionalProfileId, profile!.id), sql`${member.profileId} in (${conversations.lowProfileId}, ${conversations.highProfileId})`));
    const answer = "You can also reach the team at support@example.com or +31 6 1234 5678";
    const act = (body: Record<string, unknown>) => staffCall(api, operator, "POST", "/api/staff/inbox-conversation.php", { id: conversation!.id, ...body });
    expect((await act({ action: "claim" })).status).toBe(200);
    const replied = await act({ action: "reply", text: answer, key: randomBytes(12).toString("base64url") });
    expect(replied.status, await replied.clone().text()).toBe(200);
    expect((await chatOf(member, { userId: 0, profileId: profile!.id, token: "" })).conversation?.messages.map((m) => m.body)).toEqual(["hello there", answer]);
  });

  it("is saved with a site's settings in the console", async () => {
    const admin = await staffToken(api, await newStaff(api, "admin", []));
    const site = await (await staffCall(api, admin, "GET", "/api/staff/site.php?id=1")).json();
    const res = await staffCall(api, admin, "POST", "/api/staff/sites.php", { action: "update", id: 1, updated_at: site.updated_at, settings: { ...site.settings, contact_filter: "mask" } });
    expect(res.status, await res.clone().text()).toBe(200);
    const [row] = await api.db.select({ contactFilter: sites.contactFilter }).from(sites).where(eq(sites.id, 1));
    expect(row?.contactFilter).toBe("mask");
    const bad = await staffCall(api, admin, "POST", "/api/staff/sites.php", { action: "update", id: 1, updated_at: site.updated_at, settings: { ...site.settings, contact_filter: "sometimes" } });
    await expectApiError(bad, 400, "validation_failed");
  });
});
