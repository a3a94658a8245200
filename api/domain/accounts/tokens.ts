import { randomBytes } from "node:crypto";
import { and, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountTokens, users, type AccountTokenKind } from "../../db/schema";
import { hashToken } from "../sessions";

const hour = 60 * 60 * 1000;
/** How long a mailed link works, per kind. */
export const tokenLifetimeMs: Record<AccountTokenKind, number> = {
  activation: 7 * 24 * hour,
  password_reset: 2 * hour,
  email_change: 24 * hour,
  reactivation: 14 * 24 * hour,
};

/** Db or a transaction of it: token functions work in either. */
export type Tx = Pick<Db, "select" | "insert" | "update" | "delete" | "execute">;

/** A fresh random token; only its HMAC goes to the database, the token itself only into the mail. */
export async function issueToken(
  db: Tx,
  secret: string,
  userId: number,
  kind: AccountTokenKind,
  options: { newEmail?: string; now?: Date } = {},
): Promise<string> {
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  await db.insert(accountTokens).values({
    userId,
    kind,
    tokenHash: hashToken(token, secret),
    newEmail: options.newEmail ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + tokenLifetimeMs[kind]),
  });
  return token;
}

/**
 * Issues a token unless `max` of that kind were issued for the member within `windowMs`: counted in the
 * database under a lock on the member's row, so parallel requests on any api instance count one by one.
 */
export async function issueTokenLimited(
  db: Db,
  secret: string,
  userId: number,
  kind: AccountTokenKind,
  limit: { max: number; windowMs: number },
  now = new Date(),
  options: { newEmail?: string; /** Kinds whose unused tokens the new one voids, in the same transaction. */ voids?: readonly AccountTokenKind[] } = {},
): Promise<string | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${users} where ${users.id} = ${userId} for update`);
    const [row] = await tx
      .select({ n: count() })
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, kind), gt(accountTokens.createdAt, new Date(now.getTime() - limit.windowMs))));
    if ((row?.n ?? 0) >= limit.max) return null;
    if (options.voids?.length) await retireTokens(tx, userId, options.voids, now);
    return issueToken(tx, secret, userId, kind, { now, newEmail: options.newEmail });
  });
}

/**
 * Uses a token up: one conditional UPDATE, so of two requests with the same token exactly one wins.
 * Null when the token is unknown, of another kind, used or expired. In a transaction, the member's row is
 * locked first: issuing and voiding lock it before the tokens too, so parallel steps on one account
 * (a confirmation, a new request, a password change) queue instead of deadlocking.
 */
export async function consumeToken(
  db: Tx,
  secret: string,
  token: string,
  kind: AccountTokenKind,
  now = new Date(),
): Promise<{ userId: number; newEmail: string | null } | null> {
  const tokenHash = hashToken(token, secret);
  await db.execute(
    sql`select ${users.id} from ${users} where ${users.id} = (select ${accountTokens.userId} from ${accountTokens} where ${accountTokens.tokenHash} = ${tokenHash}) for update`,
  );
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ userId: accountTokens.userId, newEmail: accountTokens.newEmail });
  return row ?? null;
}

/** Whether a token would be accepted now (a read only: the conditional UPDATE of consumeToken still decides). */
export async function tokenIsLive(db: Tx, secret: string, token: string, kind: AccountTokenKind, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hashToken(token, secret)), eq(accountTokens.kind, kind), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
    .limit(1);
  return Boolean(row);
}

/** Marks a member's unused tokens of some kinds used, e.g. older reset links once the password is reset. */
export async function retireTokens(db: Tx, userId: number, kinds: readonly AccountTokenKind[], now = new Date()): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.userId, userId), inArray(accountTokens.kind, [...kinds]), isNull(accountTokens.usedAt)));
}

/**
 * The links that can take an account over (a new password, a new address): a password change or reset and
 * a new e-mail change request void every pending one, so a link mailed earlier cannot undo the member's step.
 */
export const takeoverLinkKinds = ["password_reset", "email_change"] as const satisfies readonly AccountTokenKind[];

/** Thrown inside a transaction to roll it back with a known outcome. */
export class Outcome<T extends string> extends Error {
  constructor(readonly code: T) {
    super(code);
  }
}

/** The SQLSTATE of a database error (pg's and PGlite's errors carry `code`), found through drizzle's wrapping of the driver error. */
export function sqlState(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/** PostgreSQL's unique_violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === "23505";
}
