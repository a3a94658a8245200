import path from "node:path";
import { Router, type Response } from "express";
import type { Db } from "../db/client";
import { ChatImageFields, ChatImageQuery, GifQuery, GifsQuery, type GifsResponse, type SendMessageResponse } from "#contract/chat";
import { chatImageField } from "#contract/gifts";
import { photoMaxMegabytes } from "#contract/photos";
import { defaultLocale } from "#contract/locales";
import { sendMessage } from "../domain/chat";
import { imageBody } from "../domain/chat-media";
import { chatImageFile, processChatImage, removeChatImage, storeChatImage } from "../domain/chat-images";
import { localDiskStorage } from "../services/storage";
import type { Gif, GifProvider } from "../services/gifs";
import { requireMember, memberOf } from "./context";
import { sessionMember, type ClientLimiter } from "./limits";
import { photoUploadReader } from "./upload";
import { handle, parseInput, sendError } from "./respond";

/*
 * Chat extras (contract/chat.ts):
 *   GET  /api/gifs.php        GifsQuery -> GifsResponse (members only; limited per account)
 *   GET  /api/gif.php         GifQuery -> the GIF's file (catalogue, or the provider's media fetched once and cached)
 *   POST /api/chat-image.php  multipart to, key, photo -> SendMessageResponse (photo_credits; idempotent by key)
 *   GET  /api/chat-image.php  ChatImageQuery -> the image, for the two members of its conversation only (404 otherwise)
 */

const readUpload = photoUploadReader(chatImageField);


const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");

export function chatExtrasRoutes(db: Db, limit: ClientLimiter, options: { dataDir: string; gifs: GifProvider }): Router {
  const router = Router();
  const imagesRoot = path.resolve(options.dataDir, "chat-images");
  const storage = localDiskStorage(imagesRoot);
  const { gifs } = options;

  router.get(
    "/api/gifs.php",
    requireMember,
    limit("gif_search", sessionMember),
    handle(async (req, res) => {
      const query = parseInput(res, GifsQuery, req.query);
      if (!query) return;
      let found: Gif[];
      try {
        found = await gifs.search(query.q, query.locale ?? defaultLocale);
      } catch (error) {
        // The provider is down or answered nonsense: no results rather than an error page.
        req.log.warn({ err: error }, "gif search failed");
        found = [];
      }
      const body: GifsResponse = {
        gifs: found.map((g) => {
          const url = `/api/gif.php?id=${encodeURIComponent(g.id)}`;
          return { id: g.id, url, thumb_url: `${url}&size=thumb`, width: g.width, height: g.height, label: g.label };
        }),
        message_credits: res.locals.site.messageCredits,
      };
      noStore(res).json(body);
    }),
  );

  router.get(
    "/api/gif.php",
    handle(async (req, res) => {
      const query = parseInput(res, GifQuery, req.query);
      if (!query) return;
      const file = await gifs.file(query.id, query.size ?? "full");
      if (!file) return sendError(res, "not_found");
      // Public pictures, the same for everyone: cached by the browser for a day.
      res.set({ "Content-Type": file.contentType, "Cache-Control": "public, max-age=86400" }).send(file.body);
    }),
  );

  router.get(
    "/api/chat-image.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, ChatImageQuery, req.query);
      if (!query) return;
      const file = await chatImageFile(db, imagesRoot, memberOf(res).profileId, query.message, query.size ?? "full");
      if (!file) return sendError(res, "not_found");
      noStore(res).set("Content-Type", "image/jpeg").send(file);
    }),
  );

  router.post(
    "/api/chat-image.php",
    requireMember,
    limit("chat_image", sessionMember),
    handle(async (req, res) => {
      const upload = await readUpload(req, res);
      if ("error" in upload) {
        if (upload.error === "file_too_large") return sendError(res, "file_too_large", { params: { megabytes: photoMaxMegabytes } });
        return sendError(res, "validation_failed", { fields: { [chatImageField]: ["Send one image as multipart/form-data in the field photo, with to and key"] } });
      }
      const fields = parseInput(res, ChatImageFields, req.body);
      if (!fields) return;
      if (!upload.file || upload.file.size === 0) return sendError(res, "validation_failed", { fields: { [chatImageField]: ["Choose an image to send"] } });
      const image = await processChatImage(upload.file.buffer);
      if (!image) return sendError(res, "unsupported_image");
      const key = await storeChatImage(storage, image);
      const outcome = await sendMessage(db, res.locals.site, memberOf(res), { to: fields.to, key: fields.key, kind: "image", body: imageBody(key, image.fullSize, image.thumbSize) }).catch(async (error: unknown) => {
        await removeChatImage(storage, key);
        throw error;
      });
      // Refused, or the same key sent before: this upload's files are not needed.
      if (outcome.kind !== "sent" || outcome.repeated) await removeChatImage(storage, key);
      switch (outcome.kind) {
        case "sent": {
          const answer: SendMessageResponse = { message: outcome.message, credits: outcome.credits, repeated: outcome.repeated };
          noStore(res).status(outcome.repeated ? 200 : 201).json(answer);
          return;
        }
        case "not_enough_credits":
          return sendError(res, "not_enough_credits", { params: { credits: outcome.credits } });
        case "blocked_by_member":
        case "recipient_unconfirmed":
          return sendError(res, outcome.kind, { params: { name: outcome.name } });
        case "too_long":
          return sendError(res, "validation_failed");
        default:
          return sendError(res, outcome.kind);
      }
    }),
  );

  return router;
}
