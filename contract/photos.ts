import { z } from "zod";
import { id, queryId } from "./input";

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

/** GET /api/photos.php: the member's photos in order, how many they may have and how many they have. */
export const PhotosResponse = z.object({
  photos: z.array(OwnPhoto),
  limit: z.number().int(),
  count: z.number().int(),
});
export type PhotosResponse = z.infer<typeof PhotosResponse>;

/** POST /api/photos.php (201): the new photo and the whole list after it. */
export const PhotoUploadResponse = PhotosResponse.extend({ photo: OwnPhoto });

/** PUT /api/photo.php: make a photo the main one. */
export const PhotoUpdate = z.object({ id, main: z.literal(true) });

/** DELETE /api/photo.php?id= */
export const PhotoQuery = z.object({ id: queryId });
