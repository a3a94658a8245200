import { aliasedTable, and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversationMembers, conversations, memberLogins, messages, operatorClaims, operatorDayRollups, operatorDays, operatorMemberNotes, operatorReplies, payments, photos, profiles, savedReplies, sites, staffUsers, users } from "../../db/schema";
import { inboxQueueNames as inboxQueueNamesList } from "#contract/staff-inbox-queues";
import { onStaffSites, sitesOf } from "./photo-review";
import type { StaffMember } from "./sessions";
import { keptFor } from "../kept-for";
import { startOfUtcDay } from "./dashboard";
import { planEachRun } from "../../db/named-statements";

/**
 * The operator inbox (docs/staff.md): conversations between members and site-run profiles, in queues, each
 * answered by one operator at a time (a claim), as the profile.
 */

export type InboxQueue = (typeof inboxQueueNamesList)[number];

/** A conversation with no message for this long is stopped. */
export const stoppedAfterMs = 7 * 24 * 60 * 60 * 1000;
/** A claim lasts this long unless renewed (typing renews it). */
export const claimMs = 5 * 60 * 1000;

const low = aliasedTable(profiles, "low_profile");
const high = aliasedTable(profiles, "high_profile");
const claimant = aliasedTable(staffUsers, "claimant");

/** The side of a conversation that is the member (the other, conversations.fictional_profile_id, the site-run profile). */
const memberSide = sql<number>`case when ${low.id} = ${conversations.fictionalProfileId} then ${high.id} else ${low.id} end`;
const fictionalSide = sql<number>`${conversations.fictionalProfileId}`;

/** The queue a conversation is in, by its last message and the time. */
function queueOf(row: { lastAt: Date; lastFromMember: boolean; answered: boolean }, now: Date): InboxQueue {
  if (now.getTime() - row.lastAt.getTime() > stoppedAfterMs) return "stopped";
  if (!row.lastFromMember) return "waiting";
  return row.answered ? "unreplied" : "new";
}

/**
 * A queue as conditions on the conversation's inbox state (api/db/schema/chat.ts), each a range of
 * conversations_inbox_idx (or, stopped, of conversations_inbox_stopped_idx).
 */
function inQueue(queue: InboxQueue, now: Date): SQL | undefined {
  const since = new Date(now.getTime() - stoppedAfterMs);
  switch (queue) {
    case "new":
      return and(eq(conversations.lastFromMember, true), eq(conversations.answered, false), gt(conversations.lastMessageAt, since));
    case "unreplied":
      return and(eq(conversations.lastFromMember, true), eq(conversations.answered, true), gt(conversations.lastMessageAt, since));
    case "waiting":
      return and(eq(conversations.lastFromMember, false), eq(conversations.answered, true), gt(conversations.lastMessageAt, since));
    case "stopped":
      return lte(conversations.lastMessageAt, since);
  }
}

/** A member's conversation with a site-run profile, of the staff member's sites. */
function ofInbox(staff: StaffMember): SQL | undefined {
  // Planned with its values on every run (ADR 026): a queue's time bound decides which index range is small.
  return and(isNotNull(conversations.fictionalProfileId), isNotNull(conversations.lastMessageAt), onStaffSites(conversations.siteId, sitesOf(staff)), planEachRun);
}

/** A queue's filters: one site, one site-run profile, paying members only. */
export type InboxFilters = { siteId?: number; profileId?: number; paying?: boolean };

/** How many of a queue's longest waits the paying-members filter looks at (paying is the member's, not the conversation's). */
export const payingFilterWindow = 1000;

/** The filters on the conversation itself: a site-run profile is a range of conversations_inbox_profile_idx; a site narrows the queue's range. */
function filtered(filters: InboxFilters): SQL | undefined {
  return and(filters.siteId ? eq(conversations.siteId, filters.siteId) : undefined, filters.profileId ? eq(conversations.fictionalProfileId, filters.profileId) : undefined);
}

