/*
 * Photo limits the pages show (upload forms, image messages): plain constants, no zod, so that importing them
 * does not bring the schemas into a page's JavaScript (contract/photos.ts re-exports them).
 */

/** docs/product.md §5 and §9: how many photos a member may have. */
export const photoLimits = { free: 3, premium: 25 } as const;

/** The largest upload the api (and web, before forwarding) accepts. */
export const photoMaxMegabytes = 10;
export const photoMaxBytes = photoMaxMegabytes * 1024 * 1024;

/** The multipart field of POST /api/photos.php. */
export const photoUploadField = "photo";
