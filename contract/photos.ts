import { z } from "zod";
import { id, queryId } from "./input";
import { photoRejectionReasons } from "./moderation-reasons";

export { photoLimits, photoMaxBytes, photoMaxMegabytes, photoUploadField } from "./photo-limits";

/**
 * docs/product.md §6: how many of another member's photos a viewer sees on the member page, in the member's
 * order (the main photo first). Visitors: the main photo; free members: a few; premium members: all (null).
 */
export const visiblePhotoCount = { visitor: 1, free: 3, premium: null } as const;

export const PhotoStatus = z.enum(["active", "pending", "rejected"]);

/** One of the member's own photos; `main` is the first active photo by position (the profile's main_image). */
export const OwnPhoto = z.object({
  id: z.number().int(),
  filename: z.string(),
  thumb_filename: z.string(),
  status: PhotoStatus,
  main: z.boolean(),
});
export type OwnPhoto = z.infer<typeof OwnPhoto>;

/** Why a moderator rejected a photo (docs/staff.md): the member is told the reason in their language (photos namespace, rejection). */
export { photoRejectionReasons };
export const PhotoRejectionReason = z.enum(photoRejectionReasons);
export type PhotoRejectionReason = z.infer<typeof PhotoRejectionReason>;

/**
 * GET /api/photos.php: the member's photos in order (a pending one waits for review and is shown to nobody else),
 * how many they may have and how many they have, and the rejected photos not dismissed yet (DELETE /api/photo.php
 * dismisses one).
 */
export const PhotosResponse = z.object({
  photos: z.array(OwnPhoto),
  limit: z.number().int(),
  count: z.number().int(),
  rejected: z.array(z.object({ id: z.number().int(), reason: PhotoRejectionReason })),
});
export type PhotosResponse = z.infer<typeof PhotosResponse>;

/** POST /api/photos.php (201): the new photo and the whole list after it. */
export const PhotoUploadResponse = PhotosResponse.extend({ photo: OwnPhoto });

/** PUT /api/photo.php: make a photo the main one. */
export const PhotoUpdate = z.object({ id, main: z.literal(true) });

/** DELETE /api/photo.php?id= */
export const PhotoQuery = z.object({ id: queryId });