/**
 * The paying members' conversations among a queue's `payingFilterWindow` longest waits, in the queue's order: the
 * paying flag is on the member's account, so the window is read in index order with one primary-key read of the
 * member's profile and account each (a bounded read), and filtered. `full`: the window was full (more may follow).
 */
async function payingInWindow(db: Pick<Db, "select">, staff: StaffMember, queue: InboxQueue, now: Date, filters: InboxFilters): Promise<{ ids: number[]; full: boolean }> {
  const rows = await db
    .select({
      id: conversations.id,
      paying: sql<boolean | null>`(select u.paid_user from profiles p join users u on u.id = p.user_id where p.id = case when ${conversations.lowProfileId} = ${conversations.fictionalProfileId} then ${conversations.highProfileId} else ${conversations.lowProfileId} end)`,
    })
    .from(conversations)
    .where(and(ofInbox(staff), inQueue(queue, now), filtered(filters)))
    .orderBy(...(queue === "stopped" ? [desc(conversations.lastMessageAt), desc(conversations.id)] : [asc(conversations.lastMessageAt), asc(conversations.id)]))
    .limit(payingFilterWindow);
  return { ids: rows.filter((row) => row.paying).map((row) => row.id), full: rows.length === payingFilterWindow };
}

/** The inbox's conversations of the staff member's sites (and `extra`, a further condition). */
function inboxRows(db: Pick<Db, "select">, staff: StaffMember, now: Date, extra?: SQL) {
  return db
    .select({
      id: conversations.id,
      siteId: conversations.siteId,
      siteName: sites.name,
      memberProfileId: memberSide,
      fictionalProfileId: fictionalSide,
      memberName: sql<string>`case when ${low.id} = ${conversations.fictionalProfileId} then ${high.name} else ${low.name} end`,
      fictionalName: sql<string>`case when ${low.id} = ${conversations.fictionalProfileId} then ${low.name} else ${high.name} end`,
      paying: sql<boolean>`(select ${users.paidUser} from ${users} where ${users.id} = case when ${low.id} = ${conversations.fictionalProfileId} then ${high.userId} else ${low.userId} end)`,
      lastAt: sql<Date>`${conversations.lastMessageAt}`.mapWith((value: string | Date) => new Date(value)),
      lastFromMember: conversations.lastFromMember,
      answered: conversations.answered,
      claimedBy: sql<number | null>`case when ${operatorClaims.expiresAt} > ${now.toISOString()}::timestamptz then ${operatorClaims.staffUserId} end`,
      claimedByName: sql<string | null>`case when ${operatorClaims.expiresAt} > ${now.toISOString()}::timestamptz then ${claimant.name} end`,
      // The last message (its kind and the start of its text: the queues' preview) and who sent the profile's last answer.
      // Each a primary-key read per listed row (a join would let the planner read the messages in bulk).
      lastKind: sql<string | null>`(select lm.kind from messages lm where lm.id = ${conversations.lastMessageId})`,
      lastBody: sql<string | null>`(select left(lm.body, 200) from messages lm where lm.id = ${conversations.lastMessageId})`,
      answeredByName: sql<string | null>`(select su.name from operator_replies r join staff_users su on su.id = r.staff_user_id where r.message_id = ${conversations.lastAnswerId})`,
    })
    .from(conversations)
    .innerJoin(low, eq(low.id, conversations.lowProfileId))
    .innerJoin(high, eq(high.id, conversations.highProfileId))
    .innerJoin(sites, eq(sites.id, conversations.siteId))
    .leftJoin(operatorClaims, eq(operatorClaims.conversationId, conversations.id))
    .leftJoin(claimant, eq(claimant.id, operatorClaims.staffUserId))
    .where(and(ofInbox(staff), extra));
}

export type InboxEntry = Awaited<ReturnType<ReturnType<typeof inboxRows>["execute"]>>[number] & { queue: InboxQueue };

