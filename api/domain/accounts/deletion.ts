import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { profiles, sessions, users } from "../../db/schema";
import { passwordMatches } from "./password";
import { consumeToken, issueToken, issueTokenLimited, Outcome, tokenLifetimeMs } from "./tokens";

/** docs/product.md §4 and §9: a deleted account can be reactivated for 14 days, then the erase job clears it. */
export const reactivationWindowMs = tokenLifetimeMs.reactivation;
/** A login to a pending deletion mails a fresh reactivation link at most once an hour. */
export const reactivationMailLimit = { max: 1, windowMs: 60 * 60 * 1000 };

/** POST /api/delete-account.php: soft delete, every session ended, a reactivation token for the mail. */
export async function deleteAccount(
  db: Db,
  secret: string,
  userId: number,
  request: { password: string; reason?: string | undefined },
  now = new Date(),
): Promise<{ token: string } | "password_wrong"> {
  const { password } = request;
  // Kept for the operators' view of why members leave; erased with the rest of the personal data.
  const deletionReason = request.reason?.trim() || null;
  if (!(await passwordMatches(db, userId, password))) return "password_wrong";
  return db.transaction(async (tx) => {
    const [deleted] = await tx
      .update(users)
      .set({ status: "deleted", deletedAt: now, deletionReason })
      .where(and(eq(users.id, userId), inArray(users.status, ["not_confirmed", "active"])))
      .returning({ id: users.id });
    if (!deleted) throw new Error("account to delete is not live");
    // Hidden from search and lists while pending deletion.
    await tx.update(profiles).set({ status: "disabled" }).where(eq(profiles.userId, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    return { token: await issueToken(tx, secret, userId, "reactivation", { now }) };
  });
}

/** POST /api/reactivate.php: back to active (or not_confirmed), within 14 days of the deletion. */
export async function reactivate(db: Db, secret: string, token: string, now = new Date()): Promise<{ userId: number } | null> {
  try {
    return await db.transaction(async (tx) => {
      const used = await consumeToken(tx, secret, token, "reactivation", now);
      if (!used) return null;
      const [user] = await tx
        .update(users)
        .set({
          status: sql`case when ${users.emailConfirmedAt} is null then 'not_confirmed' else 'active' end`,
          deletedAt: null,
          deletionReason: null,
        })
        .where(and(eq(users.id, used.userId), eq(users.status, "deleted"), gt(users.deletedAt, new Date(now.getTime() - reactivationWindowMs))))
        .returning({ id: users.id, status: users.status });
      if (!user) throw new Outcome("link_invalid");
      await tx.update(profiles).set({ status: user.status === "active" ? "active" : "disabled" }).where(eq(profiles.userId, user.id));
      return { userId: user.id };
    });
  } catch (error) {
    if (error instanceof Outcome) return null;
    throw error;
  }
}

/** A login with the right password to a pending deletion: a fresh reactivation token, unless one was issued this hour. */
export function reissueReactivation(db: Db, secret: string, userId: number, now = new Date()): Promise<string | null> {
  return issueTokenLimited(db, secret, userId, "reactivation", reactivationMailLimit, now);
}
