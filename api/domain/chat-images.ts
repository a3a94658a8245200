import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, eq, or } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "../db/client";
import { conversations, messages } from "../db/schema";
import { isStorageKey, randomKey, type FileStorage } from "../services/storage";
import { acceptedFormats, maxInputPixels, photoLongestSide } from "./photos";
import { imageKeyOf } from "./chat-media";

/*
 * Image messages: the profile photo pipeline (type read from the bytes, turned upright, metadata
 * left out, scaled down, re-encoded as JPEG), kept under DATA_DIR/chat-images, which nothing serves publicly:
 * GET /api/chat-image.php hands a file to the two members of its conversation only.
 */

export const chatThumbSide = 320;

export type ChatImage = { full: Buffer; thumb: Buffer; fullSize: [number, number]; thumbSize: [number, number] };

/** Null: not an image we accept (or corrupt, or too many pixels). `formats`: what is accepted, by content (an upload: acceptedFormats). */
export async function processChatImage(input: Buffer, formats: ReadonlySet<string> = acceptedFormats): Promise<ChatImage | null> {
  try {
    const meta = await sharp(input, { limitInputPixels: maxInputPixels }).metadata();
    if (!meta.format || !formats.has(meta.format)) return null;
    const upright = () => sharp(input, { limitInputPixels: maxInputPixels, failOn: "error" }).rotate().flatten({ background: "#ffffff" });
    const full = await upright().resize(photoLongestSide, photoLongestSide, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 82, mozjpeg: true }).toBuffer({ resolveWithObject: true });
    const thumb = await upright().resize(chatThumbSide, chatThumbSide, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 78, mozjpeg: true }).toBuffer({ resolveWithObject: true });
    return { full: full.data, thumb: thumb.data, fullSize: [full.info.width, full.info.height], thumbSize: [thumb.info.width, thumb.info.height] };
  } catch {
    return null;
  }
}

/** A profile photo's stored file is one the api wrote: an upload made JPEG, or a demo avatar drawn as SVG (api/db/seed.ts). */
const storedPhotoFormats: ReadonlySet<string> = new Set([...acceptedFormats, "svg"]);

/**
 * A chat image made from a profile photo's stored file (under DATA_DIR/uploads, its `filename`): an operator answering
 * with one of the site-run profile's own photos (docs/staff.md, the operator inbox). The same pipeline and files as an
 * uploaded image, so the member sees it as any image message, and it stays when the photo is removed later. Null: the
 * file is missing or not an image.
 */
export async function chatImageFromPhoto(uploadsRoot: string, filename: string): Promise<ChatImage | null> {
  const base = path.resolve(uploadsRoot);
  const file = path.resolve(base, filename);
  if (!isStorageKey(filename) || !file.startsWith(base + path.sep)) return null;
  const input = await readFile(file).catch(() => null);
  return input ? processChatImage(input, storedPhotoFormats) : null;
}

/** Stores both files; answers the key the message's body names ("img/abc"). */
export async function storeChatImage(storage: FileStorage, image: ChatImage): Promise<string> {
  const key = randomKey("img", "jpg").replace(/\.jpg$/, "");
  await storage.put(`${key}.jpg`, image.full, "image/jpeg");
  await storage.put(`${key}-t.jpg`, image.thumb, "image/jpeg");
  return key;
}

export async function removeChatImage(storage: FileStorage, key: string): Promise<void> {
  await storage.delete(`${key}.jpg`).catch(() => undefined);
  await storage.delete(`${key}-t.jpg`).catch(() => undefined);
}

/** The image message's file for `profileId`, who must be one of the two members of its conversation; null otherwise. */
export async function chatImageFile(db: Db, root: string, profileId: number, messageId: number, size: "full" | "thumb"): Promise<Buffer | null> {
  const [row] = await db
    .select({ body: messages.body })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), eq(messages.kind, "image"), or(eq(conversations.lowProfileId, profileId), eq(conversations.highProfileId, profileId))))
    .limit(1);
  const key = row ? imageKeyOf(row.body) : null;
  if (!key) return null;
  try {
    return await readFile(path.join(path.resolve(root), `${key}${size === "thumb" ? "-t" : ""}.jpg`));
  } catch {
    return null;
  }
}