/** How many conversations a queue's page lists, and up to how many its count counts (above it: "more than"). */
export const inboxPageSize = 100;
export const inboxCountCap = 1000;

/**
 * One queue of the inbox of the staff member's sites, `inboxPageSize` at most: the longest wait first (the oldest last
 * message), the stopped ones the most recently stopped first.
 */
export async function inbox(db: Db, staff: StaffMember, queue: InboxQueue, now = new Date(), limit = inboxPageSize, filters: InboxFilters = {}): Promise<InboxEntry[]> {
  const order = queue === "stopped" ? [desc(conversations.lastMessageAt), desc(conversations.id)] : [asc(conversations.lastMessageAt), asc(conversations.id)];
  const paying = filters.paying ? (await payingInWindow(db, staff, queue, now, filters)).ids.slice(0, limit) : null;
  if (paying && paying.length === 0) return [];
  const rows = await inboxRows(db, staff, now, and(inQueue(queue, now), filtered(filters), paying ? inArray(conversations.id, paying) : undefined))
    .orderBy(...order)
    .limit(limit);
  return rows.map((row) => ({ ...row, queue: queueOf(row, now) }));
}

export type InboxCounts = { counts: Record<InboxQueue, number>; capped: InboxQueue[] };

/** Each queue's size, counted up to inboxCountCap (`capped`: the queues with more), in one statement. */
export async function inboxCounts(db: Db, staff: StaffMember, now = new Date(), filters: InboxFilters = {}): Promise<InboxCounts> {
  if (filters.paying) {
    // Paying members: counted among each queue's longest waits (payingInWindow); a full window is "more than".
    const windows = await Promise.all(inboxQueueNamesList.map((queue) => payingInWindow(db, staff, queue, now, filters)));
    const counts = { new: 0, unreplied: 0, waiting: 0, stopped: 0 };
    const capped: InboxQueue[] = [];
    inboxQueueNamesList.forEach((queue, i) => {
      counts[queue] = windows[i]!.ids.length;
      if (windows[i]!.full) capped.push(queue);
    });
    return { counts, capped };
  }
  const counted = (queue: InboxQueue) =>
    sql<number>`(select count(*)::int from (${db
      .select({ one: sql`1` })
      .from(conversations)
      .where(and(ofInbox(staff), inQueue(queue, now), filtered(filters)))
      // In the queue's index order: a queue of a few dozen is estimated at a fifth of the table, and without the order
      // the planner scans the table for the 1,001 it expects to find at once (170 ms at a million conversations).
      .orderBy(queue === "stopped" ? desc(conversations.lastMessageAt) : asc(conversations.lastMessageAt))
      .limit(inboxCountCap + 1)}) bounded)`;
  const [row] = await db
    .select({ new: counted("new"), unreplied: counted("unreplied"), waiting: counted("waiting"), stopped: counted("stopped") })
    .from(sql`(select 1) as one`);
  const counts = { new: 0, unreplied: 0, waiting: 0, stopped: 0 };
  const capped: InboxQueue[] = [];
  for (const queue of inboxQueueNamesList) {
    const n = Number(row?.[queue] ?? 0);
    counts[queue] = Math.min(n, inboxCountCap);
    if (n > inboxCountCap) capped.push(queue);
  }
  return { counts, capped };
}

/**
 * What changes when the inbox does, cheaply: the newest last message of the staff member's sites' conversations and
 * the live claims (few rows). The staff stream (api/http/staff-events.ts) sends the counts again when it changes.
 */
export async function inboxVersion(db: Db, staff: StaffMember, now = new Date()): Promise<string> {
  const [newest] = await db
    .select({ at: conversations.lastMessageAt, id: conversations.id })
    .from(conversations)
    .where(ofInbox(staff))
    .orderBy(desc(conversations.lastMessageAt))
    .limit(1);
  const claims = await db
    .select({ id: operatorClaims.conversationId, by: operatorClaims.staffUserId, until: operatorClaims.expiresAt })
    .from(operatorClaims)
    .where(gt(operatorClaims.expiresAt, now))
    .orderBy(asc(operatorClaims.conversationId));
  return [`${newest?.id ?? 0}@${newest?.at ? new Date(newest.at).getTime() : 0}`, ...claims.map((c) => `${c.id}:${c.by}`)].join(",");
}

