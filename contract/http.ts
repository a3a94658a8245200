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

/**
 * How long web and the api keep an idle connection open (node's default is 5 s): longer than whoever sends on it keeps
 * it (a load balancer or proxy in front of web, commonly 60 s; web's own agent towards the api, 4 s), so no request is
 * sent on a connection the server is closing; such a reset reaches the member as a 502.
 */
export function keepIdleConnections(server: { keepAliveTimeout: number; headersTimeout: number }): void {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}
