import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, desc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { strToU8, zipSync, type Zippable } from "fflate";
import type { Db } from "../../db/client";
import {
  blocks,
  conversationMembers,
  creditLedger,
  dataExports,
  discoveryDecisions,
  dismissals,
  likes,
  messages,
  payments,
  photos,
  profiles,
  pushSubscriptions,
  users,
} from "../../db/schema";

/** An export can be downloaded for 7 days after it is ready. */
export const exportLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export type DataExport = typeof dataExports.$inferSelect;

/** Where the zip of an export lives: DATA_DIR/exports/<token>.zip (the token is random base64url). */
export function exportFile(dataDir: string, token: string): string {
  return path.resolve(dataDir, "exports", `${token}.zip`);
}

/** Records a member's request; the job builds it. `origin` is web's, for the link in the mail. */
export async function requestDataExport(db: Db, userId: number, origin: string): Promise<DataExport> {
  const [row] = await db.insert(dataExports).values({ userId, origin, token: randomBytes(24).toString("base64url") }).returning();
  return row!;
}

/** The member's latest export, if any. */
export async function latestDataExport(db: Db, userId: number): Promise<DataExport | null> {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.userId, userId)).orderBy(desc(dataExports.id)).limit(1);
  return row ?? null;
}

/** The member's ready, unexpired export with this token (another member's token finds nothing). */
export async function downloadableExport(db: Db, userId: number, token: string, now = new Date()): Promise<DataExport | null> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), eq(dataExports.token, token), eq(dataExports.status, "ready")))
    .limit(1);
  return row && row.expiresAt && row.expiresAt > now ? row : null;
}

/** Takes the next pending export (one instance only: SKIP LOCKED) and marks it building. */
export async function claimPendingExport(db: Db): Promise<DataExport | null> {
  const rows = await db.execute<{ id: number }>(
    sql`update ${dataExports} set status = 'building' where id = (select id from ${dataExports} where status = 'pending' order by id limit 1 for update skip locked) returning id`,
  );
  const id = (Array.isArray(rows) ? rows : (rows as { rows: { id: number }[] }).rows)[0]?.id;
  if (id === undefined) return null;
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id));
  return row ?? null;
}

export async function markExport(db: Db, id: number, outcome: "ready" | "failed", now = new Date()): Promise<void> {
  await db
    .update(dataExports)
    .set(outcome === "ready" ? { status: "ready", readyAt: now, expiresAt: new Date(now.getTime() + exportLifetimeMs) } : { status: "failed" })
    .where(eq(dataExports.id, id));
}

/** Deletes the zips of exports past their 7 days (the rows stay: they count towards nothing but history). */
export async function removeExpiredExports(db: Db, dataDir: string, now = new Date()): Promise<number> {
  const expired = await db
    .update(dataExports)
    .set({ status: "failed" })
    .where(and(eq(dataExports.status, "ready"), lte(dataExports.expiresAt, now)))
    .returning({ token: dataExports.token });
  for (const { token } of expired) await rm(exportFile(dataDir, token), { force: true });
  return expired.length;
}

const json = (value: unknown) => strToU8(JSON.stringify(value, null, 2));

/**
 * Everything the site holds about the member, as JSON files and their photos (the same data the erase job
 * clears, api/domain/accounts/erase.ts, and what they did: likes, messages, payments, consents).
 */