/** One conversation of the inbox (of the staff member's sites), or null. */
export async function inboxEntry(db: Pick<Db, "select">, staff: StaffMember, conversationId: number, now = new Date()): Promise<InboxEntry | null> {
  const [row] = await inboxRows(db, staff, now, eq(conversations.id, conversationId));
  return row ? { ...row, queue: queueOf(row, now) } : null;
}

export type ClaimOutcome = { kind: "claimed"; expiresAt: Date } | { kind: "held"; staffUserId: number; name: string; expiresAt: Date };

/**
 * Claims a conversation for the staff member for 5 minutes (or renews their claim): one conditional upsert, taken only
 * when nobody holds it or the holder's claim has run out, so of two operators at once (on any api instance) one wins.
 * An operator holds one conversation at a time: winning it ends their claims on any other, in the same transaction.
 * "held": another operator holds it, until when.
 */
export async function claimConversation(db: Db, staff: StaffMember, conversationId: number, now = new Date()): Promise<ClaimOutcome> {
  const expiresAt = new Date(now.getTime() + claimMs);
  const won = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(operatorClaims)
      .values({ conversationId, staffUserId: staff.id, expiresAt })
      .onConflictDoUpdate({
        target: operatorClaims.conversationId,
        set: { staffUserId: staff.id, expiresAt },
        setWhere: or(lt(operatorClaims.expiresAt, now), eq(operatorClaims.staffUserId, staff.id)),
      })
      .returning({ expiresAt: operatorClaims.expiresAt });
    if (row) await tx.delete(operatorClaims).where(and(eq(operatorClaims.staffUserId, staff.id), ne(operatorClaims.conversationId, conversationId)));
    return row;
  });
  if (won) return { kind: "claimed", expiresAt: won.expiresAt };
  const [holder] = await db
    .select({ staffUserId: operatorClaims.staffUserId, expiresAt: operatorClaims.expiresAt, name: staffUsers.name })
    .from(operatorClaims)
    .innerJoin(staffUsers, eq(staffUsers.id, operatorClaims.staffUserId))
    .where(eq(operatorClaims.conversationId, conversationId));
  if (!holder) return claimConversation(db, staff, conversationId, now);
  return { kind: "held", ...holder };
}

/**
 * Why a staff member no longer holds a conversation they opened: `taken` (another operator holds it now), `expired`
 * (their claim ran out), `left` (it was released: left, answered, or another conversation opened, in another tab too).
 */
export type LostClaim = { kind: "taken"; name: string; expiresAt: Date } | { kind: "expired" } | { kind: "left" };

/**
 * Renews the staff member's live claim (typing, sending): one conditional update that holds only while the claim is
 * theirs and has not run out; else why it is lost. A lost claim is never taken again by a send: the operator sees why.
 */
export async function renewClaim(db: Pick<Db, "update" | "select">, staff: StaffMember, conversationId: number, now = new Date()): Promise<{ kind: "held"; expiresAt: Date } | LostClaim> {
  const expiresAt = new Date(now.getTime() + claimMs);
  const [renewed] = await db
    .update(operatorClaims)
    .set({ expiresAt })
    .where(and(eq(operatorClaims.conversationId, conversationId), eq(operatorClaims.staffUserId, staff.id), gt(operatorClaims.expiresAt, now)))
    .returning({ expiresAt: operatorClaims.expiresAt });
  if (renewed) return { kind: "held", expiresAt: renewed.expiresAt };
  const [row] = await db
    .select({ staffUserId: operatorClaims.staffUserId, expiresAt: operatorClaims.expiresAt, name: staffUsers.name })
    .from(operatorClaims)
    .innerJoin(staffUsers, eq(staffUsers.id, operatorClaims.staffUserId))
    .where(eq(operatorClaims.conversationId, conversationId));
  if (row && row.staffUserId !== staff.id && row.expiresAt > now) return { kind: "taken", name: row.name, expiresAt: row.expiresAt };
  if (row && row.staffUserId === staff.id) return { kind: "expired" };
  return { kind: "left" };
}

