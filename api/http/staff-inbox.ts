import path from "node:path";
import type { Response } from "express";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { inboxQueueNames } from "#contract/staff-inbox-queues";
import { ageOn } from "#contract/age";
import type {
  DeskResponse} from "#contract/staff-inbox";
import {
  InboxAction,
  InboxConversationQuery,
  InboxImageQuery,
  InboxNextBody,
  InboxQuery,
  SavedRepliesQuery,
  SavedReplyAction,
  type SavedRepliesResponse,
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
import {
  answeringContext,
  claimConversation,
  claimNext,
  holdsClaim,
  inbox,
  inboxCounts,
  inboxEntry,
  operatorDesk,
  operatorFigures,
  recordReply,
  releaseClaim,
  renewClaim,
  saveNote,
  type InboxEntry,
  type InboxFilters,
} from "../domain/staff/inbox";
import { createSavedReply, deleteSavedReply, isSiteRunProfileOf, savedRepliesOfSite, setWaitThresholds, updateSavedReply, waitThresholds } from "../domain/staff/desk";
import { chatImageFile } from "../domain/chat-images";
import { staffMay } from "../domain/staff/permissions";
import { messages } from "../db/schema";
import type { StaffMember } from "../domain/staff/sessions";
import type { StaffRouteKit } from "./staff";
import { parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { servesEverySite } from "#contract/staff-permissions";

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
    preview: entry.lastKind ? { kind: entry.lastKind, text: entry.lastKind === "text" || entry.lastKind === "icebreaker" ? (entry.lastBody ?? "") : "" } : null,
    answered_by: entry.answeredByName ?? null,
  };
}

const thresholdsJson = (siteId: number, value: { warnMinutes: number; lateMinutes: number }) => ({ site_id: siteId, warn_minutes: value.warnMinutes, late_minutes: value.lateMinutes });

