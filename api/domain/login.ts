import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginFailures, users } from "../db/schema";
import { verifyPassword } from "./passwords";

export const loginThrottle = { maxFailures: 5, windowMs: 15 * 60 * 1000 };
/** docs/product.md §4: a deleted account is reactivable (and so known to login) for 14 days. */
const pendingDeletionMs = 14 * 24 * 60 * 60 * 1000;

export type LoginOutcome =
  | { kind: "ok"; userId: number }
  | { kind: "pending_deletion"; userId: number }
  | { kind: "failed" }
  | { kind: "blocked"; minutes: number };

/**
 * Checks e-mail and password for one site. Five wrong passwords for an account within 15 minutes
 * block it until the oldest of them leaves the window. The row lock on the user makes concurrent
 * attempts, on any api instance, count one after another.
 */
export async function attemptLogin(db: Db, siteId: number, email: string, password: string, now = new Date()): Promise<LoginOutcome> {
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, deletedAt: users.deletedAt })
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  // Hash even when the account is unknown, so response time does not reveal which e-mails exist.
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? null);
  if (!user || user.status === "erased") return { kind: "failed" };
  // A soft-deleted account still counts failures; the right password only tells it is pending deletion.
  const pendingDeletion = user.status === "deleted";
  if (pendingDeletion && !(user.deletedAt && now.getTime() - user.deletedAt.getTime() < pendingDeletionMs)) return { kind: "failed" };

  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${users} where ${users.id} = ${user.id} for update`);
    const since = new Date(now.getTime() - loginThrottle.windowMs);
    const recent = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.userId, user.id), gt(loginFailures.at, since)))
      .orderBy(asc(loginFailures.at));
    if (recent.length >= loginThrottle.maxFailures) return blocked(recent, now);
    if (passwordOk) {
      await tx.delete(loginFailures).where(eq(loginFailures.userId, user.id));
      return { kind: pendingDeletion ? "pending_deletion" : "ok", userId: user.id } as const;
    }
    await tx.insert(loginFailures).values({ userId: user.id, at: now });
    const failures = [...recent, { at: now }];
    return failures.length >= loginThrottle.maxFailures ? blocked(failures, now) : ({ kind: "failed" } as const);
  });
}

function blocked(failures: { at: Date }[], now: Date): LoginOutcome {
  // The block lifts when the failure that made the count reach the limit leaves the window.
  const pivot = failures[failures.length - loginThrottle.maxFailures];
  const until = (pivot?.at.getTime() ?? now.getTime()) + loginThrottle.windowMs;
  return { kind: "blocked", minutes: Math.max(1, Math.ceil((until - now.getTime()) / 60_000)) };
}
