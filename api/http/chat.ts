import { Router, type Response } from "express";
import type { Db } from "../db/client";
import { ChatQuery, ChatsQuery, DeleteChatRequest, MarkReadRequest, SendMessageRequest, type ChatResponse, type ChatsResponse, type SendMessageResponse } from "#contract/chat";
import { chatList, deleteChat, markRead, openChat, sendMessage, unreadTotal, type OpenChatOutcome } from "../domain/chat";
import { loadMe } from "../domain/me";
import { requireMember, memberOf } from "./context";
import { sessionMember, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { isGiftId } from "#contract/gifts";
import { gifBody } from "../domain/chat-media";
import type { GifProvider } from "../services/gifs";


const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");

/** Answers a refused open (404, or 403 blocked_by_member); true when it did. */
function refused(res: Response, outcome: OpenChatOutcome): outcome is Exclude<OpenChatOutcome, { kind: "found" }> {
  if (outcome.kind === "not_found") sendError(res, "not_found");
  else if (outcome.kind === "blocked_by_member") sendError(res, "blocked_by_member", { params: { name: outcome.name } });
  else return false;
  return true;
}

/** Chat (contract/chat.ts): the list, one conversation, send (text, icebreaker, gift, GIF), mark read, delete. */
export function chatRoutes(db: Db, limit: ClientLimiter, gifs: GifProvider): Router {
  const router = Router();
  const me = (res: Response) => loadMe(db, memberOf(res), res.locals.site.id);

  router.get(
    "/api/chats.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, ChatsQuery, req.query);
      if (!query) return;
      const { site } = res.locals;
      let open: ChatsResponse["open"] = null;
      const target = query.conversation !== undefined ? { conversation: query.conversation } : query.member !== undefined ? { member: query.member } : null;
      if (target) {
        const outcome = await openChat(db, site, memberOf(res), target, query.before);
        if (refused(res, outcome)) return;
        open = outcome.chat;
      }
      const list = await chatList(db, site.id, memberOf(res).profileId, query.page ?? 1);
      const body: ChatsResponse = { ...list, open, ...(query.with_user ? { me: await me(res) } : {}) };
      noStore(res).json(body);
    }),
  );

  router.get(
    "/api/chat.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, ChatQuery, req.query);
      if (!query) return;
      const target = query.conversation !== undefined ? { conversation: query.conversation } : { member: query.member ?? 0 };
      const outcome = await openChat(db, res.locals.site, memberOf(res), target, query.before);
      if (refused(res, outcome)) return;
      const body: ChatResponse = { ...outcome.chat, ...(query.with_user ? { me: await me(res) } : {}) };
      noStore(res).json(body);
    }),
  );

  router.post(
    "/api/message.php",
    requireMember,
    limit("message", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, SendMessageRequest, req.body);
      if (!body) return;
      let stored = body.body;
      // A gift's or a GIF's id must be one we know; what is stored is its reference (chat-media.ts).
      if (body.kind === "gift" && !isGiftId(body.body)) return sendError(res, "validation_failed", { fields: { body: ["must be the id of a gift"] } });
      if (body.kind === "gif") {
        const gif = await gifs.find(body.body);
        if (!gif) return sendError(res, "validation_failed", { fields: { body: ["must be the id of a GIF"] } });
        stored = gifBody(gif.id, gif.width, gif.height);
      }
      const outcome = await sendMessage(db, res.locals.site, memberOf(res), { ...body, body: stored });
      switch (outcome.kind) {
        case "sent": {
          const answer: SendMessageResponse = { message: outcome.message, credits: outcome.credits, repeated: outcome.repeated };
          noStore(res).status(outcome.repeated ? 200 : 201).json(answer);
          return;
        }
        case "too_long":
          return sendError(res, "validation_failed", { fields: { body: [`must be at most ${outcome.max} characters`] }, params: { max: outcome.max } });
        case "not_enough_credits":
          return sendError(res, "not_enough_credits", { params: { credits: outcome.credits } });
        case "blocked_by_member":
        case "recipient_unconfirmed":
          return sendError(res, outcome.kind, { params: { name: outcome.name } });
        default:
          return sendError(res, outcome.kind);
      }
    }),
  );

  router.post(
    "/api/chat-read.php",
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, MarkReadRequest, req.body);
      if (!body) return;
      if (!(await markRead(db, memberOf(res).profileId, body.conversation))) return sendError(res, "not_found");
      const total = await unreadTotal(db, res.locals.site.id, memberOf(res).profileId);
      noStore(res).json({ num_unread_messages: total, ...(body.with_user ? { me: await me(res) } : {}) });
    }),
  );

  router.delete(
    "/api/chat.php",
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, DeleteChatRequest, req.body);
      if (!body) return;
      if (!(await deleteChat(db, memberOf(res).profileId, body.conversation))) return sendError(res, "not_found");
      noStore(res).json({ ok: true });
    }),
  );

  return router;
}
