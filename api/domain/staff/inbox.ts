import { aliasedTable, and, asc, desc, eq, gt, inArray, isNotNull, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversationMembers, conversations, messages, operatorClaims, operatorDayRollups, operatorDays, operatorNotes, operatorReplies, photos, profiles, sites, staffUsers, users } from "../../db/schema";
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
export async function inbox(db: Db, staff: StaffMember, queue: InboxQueue, now = new Date(), limit = inboxPageSize): Promise<InboxEntry[]> {
  const order = queue === "stopped" ? [desc(conversations.lastMessageAt), desc(conversations.id)] : [asc(conversations.lastMessageAt), asc(conversations.id)];
  const rows = await inboxRows(db, staff, now, inQueue(queue, now))
    .orderBy(...order)
    .limit(limit);
  return rows.map((row) => ({ ...row, queue: queueOf(row, now) }));
}

export type InboxCounts = { counts: Record<InboxQueue, number>; capped: InboxQueue[] };

/** Each queue's size, counted up to inboxCountCap (`capped`: the queues with more), in one statement. */
export async function inboxCounts(db: Db, staff: StaffMember, now = new Date()): Promise<InboxCounts> {
  const counted = (queue: InboxQueue) =>
    sql<number>`(select count(*)::int from (${db
      .select({ one: sql`1` })
      .from(conversations)
      .where(and(ofInbox(staff), inQueue(queue, now)))
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
 * "held": another operator holds it, until when.
 */
export async function claimConversation(db: Db, staff: StaffMember, conversationId: number, now = new Date()): Promise<ClaimOutcome> {
  const expiresAt = new Date(now.getTime() + claimMs);
  const [won] = await db
    .insert(operatorClaims)
    .values({ conversationId, staffUserId: staff.id, expiresAt })
    .onConflictDoUpdate({
      target: operatorClaims.conversationId,
      set: { staffUserId: staff.id, expiresAt },
      setWhere: or(lt(operatorClaims.expiresAt, now), eq(operatorClaims.staffUserId, staff.id)),
    })
    .returning({ expiresAt: operatorClaims.expiresAt });
  if (won) return { kind: "claimed", expiresAt: won.expiresAt };
  const [holder] = await db
    .select({ staffUserId: operatorClaims.staffUserId, expiresAt: operatorClaims.expiresAt, name: staffUsers.name })
    .from(operatorClaims)
    .innerJoin(staffUsers, eq(staffUsers.id, operatorClaims.staffUserId))
    .where(eq(operatorClaims.conversationId, conversationId));
  if (!holder) return claimConversation(db, staff, conversationId, now);
  return { kind: "held", ...holder };
}

/** Ends the staff member's claim on a conversation (sent, or left); another's claim stays. */
export async function releaseClaim(db: Pick<Db, "delete">, staff: StaffMember, conversationId: number): Promise<void> {
  await db.delete(operatorClaims).where(and(eq(operatorClaims.conversationId, conversationId), eq(operatorClaims.staffUserId, staff.id)));
}

/** Whether the staff member holds a live claim on the conversation. */
export async function holdsClaim(db: Pick<Db, "select">, staff: StaffMember, conversationId: number, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ id: operatorClaims.conversationId })
    .from(operatorClaims)
    .where(and(eq(operatorClaims.conversationId, conversationId), eq(operatorClaims.staffUserId, staff.id), gt(operatorClaims.expiresAt, now)));
  return Boolean(row);
}

/** "Next": the longest-waiting conversation in new or unreplied that nobody holds, claimed; null when there is none. */
export async function claimNext(db: Db, staff: StaffMember, now = new Date()): Promise<number | null> {
  for (const queue of ["new", "unreplied"] as const) {
    const open = (await inbox(db, staff, queue, now)).filter((entry) => entry.claimedBy === null || entry.claimedBy === staff.id);
    for (const entry of open) {
      // Another operator may take it between the list and the claim: then the next one.
      if ((await claimConversation(db, staff, entry.id, now)).kind === "claimed") return entry.id;
    }
  }
  return null;
}

/** Everything the operator sees beside the conversation: both profiles, the member's account, photos, notes and other chats. */
export async function answeringContext(db: Db, staff: StaffMember, entry: InboxEntry) {
  const profile = (id: number) =>
    db
      .select({ profile: profiles, credits: users.credits, paidUser: users.paidUser, cdn: sites.cdnPrefix })
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
    db.select().from(messages).where(eq(messages.conversationId, entry.id)).orderBy(desc(messages.id)).limit(200),
    db
      .select()
      .from(operatorNotes)
      .where(and(eq(operatorNotes.memberProfileId, entry.memberProfileId), eq(operatorNotes.fictionalProfileId, entry.fictionalProfileId))),
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
  return { member, fictional, memberPhotos, fictionalPhotos, thread: thread.reverse(), note: note ?? null, others };
}

/** Saves the shared notes about the member of a pair (one row per pair, the last writer's text). */
export async function saveNote(tx: Pick<Db, "insert">, staff: StaffMember, pair: { memberProfileId: number; fictionalProfileId: number }, body: string): Promise<void> {
  await tx
    .insert(operatorNotes)
    .values({ ...pair, body, updatedBy: staff.id })
    .onConflictDoUpdate({ target: [operatorNotes.memberProfileId, operatorNotes.fictionalProfileId], set: { body, updatedBy: staff.id, updatedAt: new Date() } });
}

/** The operator's record of a reply: who sent it, and how long the member had waited (since their last message before it). */
export async function recordReply(tx: Pick<Db, "insert" | "select">, staff: StaffMember, message: { id: number; conversationId: number; createdAt: Date }, fictionalProfileId: number): Promise<void> {
  const [before] = await tx
    .select({ at: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.conversationId, message.conversationId), lt(messages.id, message.id), ne(messages.senderProfileId, fictionalProfileId)))
    .orderBy(desc(messages.id))
    .limit(1);
  const waitedSeconds = before ? Math.max(0, Math.round((message.createdAt.getTime() - before.at.getTime()) / 1000)) : null;
  await tx.insert(operatorReplies).values({ messageId: message.id, staffUserId: staff.id, conversationId: message.conversationId, waitedSeconds });
  liveFigures.clear();
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
