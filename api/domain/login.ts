import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginFailures, memberLogins, profiles, users } from "../db/schema";
import { verifyPassword } from "./passwords";
import { countFailure, failureKey, lockedMinutes } from "./login-failures";

export const loginThrottle = { maxFailures: 5, windowMs: 15 * 60 * 1000 };
/** docs/staff.md: a member's page shows their recent logins, this many; no more are kept (each holds a client address). */
export const loginsKept = 20;

/**
 * Records a member's successful login (time and client address) and, in the same statement, drops their logins
 * older than the newest `loginsKept`: the rows the statement reads do not include the one it inserts, so the
 * newest `loginsKept - 1` before it stay.
 */
export async function recordLogin(db: Db, userId: number, clientIp: string): Promise<void> {
  await db.execute(sql`
    with inserted as (insert into ${memberLogins} (user_id, client_ip) values (${userId}, ${clientIp}) returning id)
    delete from ${memberLogins} where ${memberLogins.userId} = ${userId} and ${memberLogins.id} <= (
      select id from ${memberLogins} where ${memberLogins.userId} = ${userId} order by id desc offset ${loginsKept - 1} limit 1
    )`);
}
/** docs/product.md §4: a deleted account is reactivable (and so known to login) for 14 days. */
const pendingDeletionMs = 14 * 24 * 60 * 60 * 1000;

export type LoginOutcome =
  | { kind: "ok"; userId: number }
  | { kind: "pending_deletion"; userId: number }
  | { kind: "failed" }
  | { kind: "blocked"; minutes: number }
  /** Suspended (until a time) or banned (until null) by staff: told only to who knows the password. */
  | { kind: "suspended"; reason: string; until: Date | null };

/**
 * Checks e-mail and password for one site. Five wrong passwords for an account within 15 minutes
 * block it until the oldest of them leaves the window. The row lock on the user makes concurrent
 * attempts, on any api instance, count one after another.
 */
export async function attemptLogin(db: Db, siteId: number, email: string, password: string, now = new Date(), secret = ""): Promise<LoginOutcome> {
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, deletedAt: users.deletedAt, suspensionReason: users.suspensionReason, suspendedUntil: users.suspendedUntil })
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  // Hash even when the account is unknown, so response time does not reveal which e-mails exist.
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? null);
  if (!user || user.status === "erased") return noSuchAccount(db, secret, siteId, email);
  // A soft-deleted account still counts failures; the right password only tells it is pending deletion.
  const pendingDeletion = user.status === "deleted";
  if (pendingDeletion && !(user.deletedAt && now.getTime() - user.deletedAt.getTime() < pendingDeletionMs)) return noSuchAccount(db, secret, siteId, email);

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
      if (user.suspensionReason) {
        if (!user.suspendedUntil || user.suspendedUntil > now) return { kind: "suspended", reason: user.suspensionReason, until: user.suspendedUntil } as const;
        // The suspension has run out: lifted at this login, and the profile is shown again.
        await liftSuspension(tx, user.id);
      }
      return { kind: pendingDeletion ? "pending_deletion" : "ok", userId: user.id } as const;
    }
    await tx.insert(loginFailures).values({ userId: user.id, at: now });
    const failures = [...recent, { at: now }];
    return failures.length >= loginThrottle.maxFailures ? blocked(failures, now) : ({ kind: "failed" } as const);
  });
}

/**
 * A login for an address no account can use answers as a wrong password for an account does, lock-out included
 * (counted per typed address and site, api/domain/login-failures.ts): a 429 on the fifth try tells nobody the address exists.
 */
async function noSuchAccount(db: Db, secret: string, siteId: number, email: string): Promise<LoginOutcome> {
  const key = failureKey(secret, "member", siteId, email);
  const locked = (await lockedMinutes(db, key)) ?? (await countFailure(db, key));
  return locked !== null ? { kind: "blocked", minutes: locked } : { kind: "failed" };
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Ends a suspension or ban: the member may log in again, and an active account's profile is shown again. */
export async function liftSuspension(tx: Db | Tx, userId: number): Promise<void> {
  const [user] = await tx.update(users).set({ suspensionReason: null, suspendedUntil: null }).where(eq(users.id, userId)).returning({ status: users.status });
  if (user?.status === "active") await tx.update(profiles).set({ status: "active" }).where(eq(profiles.userId, userId));
}

function blocked(failures: { at: Date }[], now: Date): LoginOutcome {
  // The block lifts when the failure that made the count reach the limit leaves the window.
  const pivot = failures[failures.length - loginThrottle.maxFailures];
  const until = (pivot?.at.getTime() ?? now.getTime()) + loginThrottle.windowMs;
  return { kind: "blocked", minutes: Math.max(1, Math.ceil((until - now.getTime()) / 60_000)) };
}
