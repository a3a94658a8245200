import { photoMaxBytes } from "./photo-limits";

/*
 * The largest request body each api route reads (docs/security.md), in one table for both services:
 * web refuses a bigger body before it reaches the api (server/api-body-cap.ts), the api before a parser
 * reads it (api/http/body-cap.ts), so the two never disagree and the api never drops a body web is
 * still sending.
 */
export const apiBodyLimits = {
  /** Every JSON endpoint (express.json's limit). */
  jsonBytes: 64 * 1024,
  /** One photo and a few small fields (multer counts the file itself). */
  uploadBytes: photoMaxBytes + 64 * 1024,
  /** A payment provider's notification: a signed form or JSON of a few hundred bytes. */
  notifyBytes: 16 * 1024,
};

const byPath: Record<string, number> = {
  "/api/photos.php": apiBodyLimits.uploadBytes,
  "/api/chat-image.php": apiBodyLimits.uploadBytes,
  "/api/payment-notify.php": apiBodyLimits.notifyBytes,
};

/** The cap of the route a path (without its query) reaches; Express matches paths without case and with a trailing slash. */
export function apiBodyLimit(path: string): number {
  return byPath[path.toLowerCase().replace(/\/$/, "")] ?? apiBodyLimits.jsonBytes;
}