/**
 * Ends the staff member's claim on a conversation (sent, or left); another's claim stays. `until`: only the claim the
 * page saw (its end time), so a late release beacon of a page that was reloaded does not end the claim the reload took.
 */
export async function releaseClaim(db: Pick<Db, "delete">, staff: StaffMember, conversationId: number, until?: Date): Promise<void> {
  await db
    .delete(operatorClaims)
    .where(and(eq(operatorClaims.conversationId, conversationId), eq(operatorClaims.staffUserId, staff.id), until ? eq(operatorClaims.expiresAt, until) : undefined));
}

/** Whether the staff member holds a live claim on the conversation. */
export async function holdsClaim(db: Pick<Db, "select">, staff: StaffMember, conversationId: number, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ id: operatorClaims.conversationId })
    .from(operatorClaims)
    .where(and(eq(operatorClaims.conversationId, conversationId), eq(operatorClaims.staffUserId, staff.id), gt(operatorClaims.expiresAt, now)));
  return Boolean(row);
}

/**
 * "Next": the longest-waiting conversation waiting for an answer (new or unreplied, merged by their wait) of the staff
 * member's sites that nobody else holds, claimed (ending the operator's other claim); null when there is none.
 * `skip`: a conversation not to take (the one just answered).
 */
export async function claimNext(db: Db, staff: StaffMember, now = new Date(), filters: InboxFilters = {}, skip?: number): Promise<number | null> {
  const [fresh, unreplied] = await Promise.all([inbox(db, staff, "new", now, inboxPageSize, filters), inbox(db, staff, "unreplied", now, inboxPageSize, filters)]);
  const open = [...fresh, ...unreplied]
    .filter((entry) => entry.id !== skip && (entry.claimedBy === null || entry.claimedBy === staff.id))
    .sort((a, b) => a.lastAt.getTime() - b.lastAt.getTime() || a.id - b.id);
  for (const entry of open) {
    // Another operator may take it between the list and the claim: then the next one.
    if ((await claimConversation(db, staff, entry.id, now)).kind === "claimed") return entry.id;
  }
  return null;
}

/** The staff member's live claim, if any (an operator holds one at a time), with its conversation's names. */
export async function ownClaim(db: Db, staff: StaffMember, now = new Date()): Promise<InboxEntry | null> {
  const [claim] = await db
    .select({ id: operatorClaims.conversationId })
    .from(operatorClaims)
    .where(and(eq(operatorClaims.staffUserId, staff.id), gt(operatorClaims.expiresAt, now)))
    .limit(1);
  return claim ? inboxEntry(db, staff, claim.id, now) : null;
}

