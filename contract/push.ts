import { z } from "zod";

/*
 * docs/product.md §7: POST /api/user.php?push=1 with body {subscription} (member): stores the browser's push
 * subscription (PushSubscription.toJSON()), or with `subscription: null` forgets this browser's one
 * (given its endpoint in `endpoint`). -> PushResponse | authentication_required 403 | validation_failed 400.
 */
/** A URL as a browser's PushSubscription gives it: printable ASCII only (a URL parser would quietly encode a NUL the database cannot store). */
const printableUrl = /^[!-~]+$/;
const asGiven = "must be the endpoint URL as the browser gave it";

export const PushSubscriptionJson = z.object({
  endpoint: z.url({ protocol: /^https$/ }).max(2000).regex(printableUrl, asGiven),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // base64url of an uncompressed P-256 point (65 bytes) and of the 16-byte auth secret.
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/),
    auth: z.string().regex(/^[A-Za-z0-9_-]{21,24}={0,2}$/),
  }),
});
export const PushRequest = z.union([
  z.object({ subscription: PushSubscriptionJson }),
  z.object({ subscription: z.null(), endpoint: z.url().max(2000).regex(printableUrl, asGiven) }),
]);
export type PushRequest = z.infer<typeof PushRequest>;

export const PushResponse = z.object({ subscribed: z.boolean() });
