import { createHmac, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { profiles, sessions, users } from "../db/schema";
import { preparedPerDatabase } from "../db/prepared";

export const sessionCookieName = "rdv_session";
export const sessionMaxAgeSeconds = 30 * 24 * 60 * 60; // docs/product.md §9: the auth cookie lasts 30 days

export function hashToken(token: string, secret: string): string {
  return createHmac("sha256", secret).update(token).digest("base64url");
}

export async function createSession(db: Db, userId: number, secret: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(sessions).values({
    tokenHash: hashToken(token, secret),
    userId,
    expiresAt: new Date(Date.now() + sessionMaxAgeSeconds * 1000),
  });
  return token;
}

/** Who a request acts for: the account, its profile (likes, blocks and photos hang off profiles) and whether they paid. */
export type SessionMember = { userId: number; profileId: number; paidUser: boolean };

/**
 * The session lookup runs on every request with a cookie: built once per database as a prepared query
 * (drizzle builds the SQL once; PostgreSQL plans it once per connection), with the values as placeholders.
 */
const sessionMemberQuery = preparedPerDatabase((db) =>
  db
    .select({ userId: sessions.userId, profileId: profiles.id, paidUser: users.paidUser })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(liveSessionOfSite(sql.placeholder("siteId")))
    .limit(1)
    .prepare("session_member"),
);

/**
 * The condition of a query that joins `sessions` to `users`: the session of the token hash (placeholder `tokenHash`)
 * is unexpired (`now`, as an ISO 8601 string: placeholders skip the column's own encoding) and its member belongs to `siteId`.
 */
export function liveSessionOfSite(siteId: Placeholder): SQL | undefined {
  return and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), gt(sessions.expiresAt, sql.placeholder("now")), eq(users.siteId, siteId));
}

/** The member of a live session, if they belong to `siteId`: a session of one site is no session on another. */
export async function sessionMember(db: Db, token: string, secret: string, siteId: number): Promise<SessionMember | null> {
  const [row] = await sessionMemberQuery(db).execute(sessionValues(token, secret, siteId));
  return row ?? null;
}

/** The values liveSessionOfSite's placeholders take for a request's session token. */
export function sessionValues(token: string, secret: string, siteId: number) {
  // Placeholders skip the column's own encoding: the time goes as ISO 8601, as drizzle sends a timestamptz.
  return { tokenHash: hashToken(token, secret), now: new Date().toISOString(), siteId };
}

/** The same for an account that just logged in or signed up (no session lookup needed). */
export async function memberOfUser(db: Db, userId: number): Promise<SessionMember> {
  const [row] = await db
    .select({ userId: users.id, profileId: profiles.id, paidUser: users.paidUser })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new Error(`user ${userId} has no profile`);
  return row;
}

/** Which of these session token hashes still belong to a live (unexpired) session: the event streams' heartbeat asks for all at once. */
export async function liveSessionHashes(db: Db, tokenHashes: string[]): Promise<Set<string>> {
  if (tokenHashes.length === 0) return new Set();
  const rows = await db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(and(inArray(sessions.tokenHash, [...new Set(tokenHashes)]), gt(sessions.expiresAt, new Date())));
  return new Set(rows.map((r) => r.tokenHash));
}

export async function deleteSession(db: Db, token: string, secret: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token, secret)));
}
