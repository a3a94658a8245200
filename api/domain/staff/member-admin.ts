import { and, desc, eq, inArray, sql, TransactionRollbackError, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversationMembers, creditLedger, memberLogins, payments, photos, profiles, sessions, sites, staffUsers, users } from "../../db/schema";
import type { ModerationReason } from "#contract/staff-moderation";
import { liftSuspension, loginsKept } from "../login";
import { recordAudit } from "./audit";
import { takeFormKey } from "./form-keys";
import { staleRefundClaimMs } from "../payments/payments";
import { onStaffSites, sitesOf } from "./photo-review";
import type { StaffMember } from "./sessions";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const memberColumns = {
  userId: users.id,
  profileId: profiles.id,
  name: profiles.name,
  email: users.email,
  siteId: users.siteId,
  siteName: sites.name,
  status: users.status,
  suspensionReason: users.suspensionReason,
  suspendedUntil: users.suspendedUntil,
  credits: users.credits,
  paidUser: users.paidUser,
  signupDate: users.signupDate,
};

export type MemberRow = {
  userId: number;
  profileId: number;
  name: string;
  email: string;
  siteId: number;
  siteName: string;
  status: (typeof users.$inferSelect)["status"];
  suspensionReason: string | null;
  suspendedUntil: Date | null;
  credits: number;
  paidUser: boolean;
  signupDate: Date;
};

/** Whether a suspension or ban is in force now. */
export function isSuspended(row: { suspensionReason: string | null; suspendedUntil: Date | null }, now = new Date()): boolean {
  return row.suspensionReason !== null && (row.suspendedUntil === null || row.suspendedUntil > now);
}

const memberSearchLimit = 50;
/** How many members a name's or an address's beginning reads at most before the newest 50 are shown. */
const memberSearchCandidates = 1000;

/**
 * docs/staff.md members: find members of the staff member's sites by id (a number), payment id or reference (ours or
 * the provider's), e-mail address (the whole address, any case) or the beginning of an address or a profile name,
 * newest first. Each way is an index lookup (api/db/schema: users_email_search_idx, profiles_name_search_idx, the
 * payments' reference indexes); a beginning reads at most memberSearchCandidates matches, so a common name answers as
 * fast as a rare one. Never a scan of every member.
 */
export async function searchMembers(db: Db, staff: StaffMember, q: string): Promise<MemberRow[]> {
  const term = q.trim();
  if (term === "") return [];
  const lowered = term.toLowerCase();
  const beginning = `${lowered.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const number = /^\d{1,9}$/.test(term) ? Number(term) : null;
  const candidates: SQL[] = [
    sql`select ${payments.userId} from ${payments} where ${payments.reference} = ${term}`,
    sql`select ${payments.userId} from ${payments} where ${payments.providerReference} = ${term}`,
  ];
  if (number !== null) candidates.push(sql`select ${number}::int`, sql`select ${payments.userId} from ${payments} where ${payments.id} = ${number}`);
  if (term.includes("@")) {
    candidates.push(sql`select ${users.id} from ${users} where lower(${users.email}) = ${lowered}`);
  } else {
    candidates.push(
      sql`(select ${profiles.userId} from ${profiles} where lower(${profiles.name}) like ${beginning} limit ${memberSearchCandidates})`,
      sql`(select ${users.id} from ${users} where lower(${users.email}) like ${beginning} limit ${memberSearchCandidates})`,
    );
  }
  return db
    .select(memberColumns)
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(
      and(
        onStaffSites(users.siteId, sitesOf(staff)),
        // Every site's staff (admins) need only the newest 50 candidates: the rest are never joined.
        sitesOf(staff) === null
          ? sql`${users.id} in (select id from (${sql.join(candidates, sql` union `)}) as candidate(id) order by id desc limit ${memberSearchLimit})`
          : sql`${users.id} in (${sql.join(candidates, sql` union `)})`,
      ),
    )
    .orderBy(desc(users.id))
    .limit(memberSearchLimit);
}

/** One member of the staff member's sites, or null. */
export async function memberOf(db: Db | Tx, staff: StaffMember, userId: number): Promise<MemberRow | null> {
  const [row] = await db
    .select(memberColumns)
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(and(eq(users.id, userId), onStaffSites(users.siteId, sitesOf(staff))))
    .limit(1);
  return row ?? null;
}

/** Everything the member page shows besides reports (api/domain/staff/reports.ts). */
export async function memberPage(db: Db, userId: number) {
  const [profile] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  const [user] = await db.select({ emailConfirmedAt: users.emailConfirmedAt, debitBlockedAt: users.debitBlockedAt }).from(users).where(eq(users.id, userId)).limit(1);
  if (!profile || !user) return null;
  const [photoRows, ledger, [sum], paymentRows, logins, [chats], [site]] = await Promise.all([
    db.select().from(photos).where(eq(photos.profileId, profile.id)).orderBy(photos.position, photos.id),
    db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(desc(creditLedger.id)).limit(100),
    db.select({ n: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int` }).from(creditLedger).where(eq(creditLedger.userId, userId)),
    db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.id)).limit(100),
    db.select().from(memberLogins).where(eq(memberLogins.userId, userId)).orderBy(desc(memberLogins.id)).limit(loginsKept),
    db.select({ n: sql<number>`count(*)::int` }).from(conversationMembers).where(eq(conversationMembers.profileId, profile.id)),
    db.select({ refundDays: sites.refundDays }).from(sites).where(eq(sites.id, profile.siteId)),
  ]);
  return { profile, user, photos: photoRows, ledger: await withStaffNames(db, ledger), ledgerSum: sum?.n ?? 0, payments: paymentRows, logins, conversations: chats?.n ?? 0, refundDays: site?.refundDays ?? 0 };
}