/** A GIF message's id, or an image message's thumbnail size, for the operator's thread (api/domain/chat-media.ts formats). */
function mediaOf(kind: string, body: string): { gif: string | null; width: number; height: number } | null {
  const size = (s: string | undefined): [number, number] => {
    const m = /^(\d{1,5})x(\d{1,5})$/.exec(s ?? "");
    return m ? [Number(m[1]), Number(m[2])] : [120, 120];
  };
  if (kind === "gif") {
    const [gif = "", dims] = body.split(" ");
    const [width, height] = size(dims);
    return { gif, width, height };
  }
  if (kind === "image") {
    const [, , thumb] = body.split(" ");
    const [width, height] = size(thumb);
    return { gif: null, width, height };
  }
  return null;
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
    /** The caller's sites (an admin: every site), for the queues' site filter. */
    const sitesFor = async (staff: StaffMember) =>
      db
        .select({ id: sites.id, name: sites.name })
        .from(sites)
        .where(servesEverySite(staff.role) ? undefined : inArray(sites.id, staff.siteIds.length ? staff.siteIds : [0]))
        .orderBy(asc(sites.id))
        .limit(200);

    route(endpoints.staffInbox, async (req, res) => {
      const query = parseInput(res, InboxQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      const filters: InboxFilters = { siteId: query.site, profileId: query.profile, paying: query.paying === "1" };
      const now = new Date();
      const sizes = await inboxCounts(db, staff, now, filters);
      // Without a queue asked for: the first that holds conversations (else "new").
      const queue = query.queue ?? inboxQueueNames.find((name) => sizes.counts[name] > 0) ?? "new";
      const [entries, siteRows, profileRows] = await Promise.all([
        inbox(db, staff, queue, now, undefined, filters),
        sitesFor(staff),
        query.site && staffMay(staff, "inbox.answer", query.site)
          ? db
              .select({ id: profiles.id, name: profiles.name })
              .from(profiles)
              .where(and(eq(profiles.siteId, query.site), eq(profiles.fictional, true)))
              .orderBy(asc(profiles.name), asc(profiles.id))
              .limit(200)
          : Promise.resolve([]),
      ]);
      const limits = await waitThresholds(db, [...new Set(entries.map((entry) => entry.siteId))]);
      json(res).json({
        queue,
        conversations: entries.map(entryJson),
        counts: sizes.counts,
        counts_capped: sizes.capped,
        thresholds: [...limits].map(([siteId, value]) => thresholdsJson(siteId, value)),
        sites: siteRows,
        profiles: profileRows,
      } satisfies InboxResponse);
    });

    route(endpoints.inboxImage, async (req, res) => {
      const query = parseInput(res, InboxImageQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      const [message] = await db.select({ conversationId: messages.conversationId }).from(messages).where(eq(messages.id, query.message)).limit(1);
      const entry = message ? await inboxEntry(db, staff, message.conversationId) : null;
      // The conversation's site-run side reads it as its member reads it (chat-images.ts checks the message is theirs).
      const file = entry ? await chatImageFile(db, path.resolve(deps.dataDir, "chat-images"), entry.fictionalProfileId, query.message, query.size ?? "full") : null;
      if (!file) return sendError(res, "not_found");
      json(res).set("Content-Type", "image/jpeg").send(file);
    });

    route(endpoints.desk, async (_req, res) => {
      const desk = await operatorDesk(db, staffOf(res));
      json(res).json({ claim: desk.claim ? entryJson(desk.claim) : null, answered_today: desk.answeredToday, median_wait_seconds: desk.medianWaitSeconds } satisfies DeskResponse);
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
        member: {
          ...profileJson(context.member, context.memberPhotos),
          credits: context.member.credits,
          paying: context.member.paidUser,
          spend: context.spend.map((row) => ({ currency: row.currency, amount: Number(row.amount) })),
          signup_date: context.member.signupDate.toISOString(),
          last_seen: context.lastSeen ? context.lastSeen.toISOString() : null,
          language: context.member.language,
        },
        profile: profileJson(context.fictional, context.fictionalPhotos),
        messages: context.thread.map((message) => ({
          id: message.id,
          from_member: message.senderProfileId === entry.memberProfileId,
          kind: message.kind,
          body: message.kind === "image" ? "" : message.body,
          at: message.createdAt.toISOString(),
          media: mediaOf(message.kind, message.body),
        })),
        saved_replies: context.savedReplies.map((reply) => ({ id: reply.id, title: reply.title, body: reply.body, profile_only: reply.profileId !== null })),
        thresholds: thresholdsJson(entry.siteId, (await waitThresholds(db, [entry.siteId])).get(entry.siteId) ?? { warnMinutes: 15, lateMinutes: 60 }),
        note: context.note ? { body: context.note.body, updated_at: context.note.updatedAt.toISOString() } : null,
        others: context.others.map((other) => entryJson({ ...other, queue: "waiting" })),
      };
      json(res).json(answer);
    };

    route(endpoints.inboxConversation, async (req, res) => {
      const query = parseInput(res, InboxConversationQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      const entry = await inboxEntry(db, staff, query.id);
      if (!entry) return sendError(res, "not_found");
      await conversationJson(res, staff, entry);
    });

    route(endpoints.actInInbox, async (req, res) => {
      const body = parseInput(res, InboxAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const entry = await inboxEntry(db, staff, body.id);
      if (!entry) return sendError(res, "not_found");
      const ip = res.locals.clientIp ?? null;
      const answer = (claim: InboxActionResponse["claim"]): void => {
        json(res).json({ ok: true, claim } satisfies InboxActionResponse);
      };
      /**
       * The conversation must be the caller's, their claim still live (renewed now). A lost claim is not taken again:
       * the answer says why (params.claim), and the page keeps the operator's draft.
       */
      const refuseLost = (claim: Exclude<Awaited<ReturnType<typeof renewClaim>>, { kind: "held" }>): void => {
        const why =
          claim.kind === "taken"
            ? `${claim.name} is answering this conversation (claimed until ${utc(claim.expiresAt)}).`
            : claim.kind === "expired"
              ? "Your claim on this conversation ran out."
              : "You no longer hold this conversation (you left it or opened another one).";
        const params: Record<string, string> = { claim: claim.kind };
        if (claim.kind === "taken") Object.assign(params, { by: claim.name, until: claim.expiresAt.toISOString() });
        sendError(res, "validation_failed", { params, fields: { claim: [why] } });
      };
      const claimed = async (): Promise<boolean> => {
        const claim = await renewClaim(db, staff, entry.id);
        if (claim.kind === "held") return true;
        refuseLost(claim);
        return false;
      };
      switch (body.action) {
        case "claim": {
          const claim = await claimConversation(db, staff, entry.id);
          return answer(claim.kind === "claimed" ? { mine: true, by: staff.name, until: claim.expiresAt.toISOString() } : { mine: false, by: claim.name, until: claim.expiresAt.toISOString() });
        }
        case "release":
          await releaseClaim(db, staff, entry.id, body.until ? new Date(body.until) : undefined);
          return answer(null);
        case "typing": {
          const claim = await renewClaim(db, staff, entry.id);
          if (claim.kind !== "held") return refuseLost(claim);
          await emitEventsNow(db, [{ profileId: entry.memberProfileId, kind: "typing", fromProfileId: entry.fictionalProfileId, conversationId: entry.id }]);
          return answer({ mine: true, by: staff.name, until: claim.expiresAt.toISOString() });
        }
        case "note":
          await db.transaction(async (tx) => {
            await saveNote(tx, staff, entry.memberProfileId, body.text);
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

    route(endpoints.nextInboxConversation, async (req, res) => {
      const body = parseInput(res, InboxNextBody, req.body ?? {});
      if (!body) return;
      json(res).json({ id: await claimNext(db, staffOf(res), new Date(), { siteId: body.site, profileId: body.profile, paying: body.paying }, body.skip) });
    });

    route(endpoints.savedReplies, async (req, res) => {
      const query = parseInput(res, SavedRepliesQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      const [site] = staffMay(staff, "replies.manage", query.site) ? await db.select({ id: sites.id, name: sites.name }).from(sites).where(eq(sites.id, query.site)).limit(1) : [];
      if (!site) return sendError(res, "not_found");
      const [replies, profileRows, limits] = await Promise.all([
        savedRepliesOfSite(db, site.id),
        db
          .select({ id: profiles.id, name: profiles.name })
          .from(profiles)
          // The flag as it stands in profiles_site_run_name_idx's condition (a bound "= true" would not match it in a generic plan).
          .where(and(eq(profiles.siteId, site.id), sql`${profiles.fictional}`))
          .orderBy(asc(profiles.name), asc(profiles.id))
          .limit(200),
        waitThresholds(db, [site.id]),
      ]);
      json(res).json({
        site,
        replies: replies.map((reply) => ({
          id: reply.id,
          profile: reply.profileId !== null ? { id: reply.profileId, name: reply.profileName ?? "" } : null,
          title: reply.title,
          body: reply.body,
          updated_at: reply.updatedAt.toISOString(),
        })),
        profiles: profileRows,
        thresholds: thresholdsJson(site.id, limits.get(site.id) ?? { warnMinutes: 15, lateMinutes: 60 }),
      } satisfies SavedRepliesResponse);
    });

    route(endpoints.changeSavedReply, async (req, res) => {
      const body = parseInput(res, SavedReplyAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const ip = res.locals.clientIp ?? null;
      const [site] = staffMay(staff, "replies.manage", body.site) ? await db.select({ id: sites.id }).from(sites).where(eq(sites.id, body.site)).limit(1) : [];
      if (!site) return sendError(res, "not_found");
      const done = () => void json(res).json({ ok: true });
      switch (body.action) {
        case "thresholds":
          if (body.late_minutes <= body.warn_minutes) return sendError(res, "validation_failed", { fields: { late_minutes: ["Must be more than the amber threshold."] } });
          await setWaitThresholds(db, staff, ip, site.id, { warnMinutes: body.warn_minutes, lateMinutes: body.late_minutes });
          return done();
        case "delete":
          return (await deleteSavedReply(db, staff, ip, site.id, body.id)) ? done() : sendError(res, "not_found");
        case "create":
        case "update": {
          if (body.profile !== null && !(await isSiteRunProfileOf(db, site.id, body.profile))) {
            return sendError(res, "validation_failed", { fields: { profile: ["Not a site-run profile of this site."] } });
          }
          const input = { siteId: site.id, profileId: body.profile, title: body.title, body: body.body };
          if (body.action === "create") {
            await createSavedReply(db, staff, ip, input);
            return done();
          }
          return (await updateSavedReply(db, staff, ip, body.id, input)) ? done() : sendError(res, "not_found");
        }
      }
    });

    route(endpoints.operatorFigures, async (req, res) => {
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
