import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { loginFailures, sessions, users } from "../../db/schema";
import { hashPassword, verifyPassword } from "../passwords";
import { hashToken } from "../sessions";
import { consumeToken, issueTokenLimited, retireTokens, takeoverLinkKinds, tokenIsLive } from "./tokens";

/** docs/product.md §8: "Too many password reset emails sent, please try again tomorrow." after 3 within 24 hours. */
export const resetMailLimit = { max: 3, windowMs: 24 * 60 * 60 * 1000 };

/** A member of the site who can ask for a reset link (pending deletions too: they may want back in). */
export async function accountByEmail(db: Db, siteId: number, email: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, language: users.language, status: users.status })
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(sql`lower(${users.email})`, email.toLowerCase()), inArray(users.status, ["not_confirmed", "active", "deleted"])))
    .limit(1);
  return row ?? null;
}

/** POST /api/password-reset.php: a reset token, or why not. */
export async function requestPasswordReset(
  db: Db,
  secret: string,
  siteId: number,
  email: string,
  now = new Date(),
): Promise<{ token: string; userId: number } | "email_not_found" | "too_many_reset_mails"> {
  const account = await accountByEmail(db, siteId, email);
  if (!account) return "email_not_found";
  const token = await issueTokenLimited(db, secret, account.id, "password_reset", resetMailLimit, now);
  return token ? { token, userId: account.id } : "too_many_reset_mails";
}

/** POST /api/password-reset-do.php: new password; every session, login failure and pending reset or e-mail-change link of the member gone. */
export async function resetPassword(db: Db, secret: string, token: string, password: string, now = new Date()): Promise<boolean> {
  // The link is checked before anything is hashed: a made-up token costs a lookup, not a scrypt.
  if (!(await tokenIsLive(db, secret, token, "password_reset", now))) return false;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const used = await consumeToken(tx, secret, token, "password_reset", now);
    if (!used) return false;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, used.userId));
    await tx.delete(sessions).where(eq(sessions.userId, used.userId));
    await tx.delete(loginFailures).where(eq(loginFailures.userId, used.userId));
    await retireTokens(tx, used.userId, takeoverLinkKinds, now);
    return true;
  });
}

/** The member's password is right (a full scrypt either way). */
export async function passwordMatches(db: Db, userId: number, password: string): Promise<boolean> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return verifyPassword(password, row?.hash ?? null);
}

/** PUT /api/password.php: other devices are logged out and pending reset and e-mail-change links die; the current session stays. */
export async function changePassword(db: Db, secret: string, userId: number, currentToken: string, oldPassword: string, password: string): Promise<boolean> {
  if (!(await passwordMatches(db, userId, oldPassword))) return false;
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, hashToken(currentToken, secret))));
    await retireTokens(tx, userId, takeoverLinkKinds);
  });
  return true;
}
