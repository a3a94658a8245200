import { and, asc, eq, ne, sql } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "../db/client";
import { photos, profiles, sites } from "../db/schema";
import { randomKey, type FileStorage } from "../services/storage";
import { photoLimits, type OwnPhoto, type PhotoRejectionReason, type PhotosResponse } from "#contract/photos";

type PhotoRow = typeof photos.$inferSelect;
type Owner = { profileId: number; paidUser: boolean };

/** docs/product.md §9: 3 photos for free members, 25 for premium members. */
export function photoLimitOf(paidUser: boolean): number {
  return paidUser ? photoLimits.premium : photoLimits.free;
}

/** The refusal when a member already has `limit` photos: free members are offered premium, premium members hit the ceiling. */
export type LimitRefusal = { code: "premium_required" } | { code: "photo_limit_reached"; limit: number };

function limitRefusal(owner: Owner, count: number): LimitRefusal | null {
  const limit = photoLimitOf(owner.paidUser);
  if (count < limit) return null;
  return owner.paidUser ? { code: "photo_limit_reached", limit } : { code: "premium_required" };
}

/** Rows in display order; the first active one is the main photo (as mainImages in members.ts decides). Rejected photos are no photos of the member's any more. */
function ownPhotos(rows: PhotoRow[]): OwnPhoto[] {
  const shown = rows.filter((r) => r.status !== "rejected");
  const mainId = shown.find((r) => r.status === "active")?.id;
  return shown.map((r) => ({ id: r.id, filename: r.filename, thumb_filename: r.thumbFilename, status: r.status, main: r.id === mainId }));
}

async function photoRows(db: Db, profileId: number): Promise<PhotoRow[]> {
  return db.select().from(photos).where(eq(photos.profileId, profileId)).orderBy(asc(photos.position), asc(photos.id));
}

/** A photo's slot counts until it is rejected: rejection frees it (docs/staff.md moderation). */
const takesSlot = ne(photos.status, "rejected");

/**
 * GET /api/photos.php: the member's photos in order (pending ones marked: waiting for review, seen by nobody else),
 * their limit and count, and the rejections the member has not dismissed yet (with the moderator's reason).
 */
export async function listOwnPhotos(db: Db, owner: Owner): Promise<PhotosResponse> {
  const rows = await photoRows(db, owner.profileId);
  const list = ownPhotos(rows);
  const rejected = rows.filter((r) => r.status === "rejected").map((r) => ({ id: r.id, reason: (r.rejectionReason ?? "other") as PhotoRejectionReason }));
  return { photos: list, limit: photoLimitOf(owner.paidUser), count: list.length, rejected };
}

/** Answers early (before the image work) when the member is already at the limit. */
export async function uploadRefusal(db: Db, owner: Owner): Promise<LimitRefusal | null> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(photos).where(and(eq(photos.profileId, owner.profileId), takesSlot));
  return limitRefusal(owner, row?.n ?? 0);
}

/** Formats read by content; sharp's "heif" covers HEIC and AVIF (HEIC only where the installed libheif decodes it). */
export const acceptedFormats = new Set(["jpeg", "png", "webp", "heif"]);
/** Larger images are refused before decoding (a small file can expand to gigabytes of pixels). */
export const maxInputPixels = 50_000_000;
export const photoLongestSide = 1600;
export const thumbnailSide = 320;

export type ProcessedPhoto = { full: Buffer; thumb: Buffer };