/** Everything the operator sees beside the conversation: both profiles, the member's account, photos, notes and other chats. */
export async function answeringContext(db: Db, staff: StaffMember, entry: InboxEntry) {
  const profile = (id: number) =>
    db
      .select({ profile: profiles, credits: users.credits, paidUser: users.paidUser, signupDate: users.signupDate, language: users.language, cdn: sites.cdnPrefix })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .innerJoin(sites, eq(sites.id, profiles.siteId))
      .where(eq(profiles.id, id))
      .then((rows) => rows[0] ?? null);
  const photosOf = (id: number) =>
    db
      .select({ id: photos.id, thumbFilename: photos.thumbFilename, filename: photos.filename })
      .from(photos)
      .where(and(eq(photos.profileId, id), eq(photos.status, "active")))
      .orderBy(asc(photos.position), asc(photos.id));
  const [member, fictional, memberPhotos, fictionalPhotos, thread, [note], others] = await Promise.all([
    profile(entry.memberProfileId),
    profile(entry.fictionalProfileId),
    photosOf(entry.memberProfileId),
    photosOf(entry.fictionalProfileId),
    // Held and rejected messages (docs/staff.md, contact details in chat) were never delivered: the operator does not see them.
    db.select().from(messages).where(and(eq(messages.conversationId, entry.id), isNull(messages.moderation))).orderBy(desc(messages.id)).limit(200),
    db.select().from(operatorMemberNotes).where(eq(operatorMemberNotes.memberProfileId, entry.memberProfileId)),
    // The member's other conversations with site-run profiles, found through the member's own conversation rows.
    inboxRows(
      db,
      staff,
      new Date(),
      and(
        inArray(conversations.id, db.select({ id: conversationMembers.conversationId }).from(conversationMembers).where(eq(conversationMembers.profileId, entry.memberProfileId))),
        ne(conversations.id, entry.id),
      ),
    )
      .orderBy(desc(conversations.lastMessageAt))
      .limit(20),
  ]);
  const userId = member?.profile.userId ?? 0;
  const [spend, [lastLogin], replies] = await Promise.all([
    // A member's payments are few (payments_user_idx): their sum per currency.
    db
      .select({ currency: payments.currency, amount: sql<number>`sum(${payments.amount})::int` })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, "paid")))
      .groupBy(payments.currency)
      .orderBy(asc(payments.currency)),
    db.select({ at: memberLogins.at }).from(memberLogins).where(eq(memberLogins.userId, userId)).orderBy(desc(memberLogins.at)).limit(1),
    savedRepliesFor(db, entry.siteId, entry.fictionalProfileId),
  ]);
  const threadUp = thread.reverse();
  const lastFromMember = [...threadUp].reverse().find((message) => message.senderProfileId === entry.memberProfileId)?.createdAt ?? null;
  // Last seen: the later of the member's newest login and their newest message here.
  const lastSeen = [lastLogin?.at ?? null, lastFromMember].filter((at): at is Date => at !== null).sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
  return { member, fictional, memberPhotos, fictionalPhotos, thread: threadUp, note: note ?? null, others, spend, lastSeen, savedReplies: replies };
}

/** The saved replies an operator may insert in a conversation: the site's, and the site-run profile's own (50 at most). */
export async function savedRepliesFor(db: Pick<Db, "select">, siteId: number, fictionalProfileId: number) {
  return db
    .select({ id: savedReplies.id, title: savedReplies.title, body: savedReplies.body, profileId: savedReplies.fictionalProfileId })
    .from(savedReplies)
    .where(and(eq(savedReplies.siteId, siteId), or(isNull(savedReplies.fictionalProfileId), eq(savedReplies.fictionalProfileId, fictionalProfileId))))
    .orderBy(sql`${savedReplies.fictionalProfileId} is null`, asc(savedReplies.title), asc(savedReplies.id))
    .limit(50);
}

/** Saves the shared notes about a member (one row per member, the last writer's text), seen on all the member's conversations. */
export async function saveNote(tx: Pick<Db, "insert">, staff: StaffMember, memberProfileId: number, body: string): Promise<void> {
  await tx
    .insert(operatorMemberNotes)
    .values({ memberProfileId, body, updatedBy: staff.id })
    .onConflictDoUpdate({ target: operatorMemberNotes.memberProfileId, set: { body, updatedBy: staff.id, updatedAt: new Date() } });
}

