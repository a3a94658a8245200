import path from "node:path";
import type { Response } from "express";
import { and, eq } from "drizzle-orm";
import { ageOn } from "#contract/age";
import {
  InboxAction,
  InboxConversationQuery,
  InboxQuery,
  OperatorsQuery,
  type OperatorsResponse,
  type InboxActionResponse,
  type InboxConversation,
  type InboxEntry as InboxEntryJson,
  type InboxResponse,
} from "#contract/staff-inbox";
import type { Db } from "../db/client";
import { photos, profiles, sites } from "../db/schema";
import { sendMessage } from "../domain/chat";
import { chatImageFromPhoto, removeChatImage, storeChatImage } from "../domain/chat-images";
import { imageBody } from "../domain/chat-media";
import { localDiskStorage } from "../services/storage";
import { emitEventsNow } from "../events/emit";
import { recordAudit } from "../domain/staff/audit";
import { answeringContext, claimConversation, claimNext, holdsClaim, inbox, inboxCounts, inboxEntry, operatorFigures, recordReply, releaseClaim, saveNote, type InboxEntry } from "../domain/staff/inbox";
import type { StaffMember } from "../domain/staff/sessions";
import type { StaffRouteKit } from "./staff";
import { parseInput, sendError } from "./respond";

const json = (res: Response) => res.set("Cache-Control", "private, no-store");
const utc = (date: Date) => `${date.toISOString().slice(11, 16)} UTC`;

function entryJson(entry: InboxEntry): InboxEntryJson {
  return {
    id: entry.id,
    queue: entry.queue,
    site: { id: entry.siteId, name: entry.siteName },
    member: { profile_id: entry.memberProfileId, name: entry.memberName, paying: Boolean(entry.paying) },
    profile: { id: entry.fictionalProfileId, name: entry.fictionalName },
    last_at: new Date(entry.lastAt).toISOString(),
    last_from_member: entry.lastFromMember,
    claimed_by: entry.claimedBy !== null && entry.claimedByName !== null ? { id: entry.claimedBy, name: entry.claimedByName } : null,
  };
}

/**
 * The operator inbox (docs/staff.md): its queues, claims and answers. Operators and admins see their sites' conversations of
 * members with site-run profiles in queues, claim one (one operator at a time, 5 minutes, renewed while typing),
 * and answer as the profile (text, one of its own photos, or a gift): the reply reaches the member like any message
 * and costs nobody credits.
 */
