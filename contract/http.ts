import { randomUUID } from "node:crypto";

/** What web and api agree on beside the schemas: header and cookie names, and how a request id looks. */

/** The visitor's IP, sent by web; the api believes it only from a peer it trusts (TRUST_PROXY). */
export const clientIpHeader = "X-Client-IP";
/** The auth cookie: a random token whose HMAC the api keeps (docs/decisions/002). */
export const sessionCookieName = "rdv_session";

/** A client's X-Request-Id is logged only when it is short and plain; anything else gets a fresh id. */
export function acceptedRequestId(given: unknown): string {
  return typeof given === "string" && /^[A-Za-z0-9-]{1,64}$/.test(given) ? given : randomUUID();
}

/** Whether a Cookie header carries a session cookie (not whether the session is valid). */
export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  return Boolean(cookieHeader && new RegExp(`(?:^|;\\s*)${sessionCookieName}=[^;]+`).test(cookieHeader));
}