/** The operator's record of a reply: who sent it, and how long the member had waited (since their last message before it). */
export async function recordReply(tx: Pick<Db, "insert" | "select">, staff: StaffMember, message: { id: number; conversationId: number; createdAt: Date }, fictionalProfileId: number): Promise<void> {
  const [before] = await tx
    .select({ at: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.conversationId, message.conversationId), lt(messages.id, message.id), ne(messages.senderProfileId, fictionalProfileId), isNull(messages.moderation)))
    .orderBy(desc(messages.id))
    .limit(1);
  const waitedSeconds = before ? Math.max(0, Math.round((message.createdAt.getTime() - before.at.getTime()) / 1000)) : null;
  await tx.insert(operatorReplies).values({ messageId: message.id, staffUserId: staff.id, conversationId: message.conversationId, waitedSeconds });
  // This instance's kept figures of the day count answers: they are read again (other instances within a minute).
  liveFigures.clear();
  deskMedians.clear();
}

export type OperatorDay = {
  staffUserId: number;
  name: string;
  day: string;
  replies: number;
  conversations: number;
  medianSeconds: number | null;
  p90Seconds: number | null;
  memberMessagesAfter: number;
};

/** The figures' columns over a set of operator_replies rows `r`, grouped by operator and UTC day. */
const figureColumns = sql`r.staff_user_id, (r.created_at at time zone 'utc')::date as day,
           count(*)::int as replies,
           count(distinct r.conversation_id)::int as conversations,
           round(percentile_cont(0.5) within group (order by r.waited_seconds))::int as median_seconds,
           round(percentile_cont(0.9) within group (order by r.waited_seconds))::int as p90_seconds,
           coalesce(sum(r.member_messages_after), 0)::int as member_messages_after`;