/** A staff entry's reference as written by adjustCredits: "staff:{id}: {note}". */
const staffReference = /^staff:(\d{1,9}): /;

/** The ledger with each staff entry's "staff:{id}" replaced by that staff member's name (one lookup for the page's few ids). */
async function withStaffNames<T extends { reference: string | null }>(db: Db, ledger: T[]): Promise<T[]> {
  const ids = [...new Set(ledger.flatMap((entry) => (entry.reference ? [Number(staffReference.exec(entry.reference)?.[1] ?? 0)] : [])).filter((id) => id > 0))];
  if (ids.length === 0) return ledger;
  const names = new Map((await db.select({ id: staffUsers.id, name: staffUsers.name }).from(staffUsers).where(inArray(staffUsers.id, ids))).map((row) => [row.id, row.name]));
  return ledger.map((entry) => {
    const id = entry.reference ? Number(staffReference.exec(entry.reference)?.[1] ?? 0) : 0;
    const name = names.get(id);
    return name && entry.reference ? { ...entry, reference: entry.reference.replace(staffReference, `${name}: `) } : entry;
  });
}

/**
 * Whether a payment can still be refunded (the logic of refundPayment: paid, or a refund claimed so long ago that its
 * process died before the provider answered; within the site's refund_days).
 */
export function refundable(payment: { status: string; paidAt: Date | null; refundedAt: Date | null }, refundDays: number, now = new Date()): boolean {
  const claimable = payment.status === "paid" || (payment.status === "refunding" && payment.refundedAt !== null && now.getTime() - payment.refundedAt.getTime() > staleRefundClaimMs);
  return claimable && payment.paidAt !== null && now.getTime() - payment.paidAt.getTime() <= refundDays * 86_400_000;
}

/**
 * Suspends a member until a time, or bans them (until null), with a reason: their sessions end (the event streams
 * close at their next heartbeat), their profile is hidden, and login shows /pages/ban with the reason and the end.
 */
export async function suspendMember(db: Db, staff: StaffMember, clientIp: string | null, member: MemberRow, reason: ModerationReason, until: Date | null): Promise<void> {
  await db.transaction((tx) => suspendMemberIn(tx, staff, clientIp, member, reason, until));
}

/** suspendMember in the caller's transaction (a report decided in one step). */
export async function suspendMemberIn(tx: Db | Tx, staff: StaffMember, clientIp: string | null, member: MemberRow, reason: ModerationReason, until: Date | null): Promise<void> {
  await tx.update(users).set({ suspensionReason: reason, suspendedUntil: until }).where(eq(users.id, member.userId));
  await tx.update(profiles).set({ status: "disabled" }).where(eq(profiles.userId, member.userId));
  await tx.delete(sessions).where(eq(sessions.userId, member.userId));
  await recordAudit(tx, staff, clientIp, {
    action: until ? "member.suspend" : "member.ban",
    targetType: "member",
    targetId: member.userId,
    siteId: member.siteId,
    changes: {
      suspension_reason: { before: member.suspensionReason, after: reason },
      suspended_until: { before: member.suspendedUntil?.toISOString() ?? null, after: until?.toISOString() ?? null },
    },
  });
}