export async function buildDataExport(db: Db, userId: number, uploadsDir: string): Promise<Uint8Array> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error("export of a member that does not exist");
  const { passwordHash: _secret, ...account } = user;
  const [profile] = await db.select().from(profiles).where(eq(profiles.userId, userId));
  const files: Zippable = { "account.json": json(account), "profile.json": json(profile ?? null) };
  const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(asc(creditLedger.id));
  const paid = await db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.id));
  files["payments.json"] = json({ payments: paid.map(({ storedCard: _card, ...payment }) => payment), credits: ledger });
  const consents = await db.select({ key: dismissals.key, at: dismissals.dismissedAt }).from(dismissals).where(eq(dismissals.userId, userId));
  const push = await db.select({ createdAt: pushSubscriptions.createdAt }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  files["consents.json"] = json({ notificationsDisabled: user.notificationsDisabled, notificationsSwitchedOff: user.notificationSettings, dismissed: consents, pushSubscriptions: push });
  if (profile) {
    const me = profile.id;
    const other = alias(profiles, "other");
    const photoRows = await db.select().from(photos).where(eq(photos.profileId, me)).orderBy(asc(photos.position));
    files["photos.json"] = json(photoRows.map((p) => ({ file: `photos/${path.basename(p.filename)}`, status: p.status, position: p.position, createdAt: p.createdAt })));
    const root = path.resolve(uploadsDir);
    for (const photo of photoRows) {
      const file = path.resolve(root, photo.filename);
      if (!file.startsWith(root + path.sep)) continue;
      try {
        files[`photos/${path.basename(photo.filename)}`] = [new Uint8Array(await readFile(file)), { level: 0 }];
      } catch {
        // a photo file gone from disk: its row is still listed
      }
    }
    const likeRows = await db
      .select({ liker: likes.likerProfileId, name: other.name, source: likes.source, at: likes.createdAt })
      .from(likes)
      .innerJoin(other, or(and(eq(likes.likerProfileId, me), eq(other.id, likes.likedProfileId)), and(eq(likes.likedProfileId, me), eq(other.id, likes.likerProfileId))))
      .where(or(eq(likes.likerProfileId, me), eq(likes.likedProfileId, me)));
    const decisions = await db
      .select({ member: other.name, game: discoveryDecisions.game, decision: discoveryDecisions.decision, at: discoveryDecisions.createdAt })
      .from(discoveryDecisions)
      .innerJoin(other, eq(other.id, discoveryDecisions.targetProfileId))
      .where(eq(discoveryDecisions.profileId, me));
    files["likes.json"] = json({
      given: likeRows.filter((l) => l.liker === me).map(({ name, source, at }) => ({ member: name, source, at })),
      received: likeRows.filter((l) => l.liker !== me).map(({ name, at }) => ({ member: name, at })),
      games: decisions,
    });
    const blocked = await db.select({ member: other.name, at: blocks.createdAt }).from(blocks).innerJoin(other, eq(other.id, blocks.blockedProfileId)).where(eq(blocks.blockerProfileId, me));
    files["blocks.json"] = json(blocked);
    const chats = await db
      .select({ conversationId: conversationMembers.conversationId, with: other.name })
      .from(conversationMembers)
      .innerJoin(other, eq(other.id, conversationMembers.otherProfileId))
      .where(eq(conversationMembers.profileId, me));
    const chatMessages = chats.length
      ? await db
          .select({ conversationId: messages.conversationId, sender: messages.senderProfileId, kind: messages.kind, body: messages.body, credits: messages.credits, at: messages.createdAt })
          .from(messages)
          .where(inArray(messages.conversationId, chats.map((c) => c.conversationId)))
          .orderBy(asc(messages.id))
      : [];
    files["messages.json"] = json(
      chats.map((chat) => ({
        with: chat.with,
        messages: chatMessages
          .filter((m) => m.conversationId === chat.conversationId)
          .map((m) => ({ from: m.sender === me ? "me" : chat.with, kind: m.kind, body: m.body, credits: m.credits, at: m.at })),
      })),
    );
  }
  return zipSync(files, { level: 6 });
}

/** Builds the zip of a claimed export into DATA_DIR/exports. */
export async function writeDataExport(db: Db, row: DataExport, dataDir: string): Promise<void> {
  const zip = await buildDataExport(db, row.userId, path.resolve(dataDir, "uploads"));
  await mkdir(path.resolve(dataDir, "exports"), { recursive: true });
  await writeFile(exportFile(dataDir, row.token), zip);
}
