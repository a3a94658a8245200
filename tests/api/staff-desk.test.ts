import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "#contract/errors";
import { DeskResponse, InboxActionResponse, InboxConversation, InboxNextResponse, InboxResponse, SavedRepliesResponse, inboxQueueNames } from "#contract/staff-inbox";
import { auditLog, operatorClaims, profiles, users } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { call, insertMember, login, startApi, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";

/**
 * docs/staff.md, the operator desk: the claim's lifecycle (one conversation per operator, ended by a send, by leaving,
 * by opening another, by its time; a lost claim is refused with why, not taken again), notes per member, saved replies
 * (admins, audited), the queues' defaults, filters, previews and "answered by", and an operator's own figures.
 */
let api: Harness;
const password = "desk-test-password";
let passwordHash: string;
let fictional: { id: number; name: string }[];
let key = 0;
const newKey = () => `desk-key-${process.pid}-${++key}`;

beforeAll(async () => {
  api = await startApi();
  passwordHash = await hashPassword(password);
  fictional = await api.db
    .select({ id: profiles.id, name: profiles.name })
    .from(profiles)
    .where(and(eq(profiles.fictional, true), eq(profiles.siteId, 1), eq(profiles.status, "active")))
    .orderBy(profiles.id)
    .limit(2);
  if (fictional.length < 2) throw new Error("the demo data has fewer than two site-run profiles on site 1");
});
afterAll(async () => api?.close());

async function member(paying = false) {
  const inserted = await insertMember(api, { passwordHash });
  await api.db.update(users).set({ credits: 100, paidUser: paying }).where(eq(users.id, inserted.userId));
  return { ...inserted, token: await login(api.baseUrl, inserted.email, password) };
}

async function write(from: { token: string }, to: number, body: string) {
  const res = await call(api, "POST", "/api/message.php", { token: from.token, body: { to, body, key: newKey() } });
  expect(res.status, await res.clone().text()).toBe(201);
}

const act = (token: string, body: Record<string, unknown>) => staffCall(api, token, "POST", "/api/staff/inbox-conversation.php", body);
const claimOf = async (token: string, id: number) => InboxActionResponse.parse(await (await act(token, { id, action: "claim" })).json()).claim;
/** The conversation of a member with a site-run profile, by the member's first message there. */
async function conversationOf(token: string, memberProfileId: number, profileId: number): Promise<number> {
  for (const queue of inboxQueueNames) {
    const listed = InboxResponse.parse(await (await staffCall(api, token, "GET", `/api/staff/inbox.php?queue=${queue}&site=1&profile=${profileId}`)).json());
    const found = listed.conversations.find((c) => c.member.profile_id === memberProfileId);
    if (found) return found.id;
  }
  throw new Error("conversation not in the inbox");
}
const claimsOf = async (staffId: number) => api.db.select().from(operatorClaims).where(and(eq(operatorClaims.staffUserId, staffId), sql`${operatorClaims.expiresAt} > now()`));

describe("the operator desk", () => {
  it("holds one conversation per operator; a send, leaving and opening another end a claim; a lost claim is refused with why", async () => {
    const a = await member();
    const b = await member();
    await write(a, fictional[0]!.id, "First, from a");
    await write(b, fictional[0]!.id, "First, from b");
    const account = await newStaff(api, "operator");
    const operator = await staffToken(api, account);
    const colleague = await staffToken(api, await newStaff(api, "operator"));
    const first = await conversationOf(operator, a.profileId, fictional[0]!.id);
    const second = await conversationOf(operator, b.profileId, fictional[0]!.id);

    // Opening another conversation (another tab) ends the claim on the first: one at a time.
    expect(await claimOf(operator, first)).toMatchObject({ mine: true });
    expect(await claimOf(operator, second)).toMatchObject({ mine: true });
    expect((await claimsOf(account.id)).map((c) => c.conversationId)).toEqual([second]);
    // The first tab's answer is refused, not sent: the claim was left (nobody took it again).
    const left = await act(operator, { id: first, action: "reply", text: "From the old tab", key: newKey() });
    expect(left.status).toBe(400);
    expect(ApiError.parse(await left.json()).params).toMatchObject({ claim: "left" });
    // Typing does not take it back either.
    expect(ApiError.parse(await (await act(operator, { id: first, action: "typing" })).json()).params).toMatchObject({ claim: "left" });

    // A colleague takes the first meanwhile: the operator's answer there says who.
    expect(await claimOf(colleague, first)).toMatchObject({ mine: true });
    const taken = await act(operator, { id: first, action: "reply", text: "Too late", key: newKey() });
    expect(ApiError.parse(await taken.json()).params).toMatchObject({ claim: "taken", by: expect.any(String) });

    // The claim runs out: the answer says so.
    await api.db.update(operatorClaims).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(operatorClaims.conversationId, second));
    const expired = await act(operator, { id: second, action: "reply", text: "After a long coffee", key: newKey() });
    expect(ApiError.parse(await expired.json()).params).toMatchObject({ claim: "expired" });

    // Taken again and sent: the send ends the claim, and the colleague sees it free.
    await claimOf(operator, second);
    expect((await act(operator, { id: second, action: "reply", text: "Hello b!", key: newKey() })).status).toBe(200);
    expect(await claimsOf(account.id)).toHaveLength(0);
    expect(await claimOf(colleague, second)).toMatchObject({ mine: true });

    // Leaving with the end time the page saw releases only that claim: a stale beacon ends nothing.
    const [held] = await api.db.select().from(operatorClaims).where(eq(operatorClaims.conversationId, second));
    expect((await act(colleague, { id: second, action: "release", until: new Date(held!.expiresAt.getTime() - 60_000).toISOString() })).status).toBe(200);
    expect(await api.db.select().from(operatorClaims).where(eq(operatorClaims.conversationId, second))).toHaveLength(1);
    expect((await act(colleague, { id: second, action: "release", until: held!.expiresAt.toISOString() })).status).toBe(200);
    expect(await api.db.select().from(operatorClaims).where(eq(operatorClaims.conversationId, second))).toHaveLength(0);
  });

  it("sends and takes the next: the longest wait of the operator's sites, not the one just answered, ending the old claim", async () => {
    const a = await member();
    await write(a, fictional[1]!.id, "Anyone there?");
    const account = await newStaff(api, "operator");
    const operator = await staffToken(api, account);
    const mine = await conversationOf(operator, a.profileId, fictional[1]!.id);
    await claimOf(operator, mine);
    const next = InboxNextResponse.parse(await (await staffCall(api, operator, "POST", "/api/staff/inbox-next.php", { skip: mine })).json()).id;
    expect(next).not.toBe(mine);
    if (next !== null) expect((await claimsOf(account.id)).map((c) => c.conversationId)).toEqual([next]);
    // An operator of no site gets nothing.
    const idle = await staffToken(api, await newStaff(api, "operator", []));
    expect(InboxNextResponse.parse(await (await staffCall(api, idle, "POST", "/api/staff/inbox-next.php", {})).json()).id).toBeNull();
    expect((await staffCall(api, operator, "POST", "/api/staff/inbox-next.php", { skip: "x" })).status).toBe(400);
  });

  it("lists with previews, filters, the first queue with conversations, who answered; notes are per member", async () => {
    const a = await member(true);
    await write(a, fictional[0]!.id, "Preview me, please");
    await write(a, fictional[1]!.id, "And the other profile");
    const account = await newStaff(api, "operator");
    const operator = await staffToken(api, account);
    const one = await conversationOf(operator, a.profileId, fictional[0]!.id);
    const two = await conversationOf(operator, a.profileId, fictional[1]!.id);

    const listed = InboxResponse.parse(await (await staffCall(api, operator, "GET", `/api/staff/inbox.php?queue=new&site=1&profile=${fictional[0]!.id}&paying=1`)).json());
    expect(listed.conversations.every((c) => c.profile.id === fictional[0]!.id && c.member.paying)).toBe(true);
    expect(listed.conversations.find((c) => c.id === one)).toMatchObject({ preview: { kind: "text", text: "Preview me, please" }, answered_by: null });
    expect(listed.thresholds.find((t) => t.site_id === 1)).toMatchObject({ warn_minutes: 15, late_minutes: 60 });
    expect(listed.profiles.map((p) => p.id)).toContain(fictional[0]!.id);

    // Without a queue asked for: the first one that holds conversations.
    const opened = InboxResponse.parse(await (await staffCall(api, operator, "GET", "/api/staff/inbox.php")).json());
    const firstNonEmpty = inboxQueueNames.find((q) => opened.counts[q] > 0);
    expect(opened.queue).toBe(firstNonEmpty);

    // "Answered by" is who sent the answer, not who holds the conversation now.
    await claimOf(operator, one);
    expect((await act(operator, { id: one, action: "reply", text: "Answered", key: newKey() })).status).toBe(200);
    const colleague = await staffToken(api, await newStaff(api, "operator"));
    await claimOf(colleague, one);
    const waiting = InboxResponse.parse(await (await staffCall(api, operator, "GET", `/api/staff/inbox.php?queue=waiting&site=1&profile=${fictional[0]!.id}`)).json());
    const row = waiting.conversations.find((c) => c.id === one);
    expect(row?.answered_by).not.toBeNull();
    expect(row?.answered_by).not.toBe(row?.claimed_by?.name);

    // A note on one of the member's conversations is seen on the other; the context has the member's figures.
    expect((await act(operator, { id: one, action: "note", text: "Prefers short answers." })).status).toBe(200);
    const other = InboxConversation.parse(await (await staffCall(api, operator, "GET", `/api/staff/inbox-conversation.php?id=${two}`)).json());
    expect(other.note?.body).toBe("Prefers short answers.");
    expect(other.member).toMatchObject({ language: "en", spend: [], last_seen: expect.any(String), signup_date: expect.any(String) });

    // The operator's desk: their answer today, the median wait of their sites, no claim held after leaving.
    await act(operator, { id: two, action: "claim" });
    const desk = DeskResponse.parse(await (await staffCall(api, operator, "GET", "/api/staff/desk.php")).json());
    expect(desk).toMatchObject({ answered_today: 1, claim: { id: two } });
    expect(desk.median_wait_seconds).toBeGreaterThanOrEqual(0);
    await act(operator, { id: two, action: "release" });
    expect(DeskResponse.parse(await (await staffCall(api, operator, "GET", "/api/staff/desk.php")).json()).claim).toBeNull();
  });

  it("keeps saved replies per site and profile for admins, audited; operators see the conversation's own", async () => {
    const adminAccount = await newStaff(api, "admin", []);
    const admin = await staffToken(api, adminAccount);
    const operator = await staffToken(api, await newStaff(api, "operator"));
    const title = `Greeting ${process.pid}-${Date.now()}`;
    const save = (token: string, body: Record<string, unknown>) => staffCall(api, token, "POST", "/api/staff/saved-replies.php", body);
    expect((await save(operator, { action: "create", site: 1, profile: null, title, body: "Hi {member}!" })).status).toBe(403);
    expect((await save(admin, { action: "create", site: 1, profile: null, title, body: "Hi {member}!" })).status).toBe(200);
    expect((await save(admin, { action: "create", site: 1, profile: fictional[1]!.id, title: `${title} (2)`, body: "{profile} here" })).status).toBe(200);
    // A profile that is not a site-run profile of the site, an empty title, a bad threshold pair: refused.
    const [notRun] = await api.db.select({ id: profiles.id }).from(profiles).where(and(eq(profiles.fictional, false), eq(profiles.siteId, 1))).limit(1);
    expect((await save(admin, { action: "create", site: 1, profile: notRun!.id, title, body: "x" })).status).toBe(400);
    expect((await save(admin, { action: "create", site: 1, profile: null, title: "", body: "x" })).status).toBe(400);
    expect((await save(admin, { action: "thresholds", site: 1, warn_minutes: 30, late_minutes: 20 })).status).toBe(400);
    expect((await save(admin, { action: "thresholds", site: 999_999, warn_minutes: 10, late_minutes: 20 })).status).toBe(404);

    const list = SavedRepliesResponse.parse(await (await staffCall(api, admin, "GET", "/api/staff/saved-replies.php?site=1")).json());
    const created = list.replies.find((r) => r.title === title)!;
    expect(created).toMatchObject({ body: "Hi {member}!", profile: null });
    expect((await save(admin, { action: "update", id: created.id, site: 1, profile: null, title, body: "Hello {member}!" })).status).toBe(200);

    // The operator's conversation with the first profile offers the site's reply, not the second profile's.
    const a = await member();
    await write(a, fictional[0]!.id, "Saved replies?");
    const opened = InboxConversation.parse(await (await staffCall(api, operator, "GET", `/api/staff/inbox-conversation.php?id=${await conversationOf(operator, a.profileId, fictional[0]!.id)}`)).json());
    expect(opened.saved_replies.map((r) => r.body)).toContain("Hello {member}!");
    expect(opened.saved_replies.map((r) => r.title)).not.toContain(`${title} (2)`);

    expect((await save(admin, { action: "delete", site: 1, id: created.id })).status).toBe(200);
    expect((await save(admin, { action: "delete", site: 1, id: created.id })).status).toBe(404);
    const actions = (await api.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.staffUserId, adminAccount.id))).map((row) => row.action);
    expect(actions.filter((action) => action.startsWith("saved_reply."))).toEqual(["saved_reply.create", "saved_reply.create", "saved_reply.update", "saved_reply.delete"]);
    expect((await staffCall(api, operator, "GET", "/api/staff/saved-replies.php?site=1")).status).toBe(403);
  });
});