/** Lifts a suspension or ban (the member may log in again; an active account's profile is shown again). */
export async function liftMember(db: Db, staff: StaffMember, clientIp: string | null, member: MemberRow): Promise<void> {
  await db.transaction(async (tx) => {
    await liftSuspension(tx, member.userId);
    await recordAudit(tx, staff, clientIp, {
      action: "member.lift",
      targetType: "member",
      targetId: member.userId,
      siteId: member.siteId,
      changes: { suspension_reason: { before: member.suspensionReason, after: null }, suspended_until: { before: member.suspendedUntil?.toISOString() ?? null, after: null } },
    });
  });
}

/**
 * Hides a member's profile from everyone (search, member page, likes), or shows it again (an active, unsuspended
 * account only: false otherwise), with its audit entry, in the caller's transaction.
 */
export async function setProfileShown(tx: Db | Tx, staff: StaffMember, clientIp: string | null, member: MemberRow, shown: boolean): Promise<boolean> {
  if (shown && (member.status !== "active" || isSuspended(member))) return false;
  const [before] = await tx.select({ status: profiles.status }).from(profiles).where(eq(profiles.userId, member.userId)).limit(1);
  await tx.update(profiles).set({ status: shown ? "active" : "disabled" }).where(eq(profiles.userId, member.userId));
  await recordAudit(tx, staff, clientIp, {
    action: shown ? "member.show_profile" : "member.hide_profile",
    targetType: "member",
    targetId: member.userId,
    siteId: member.siteId,
    changes: { profile_status: { before: before?.status ?? null, after: shown ? "active" : "disabled" } },
  });
  return true;
}

/**
 * Grants or deducts credits (never below zero) with its ledger entry and audit entry in one transaction, so the balance
 * stays the ledger's sum; once per form: the form's key is taken in the same transaction (a replay, or an identical
 * post at once, waits for the first and then books nothing: "replay"). False: the member has fewer credits than the
 * deduction.
 */
export async function adjustCredits(db: Db, staff: StaffMember, clientIp: string | null, member: MemberRow, delta: number, note: string, formKey: string, now = new Date()): Promise<boolean | "replay"> {
  const booked = db.transaction(async (tx) => {
    if (!(await takeFormKey(tx, staff, formKey, now))) return "replay" as const;
    const [row] = await tx
      .update(users)
      .set({ credits: sql`${users.credits} + ${delta}` })
      .where(and(eq(users.id, member.userId), sql`${users.credits} + ${delta} >= 0`))
      .returning({ credits: users.credits });
    // Refused: the form's key is given back with the rest, so the same form can be sent again once it would fit.
    if (!row) return tx.rollback();
    await tx.insert(creditLedger).values({ userId: member.userId, delta, balanceAfter: row.credits, reason: "staff", reference: `staff:${staff.id}: ${note}`.slice(0, 240), createdAt: now });
    await recordAudit(tx, staff, clientIp, {
      action: delta > 0 ? "member.credits_grant" : "member.credits_deduct",
      targetType: "member",
      targetId: member.userId,
      siteId: member.siteId,
      changes: { credits: { before: row.credits - delta, after: row.credits }, note: { before: null, after: note } },
    });
    return true;
  });
  return booked.catch((error: unknown) => {
    if (error instanceof TransactionRollbackError) return false;
    throw error;
  });
}

/** Lifts the direct-debit block a bounced debit set. False: there was none. */
export async function liftDebitBlock(db: Db, staff: StaffMember, clientIp: string | null, member: MemberRow): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ at: users.debitBlockedAt }).from(users).where(eq(users.id, member.userId)).for("update");
    if (!before?.at) return false;
    await tx.update(users).set({ debitBlockedAt: null }).where(eq(users.id, member.userId));
    await recordAudit(tx, staff, clientIp, {
      action: "member.lift_debit_block",
      targetType: "member",
      targetId: member.userId,
      siteId: member.siteId,
      changes: { debit_blocked_at: { before: before.at.toISOString(), after: null } },
    });
    return true;
  });
}