const dayMs = 86_400_000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Reckons the figures of the finished days from `from` up to (not including) `until` that have none yet (one aggregate
 * over those days' replies, by operator_replies_created_idx), so each day is read from operator_replies once.
 * Instances reckoning the same day at once write it once (the keys).
 */
async function reckonDays(db: Db, from: Date, until: Date): Promise<void> {
  if (from >= until) return;
  const missing = await db.execute<{ day: string }>(sql`
    select to_char(d, 'YYYY-MM-DD') as day from generate_series(${isoDay(from)}::date, ${isoDay(until)}::date - 1, interval '1 day') d
     where not exists (select 1 from ${operatorDayRollups} r where r.day = d::date)
     order by d`);
  // In day order (the anti-join may hand them back in any): the first and last bound the range read below.
  const days = (missing as unknown as { rows: { day: string }[] }).rows.map((row) => row.day);
  if (days.length === 0) return;
  const first = days[0]!;
  const last = days[days.length - 1]!;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into ${operatorDays} (staff_user_id, day, replies, conversations, median_seconds, p90_seconds, member_messages_after)
      select ${figureColumns}
        from ${operatorReplies} r
       where r.created_at >= (${first}::date::timestamp at time zone 'utc') and r.created_at < ((${last}::date + 1)::timestamp at time zone 'utc')
         and (r.created_at at time zone 'utc')::date = any(${`{${days.join(",")}}`}::date[])
       group by r.staff_user_id, day
      on conflict do nothing`);
    await tx.insert(operatorDayRollups).values(days.map((day) => ({ day }))).onConflictDoNothing();
  });
}

/**
 * The operators' figures per operator and day (UTC) from `from` on (docs/staff.md, the operator figures): replies
 * sent, conversations handled, the median and 90th percentile of how long members had waited for those replies, and
 * the member messages that followed a reply (before the profile's next message; counted by send_message as they
 * come). Days that ended over a day ago are reckoned once and kept (operator_days); yesterday and today are reckoned
 * from their replies, at most once a minute per instance (liveFigures), so the cost is that of two days whatever the
 * range, and the live days' figures are at most a minute old (or as new as this instance's last reply).
 */
export async function operatorFigures(db: Db, from: Date, now = new Date()): Promise<OperatorDay[]> {
  const live = new Date(startOfUtcDay(now).getTime() - dayMs);
  await reckonDays(db, startOfUtcDay(from), live);
  return liveFigures.get(`${isoDay(from)}:${isoDay(live)}`, () => readFigures(db, from, live));
}

/**
 * The figures of the live days (yesterday and today) take a day's replies to read (tens of thousands on a large site):
 * kept a minute per api instance, and forgotten when this instance records a reply.
 */
const liveFigures = keptFor<OperatorDay[]>(60_000);

async function readFigures(db: Db, from: Date, live: Date): Promise<OperatorDay[]> {
  const result = await db.execute<{ staff_user_id: number; name: string; day: string; replies: number; conversations: number; median_seconds: number | null; p90_seconds: number | null; member_messages_after: number }>(sql`
    select f.staff_user_id, s.name, to_char(f.day, 'YYYY-MM-DD') as day, f.replies, f.conversations, f.median_seconds, f.p90_seconds, f.member_messages_after
      from (select staff_user_id, day, replies, conversations, median_seconds, p90_seconds, member_messages_after
              from ${operatorDays} where day >= ${isoDay(from)}::date and day < ${isoDay(live)}::date
            union all
            select ${figureColumns}
              from ${operatorReplies} r
             where r.created_at >= ${(from > live ? from : live).toISOString()}::timestamptz
             group by r.staff_user_id, day) f
      join ${staffUsers} s on s.id = f.staff_user_id
     order by f.day desc, s.name`);
  const rows = (result as unknown as { rows: { staff_user_id: number; name: string; day: string; replies: number; conversations: number; median_seconds: number | null; p90_seconds: number | null; member_messages_after: number }[] }).rows;
  return rows.map((row) => ({
    staffUserId: Number(row.staff_user_id),
    name: row.name,
    day: row.day,
    replies: Number(row.replies),
    conversations: Number(row.conversations),
    medianSeconds: row.median_seconds === null ? null : Number(row.median_seconds),
    p90Seconds: row.p90_seconds === null ? null : Number(row.p90_seconds),
    memberMessagesAfter: Number(row.member_messages_after),
  }));
}

/** How many of the newest answers of the day the desk's median wait reads at most. */
export const deskMedianSample = 1000;

/**
 * An operator's own figures for the dashboard (docs/staff.md, the desk): the conversation they hold, their answers
 * today (operator_replies_staff_idx), and the median wait of today's answers on their sites (the newest 1,000 at
 * most, by operator_replies_created_idx, so the figure costs the same on any day).
 */
export async function operatorDesk(db: Db, staff: StaffMember, now = new Date()) {
  const since = startOfUtcDay(now);
  const siteIds = sitesOf(staff);
  const [claim, [answered], median] = await Promise.all([
    ownClaim(db, staff, now),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(operatorReplies)
      .where(and(eq(operatorReplies.staffUserId, staff.id), gte(operatorReplies.createdAt, since))),
    deskMedians.get(`${siteIds?.join(",") ?? "all"}@${since.toISOString()}`, () => readDeskMedian(db, siteIds, since), now.getTime()),
  ]);
  return { claim, answeredToday: answered?.n ?? 0, medianWaitSeconds: median };
}

/**
 * The median wait of the day's newest answers on a set of sites is the same for every operator of those sites: kept a
 * minute per api instance (api/domain/kept-for.ts), as the dashboard's figures of the day are.
 */
const deskMedians = keptFor<number | null>(60_000);

async function readDeskMedian(db: Db, siteIds: number[] | null, since: Date): Promise<number | null> {
  const [median] = await db
    .select({ seconds: sql<number | null>`round(percentile_cont(0.5) within group (order by recent.waited_seconds))::int` })
    .from(
      db
        .select({ waited_seconds: operatorReplies.waitedSeconds })
        .from(operatorReplies)
        .innerJoin(conversations, eq(conversations.id, operatorReplies.conversationId))
        .where(and(gte(operatorReplies.createdAt, since), isNotNull(operatorReplies.waitedSeconds), onStaffSites(conversations.siteId, siteIds)))
        .orderBy(desc(operatorReplies.createdAt))
        .limit(deskMedianSample)
        .as("recent"),
    );
  return median?.seconds ?? null;
}