export function staffInboxRoutes(deps: { db: Db; dataDir: string }) {
  const { db } = deps;
  // A photo answer: the profile photo's file (DATA_DIR/uploads) made into a chat image (DATA_DIR/chat-images, as chat-extras.ts).
  const uploadsRoot = path.resolve(deps.dataDir, "uploads");
  const chatImages = localDiskStorage(path.resolve(deps.dataDir, "chat-images"));
  return ({ route, staffOf }: StaffRouteKit) => {
    route("get", "/api/staff/inbox.php", "inbox.answer", async (req, res) => {
      const query = parseInput(res, InboxQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      const [entries, sizes] = await Promise.all([inbox(db, staff, query.queue), inboxCounts(db, staff)]);
      json(res).json({ queue: query.queue, conversations: entries.map(entryJson), counts: sizes.counts, counts_capped: sizes.capped } satisfies InboxResponse);
    });

    const conversationJson = async (res: Response, staff: StaffMember, entry: InboxEntry) => {
      const context = await answeringContext(db, staff, entry);
      if (!context.member || !context.fictional) return sendError(res, "not_found");
      const cdn = context.member.cdn;
      const profileJson = (row: NonNullable<typeof context.member>, photoRows: typeof context.memberPhotos) => ({
        id: row.profile.id,
        name: row.profile.name,
        age: ageOn(row.profile.dateOfBirth),
        gender: row.profile.gender,
        city: row.profile.city,
        country: row.profile.country,
        about_me: row.profile.aboutMe,
        photos: photoRows.map((photo) => ({ id: photo.id, thumb_url: `${cdn}${photo.thumbFilename}`, url: `${cdn}${photo.filename}` })),
      });
      const answer: InboxConversation = {
        entry: entryJson(entry),
        mine: await holdsClaim(db, staff, entry.id),
        member: { ...profileJson(context.member, context.memberPhotos), credits: context.member.credits, paying: context.member.paidUser },
        profile: profileJson(context.fictional, context.fictionalPhotos),
        messages: context.thread.map((message) => ({
          id: message.id,
          from_member: message.senderProfileId === entry.memberProfileId,
          kind: message.kind,
          body: message.body,
          at: message.createdAt.toISOString(),
        })),
        note: context.note ? { body: context.note.body, updated_at: context.note.updatedAt.toISOString() } : null,
        others: context.others.map((other) => entryJson({ ...other, queue: "waiting" })),
      };
      json(res).json(answer);
    };

    route("get", "/api/staff/inbox-conversation.php", "inbox.answer", async (req, res) => {
      const query = parseInput(res, InboxConversationQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      const entry = await inboxEntry(db, staff, query.id);
      if (!entry) return sendError(res, "not_found");
      await conversationJson(res, staff, entry);
    });

    route("post", "/api/staff/inbox-conversation.php", "inbox.answer", async (req, res) => {
      const body = parseInput(res, InboxAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const entry = await inboxEntry(db, staff, body.id);
      if (!entry) return sendError(res, "not_found");
      const ip = res.locals.clientIp ?? null;
      const answer = (claim: InboxActionResponse["claim"]): void => {
        json(res).json({ ok: true, claim } satisfies InboxActionResponse);
      };
      /** The conversation must be the caller's (claimed now, or renewed): else who holds it. */
      const claimed = async (): Promise<boolean> => {
        const claim = await claimConversation(db, staff, entry.id);
        if (claim.kind === "claimed") return true;
        sendError(res, "validation_failed", { fields: { id: [`${claim.name} is answering this conversation (claimed until ${utc(claim.expiresAt)}).`] } });
        return false;
      };
      switch (body.action) {
        case "claim": {
          const claim = await claimConversation(db, staff, entry.id);
          return answer(claim.kind === "claimed" ? { mine: true, by: staff.name, until: claim.expiresAt.toISOString() } : { mine: false, by: claim.name, until: claim.expiresAt.toISOString() });
        }
        case "release":
          await releaseClaim(db, staff, entry.id);
          return answer(null);
        case "typing": {
          if (!(await claimed())) return;
          await emitEventsNow(db, [{ profileId: entry.memberProfileId, kind: "typing", fromProfileId: entry.fictionalProfileId, conversationId: entry.id }]);
          return answer({ mine: true, by: staff.name, until: new Date(Date.now() + 5 * 60_000).toISOString() });
        }
        case "note":
          await db.transaction(async (tx) => {
            await saveNote(tx, staff, entry, body.text);
            await recordAudit(tx, staff, ip, { action: "inbox.note", targetType: "conversation", targetId: entry.id, siteId: entry.siteId });
          });
          return answer(null);
        case "reply":
        case "reply_gift":
        case "reply_photo": {
          if (!(await claimed())) return;
          const [site] = await db.select().from(sites).where(eq(sites.id, entry.siteId)).limit(1);
          const [fictional] = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.id, entry.fictionalProfileId)).limit(1);
          if (!site || !fictional) return sendError(res, "not_found");
          // What is sent, and the field a refusal names: text, a gift (its id, as members' gifts), or an image message
          // made from one of the profile's own active photos (files of its own, as a member's uploaded image).
          let message: { kind: "text" | "gift" | "image"; body: string; field: string };
          let imageKey: string | null = null;
          if (body.action === "reply") message = { kind: "text", body: body.text, field: "text" };
          else if (body.action === "reply_gift") message = { kind: "gift", body: body.gift, field: "gift" };
          else {
            const [photo] = await db
              .select({ filename: photos.filename })
              .from(photos)
              .where(and(eq(photos.id, body.photo_id), eq(photos.profileId, entry.fictionalProfileId), eq(photos.status, "active")))
              .limit(1);
            if (!photo) return sendError(res, "validation_failed", { fields: { photo_id: [`This is not one of ${entry.fictionalName}'s photos (or it is not live).`] } });
            const image = await chatImageFromPhoto(uploadsRoot, photo.filename);
            if (!image) {
              req.log.warn({ photoId: body.photo_id }, "a site-run profile's photo file cannot be read");
              return sendError(res, "validation_failed", { fields: { photo_id: ["This photo's file cannot be read: choose another one."] } });
            }
            imageKey = await storeChatImage(chatImages, image);
            message = { kind: "image", body: imageBody(imageKey, image.fullSize, image.thumbSize), field: "photo_id" };
          }
          const outcome = await sendMessage(
            db,
            site,
            { userId: fictional.userId, profileId: entry.fictionalProfileId },
            { to: entry.memberProfileId, body: message.body, key: body.key, kind: message.kind },
            {
              free: true,
              onSent: async (tx, sent) => {
                await recordReply(tx, staff, sent, entry.fictionalProfileId);
                await recordAudit(tx, staff, ip, {
                  action: "inbox.reply",
                  targetType: "conversation",
                  targetId: entry.id,
                  siteId: entry.siteId,
                  changes: { message_id: { before: null, after: sent.id }, kind: { before: null, after: message.kind } },
                });
              },
            },
          ).catch(async (error: unknown) => {
            if (imageKey) await removeChatImage(chatImages, imageKey);
            throw error;
          });
          // Refused, or the same key sent before: this answer's image files are not needed.
          if (imageKey && (outcome.kind !== "sent" || outcome.repeated)) await removeChatImage(chatImages, imageKey);
          if (outcome.kind !== "sent") {
            const why = outcome.kind === "recipient_unconfirmed" ? "The member has not confirmed their e-mail address yet: they cannot receive answers." : outcome.kind === "too_long" ? `At most ${outcome.max} characters.` : "The member cannot receive messages from this profile now.";
            return sendError(res, "validation_failed", { fields: { [message.field]: [why] } });
          }
          await releaseClaim(db, staff, entry.id);
          return answer(null);
        }
      }
    });

    route("post", "/api/staff/inbox-next.php", "inbox.answer", async (_req, res) => {
      json(res).json({ id: await claimNext(db, staffOf(res)) });
    });

    route("get", "/api/staff/operators.php", "operators.read", async (req, res) => {
      const query = parseInput(res, OperatorsQuery, req.query);
      if (!query) return;
      const days = query.days ?? 30;
      const now = new Date();
      const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
      const rows = await operatorFigures(db, from);
      json(res).json({
        days,
        rows: rows.map((row) => ({
          staff_id: row.staffUserId,
          name: row.name,
          day: row.day,
          replies: row.replies,
          conversations: row.conversations,
          median_seconds: row.medianSeconds,
          p90_seconds: row.p90Seconds,
          member_messages_after: row.memberMessagesAfter,
        })),
      } satisfies OperatorsResponse);
    });
  };
}
