import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { notificationChannels, notificationKinds, type NotificationChannel, type NotificationKind, type NotificationSettings } from "#contract/notifications";
import type { NotificationDisabledReason } from "#contract/user";
import type { z } from "zod";

/*
 * Notifications (ADR 011): users.notification_settings lists the kind x channel switches a member
 * turned off ("likes:email"); users.notifications_disabled lists why no e-mail may go out at all (docs/product.md §3:
 * fbl, bounce, listunsubscribe). A notification mail needs both: no reason, and its switch on.
 */

export type DisabledReason = z.infer<typeof NotificationDisabledReason>;

/** The event kinds that notify, and the switch each one answers to. */
export const kindOfEvent = { message: "messages", like: "likes", match: "matches" } as const satisfies Record<string, NotificationKind>;

export function switchKey(kind: NotificationKind, channel: NotificationChannel): string {
  return `${kind}:${channel}`;
}

/** The stored list of switched-off pairs as the settings object (unknown entries are ignored). */
export function settingsOf(disabled: readonly string[]): NotificationSettings {
  const off = new Set(disabled);
  const entry = (kind: NotificationKind) => ({ email: !off.has(switchKey(kind, "email")), push: !off.has(switchKey(kind, "push")) });
  return { messages: entry("messages"), likes: entry("likes"), matches: entry("matches"), news: entry("news") };
}

/** The settings object as the stored list of switched-off pairs, in a stable order. */
export function disabledPairsOf(settings: NotificationSettings): string[] {
  return notificationKinds.flatMap((kind) => notificationChannels.filter((channel) => !settings[kind][channel]).map((channel) => switchKey(kind, channel)));
}

export function allows(disabled: readonly string[], kind: NotificationKind, channel: NotificationChannel): boolean {
  return !disabled.includes(switchKey(kind, channel));
}

/** The unsubscribe key: derived from the session secret, so rotating that secret voids old links too. */
export function unsubscribeKeyOf(sessionSecret: string): Buffer {
  return createHmac("sha256", sessionSecret).update("rendezvous unsubscribe link v1").digest();
}

function macOf(key: Buffer, siteId: number, userId: number): string {
  return createHmac("sha256", key).update(`unsubscribe:${siteId}:${userId}`).digest("base64url");
}

/** "<user id>.<HMAC of site and user>": binds the member and their site; it cannot be made without the key. */
export function unsubscribeToken(key: Buffer, siteId: number, userId: number): string {
  return `${userId}.${macOf(key, siteId, userId)}`;
}

/** The member id a token stands for on `siteId`, or null for a made-up or another site's token. */
export function verifyUnsubscribeToken(key: Buffer, siteId: number, token: string): number | null {
  const match = /^([1-9][0-9]{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  if (!Number.isSafeInteger(userId) || userId > 2_147_483_647) return null;
  const expected = Buffer.from(macOf(key, siteId, userId));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
}

/** The link a mail's List-Unsubscribe header carries (POST: one click; GET: web's confirmation page). */
export function unsubscribeUrl(origin: string, key: Buffer, siteId: number, userId: number): string {
  return `${origin}/api/unsubscribe.php?token=${encodeURIComponent(unsubscribeToken(key, siteId, userId))}`;
}

/** Adds `reason` to the members' reasons (once); returns the ids of the members found. */
export async function recordDisabledReason(db: Db, userIds: number[], reason: DisabledReason): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .update(users)
    .set({
      notificationsDisabled: sql`case when ${users.notificationsDisabled} @> ${JSON.stringify([reason])}::jsonb then ${users.notificationsDisabled} else ${users.notificationsDisabled} || ${JSON.stringify([reason])}::jsonb end`,
    })
    .where(and(inArray(users.id, userIds), sql`${users.status} <> 'erased'`))
    .returning({ id: users.id });
  return rows.map((r) => r.id);
}

/** Removes `reasons` from a member's list (in one statement; nothing happens for reasons not there). */
export async function clearDisabledReasons(db: Pick<Db, "update">, userId: number, reasons: readonly DisabledReason[]): Promise<DisabledReason[]> {
  const without = reasons.reduce((expression, reason) => sql`${expression} - ${reason}::text`, sql`${users.notificationsDisabled}`);
  const [row] = await db.update(users).set({ notificationsDisabled: without }).where(eq(users.id, userId)).returning({ reasons: users.notificationsDisabled });
  return row?.reasons ?? [];
}
