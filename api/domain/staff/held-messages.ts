import { aliasedTable, and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, creditLedger, messages, profiles, sites, users } from "../../db/schema";
import type { HeldMessage } from "#contract/staff-held-messages";
import { announcerFor } from "../../events/announce";
import { recordAudit } from "./audit";
import { onStaffSites, sitesOf } from "./photo-review";
import { staffMay } from "./permissions";
import type { StaffMember } from "./sessions";

/*
 * The queue of members' messages the contact filter held (docs/staff.md, contact details in chat). The queue reads
 * the partial index messages_held_idx (only held messages are in it), oldest first, one page at a time. A decision
 * is one transaction: the conditional update from "held" (so two moderators never both decide), what follows from it
 * (delivery, or the refund), and the audit entry.
 */

const sender = aliasedTable(profiles, "sender");
const recipient = aliasedTable(profiles, "recipient");

export async function heldMessages(db: Db, staff: Pick<StaffMember, "role" | "siteIds">, after: number, limit: number): Promise<HeldMessage[]> {
  const rows = await db
    .select({
      id: messages.id,
      body: messages.body,
      credits: messages.credits,
      createdAt: messages.createdAt,
      siteId: sites.id,
      siteName: sites.name,
      senderUserId: sender.userId,
      senderProfileId: sender.id,
      senderName: sender.name,
      recipientProfileId: recipient.id,
      recipientName: recipient.name,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(sites, eq(sites.id, conversations.siteId))
    .innerJoin(sender, eq(sender.id, messages.senderProfileId))
    .innerJoin(recipient, eq(recipient.id, sql`case when ${conversations.lowProfileId} = ${messages.senderProfileId} then ${conversations.highProfileId} else ${conversations.lowProfileId} end`))
    .where(and(sql`${messages.moderation} = 'held'`, gt(messages.id, after), onStaffSites(conversations.siteId, sitesOf(staff))))
    .orderBy(asc(messages.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    site: { id: row.siteId, name: row.siteName },
    sender: { user_id: row.senderUserId, profile_id: row.senderProfileId, name: row.senderName },
    recipient: { profile_id: row.recipientProfileId, name: row.recipientName },
    body: row.body,
    credits: row.credits,
    created_at: row.createdAt.toISOString(),
  }));
}

export type HeldDecision = { kind: "decided"; refunded: number } | { kind: "not_found" };

/**
 * A moderator's decision on a held message. approve: delivered now (api/db/functions/deliver_held_message.sql), its
 * events announced after the commit. reject: stays undelivered, and its sender gets its credits back with a ledger
 * entry (a message never delivered is not paid for).
 */
export async function decideHeldMessage(db: Db, staff: StaffMember, clientIp: string | null, messageId: number, decision: "approve" | "reject"): Promise<HeldDecision> {
  const [found] = await db
    .select({ siteId: conversations.siteId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), sql`${messages.moderation} = 'held'`))
    .limit(1);
  if (!found || !staffMay(staff, "messages.moderate", found.siteId)) return { kind: "not_found" };
  const siteId = found.siteId;
  let announce: { events: string | null; pushed: boolean } | null = null;
  const outcome = await db.transaction(async (tx): Promise<HeldDecision> => {
    if (decision === "approve") {
      const result = await tx.execute(sql`select * from deliver_held_message(${messageId}::int)`);
      const row = (result as unknown as { rows: { r_announce: string | null; r_pushed: boolean | null }[] }).rows[0];
      if (!row) return { kind: "not_found" };
      announce = { events: row.r_announce, pushed: row.r_pushed === true };
      await recordAudit(tx, staff, clientIp, { action: "message.approve", targetType: "message", targetId: messageId, siteId, changes: { moderation: { before: "held", after: null } } });
      return { kind: "decided", refunded: 0 };
    }
    const [rejected] = await tx
      .update(messages)
      .set({ moderation: "rejected" })
      .where(and(eq(messages.id, messageId), sql`${messages.moderation} = 'held'`))
      .returning({ senderProfileId: messages.senderProfileId, credits: messages.credits });
    if (!rejected) return { kind: "not_found" };
    let refunded = 0;
    if (rejected.credits > 0) {
      const [account] = await tx
        .update(users)
        .set({ credits: sql`${users.credits} + ${rejected.credits}` })
        .where(sql`${users.id} = (select ${profiles.userId} from ${profiles} where ${profiles.id} = ${rejected.senderProfileId})`)
        .returning({ id: users.id, credits: users.credits });
      if (account) {
        refunded = rejected.credits;
        await tx.insert(creditLedger).values({ userId: account.id, delta: refunded, balanceAfter: account.credits, reason: "message", reference: `message:${messageId}` });
      }
    }
    await recordAudit(tx, staff, clientIp, {
      action: "message.reject",
      targetType: "message",
      targetId: messageId,
      siteId,
      changes: { moderation: { before: "held", after: "rejected" }, credits_refunded: { before: 0, after: refunded } },
    });
    return { kind: "decided", refunded };
  });
  const delivered = announce as { events: string | null; pushed: boolean } | null;
  if (delivered) announcerFor(db).announce(delivered.events, delivered.pushed);
  return outcome;
}