/**
 * Decodes an upload by its content (never its name or declared type), turns it upright, scales it
 * down and re-encodes it as JPEG with every metadata block (EXIF with GPS, XMP, ICC) left out, as
 * sharp does without withMetadata. The thumbnail is a square crop. Null: not an image we accept.
 */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto | null> {
  try {
    const meta = await sharp(input, { limitInputPixels: maxInputPixels }).metadata();
    if (!meta.format || !acceptedFormats.has(meta.format)) return null;
    // rotate() applies the EXIF orientation before the EXIF is dropped; flatten() gives PNG/WebP transparency a white ground.
    const upright = () => sharp(input, { limitInputPixels: maxInputPixels, failOn: "error" }).rotate().flatten({ background: "#ffffff" });
    const full = await upright()
      .resize(photoLongestSide, photoLongestSide, { fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
    const thumb = await upright().resize(thumbnailSide, thumbnailSide, { fit: "cover", position: "attention" }).jpeg({ quality: 78, mozjpeg: true }).toBuffer();
    return { full, thumb };
  } catch {
    // Truncated, corrupt, too many pixels, or a HEIC variant this libheif cannot decode.
    return null;
  }
}

export type AddPhotoOutcome = { photo: OwnPhoto; list: PhotosResponse } | LimitRefusal;

/**
 * Stores the files, then counts and inserts in one transaction with the profile row locked, so two
 * uploads at once cannot pass the limit together. The files of a refused upload are removed again.
 * New photos go last; the first active one is the main photo. The site's moderation mode decides whether a new photo
 * is live at once (post) or pending until a moderator approves it (pre); both wait in the queue at /staff/photos.
 */
export async function addPhoto(
  db: Db,
  storage: FileStorage,
  owner: Owner,
  image: ProcessedPhoto,
  /** reviewed: put there by staff (a site-run profile's photo): live at once and not in the moderation queue. */
  options: { reviewed?: boolean } = {},
): Promise<AddPhotoOutcome> {
  const filename = randomKey("photos", "jpg");
  const thumbFilename = randomKey("photos", "jpg");
  await storage.put(filename, image.full, "image/jpeg");
  await storage.put(thumbFilename, image.thumb, "image/jpeg");
  let outcome: { id: number } | LimitRefusal;
  try {
    outcome = await db.transaction(async (tx) => {
      const [site] = await tx
        .select({ moderation: sites.photoModeration, siteId: sites.id })
        .from(profiles)
        .innerJoin(sites, eq(sites.id, profiles.siteId))
        .where(eq(profiles.id, owner.profileId))
        .for("update", { of: profiles });
      const [row] = await tx
        .select({ n: sql<number>`(count(*) filter (where ${takesSlot}))::int`, last: sql<number>`coalesce(max(${photos.position}), -1)::int` })
        .from(photos)
        .where(eq(photos.profileId, owner.profileId));
      const refusal = limitRefusal(owner, row?.n ?? 0);
      if (refusal) return refusal;
      // Pre-moderation: waiting for review, shown to its owner only; post-moderation: live at once. Either way in the queue (reviewed_at null).
      const status = site?.moderation === "pre" && !options.reviewed ? "pending" : "active";
      if (!site) throw new Error("the photo's profile is gone");
      const [inserted] = await tx
        .insert(photos)
        .values({ profileId: owner.profileId, siteId: site.siteId, filename, thumbFilename, status, position: (row?.last ?? -1) + 1, reviewedAt: options.reviewed ? new Date() : null })
        .returning({ id: photos.id });
      if (!inserted) throw new Error("photo insert returned nothing");
      return inserted;
    });
  } catch (error) {
    await removeFiles(storage, [filename, thumbFilename]);
    throw error;
  }
  if ("code" in outcome) {
    await removeFiles(storage, [filename, thumbFilename]);
    return outcome;
  }
  const insertedId = outcome.id;
  const list = await listOwnPhotos(db, owner);
  const photo = list.photos.find((p) => p.id === insertedId);
  if (!photo) throw new Error("new photo missing from the list");
  return { photo, list };
}

/**
 * Makes one of the member's photos the main one: it moves to position 0 and the others follow in
 * their order. "not_found" when the photo is not theirs; "not_active" when it could not be shown as main.
 */
export async function makeMainPhoto(db: Db, owner: Owner, photoId: number): Promise<PhotosResponse | "not_found" | "not_active"> {
  const outcome = await db.transaction(async (tx) => {
    await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, owner.profileId)).for("update");
    const rows = await tx.select().from(photos).where(eq(photos.profileId, owner.profileId)).orderBy(asc(photos.position), asc(photos.id));
    const chosen = rows.find((r) => r.id === photoId);
    if (!chosen) return "not_found" as const;
    if (chosen.status !== "active") return "not_active" as const;
    const order = [chosen, ...rows.filter((r) => r.id !== photoId)];
    for (const [position, row] of order.entries()) {
      if (row.position !== position) await tx.update(photos).set({ position }).where(eq(photos.id, row.id));
    }
    return "ok" as const;
  });
  if (outcome !== "ok") return outcome;
  return listOwnPhotos(db, owner);
}

/** Deletes one of the member's photos (row, then files). False when it is not theirs. */
export async function deletePhoto(
  db: Db,
  storage: FileStorage,
  owner: Owner,
  photoId: number,
  /** Runs in the deletion's transaction, only when a photo of this owner was deleted (the staff side's audit entry). */
  onDeleted?: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => Promise<void>,
): Promise<boolean> {
  const row = await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(photos)
      .where(and(eq(photos.id, photoId), eq(photos.profileId, owner.profileId)))
      .returning({ filename: photos.filename, thumb: photos.thumbFilename });
    if (deleted) await onDeleted?.(tx);
    return deleted;
  });
  if (!row) return false;
  await removeFiles(storage, [row.filename, row.thumb]);
  return true;
}

/** A file that cannot be removed is left behind rather than failing the member's request (nothing links to it any more). */
async function removeFiles(storage: FileStorage, keys: string[]): Promise<void> {
  for (const key of new Set(keys)) await storage.delete(key).catch(() => undefined);
}
