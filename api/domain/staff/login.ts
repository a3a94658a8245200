import { createHmac } from "node:crypto";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { staffUsers } from "../../db/schema";
import { clearFailures, countFailure, failureKey, lockedMinutes } from "../login-failures";
import { verifyPassword } from "../passwords";
import { derivedKey, unseal } from "../sealed";
import { recordAudit } from "./audit";
import { totpStep } from "./totp";

/**
 * Staff login (docs/staff.md): e-mail, password and a second factor, a TOTP code or one of the recovery codes. Five
 * failures in 15 minutes (a wrong password and a wrong or reused code alike) lock the typed address out for 15 minutes
 * from the client's address only (api/domain/login-failures.ts), for a known and an unknown address alike; a disabled
 * account or one not set up yet never logs in.
 */
export type StaffLoginOutcome =
  | { kind: "ok"; staffUserId: number; /** After a login with a recovery code: how many are left; else null. */ recoveryCodesLeft: number | null }
  | { kind: "failed" }
  | { kind: "blocked"; minutes: number };

/** The key TOTP secrets are sealed with (api/domain/sealed.ts). */
export function totpKeyOf(secret: string): Buffer {
  return derivedKey(secret, "staff-totp-secret");
}

export function recoveryCodeHash(code: string, secret: string): string {
  return createHmac("sha256", secret).update(`staff-recovery:${code.replace(/[\s-]/g, "").toLowerCase()}`).digest("base64url");
}

export async function attemptStaffLogin(db: Db, secret: string, input: { email: string; password: string; code: string }, clientIp: string, now = new Date()): Promise<StaffLoginOutcome> {
  const email = input.email.trim().toLowerCase();
  const [staff] = await db
    .select({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role, passwordHash: staffUsers.passwordHash, totpSecret: staffUsers.totpSecret, disabled: staffUsers.disabled })
    .from(staffUsers)
    .where(eq(staffUsers.email, email))
    .limit(1);
  // Hash even for an unknown address, so the answer's time does not tell which addresses exist.
  const passwordOk = await verifyPassword(input.password, staff?.passwordHash ?? null);
  // Failures count per typed address and client address together: another address's failures never lock this one out.
  const key = failureKey(secret, "staff", email, clientIp);
  const locked = await lockedMinutes(db, key);
  if (locked !== null) return { kind: "blocked", minutes: locked };
  const usable = staff && !staff.disabled && staff.totpSecret ? staff : null;
  let totpSecret: string | null = null;
  if (usable && passwordOk) {
    try {
      totpSecret = unseal(usable.totpSecret!, totpKeyOf(secret));
    } catch {
      // Sealed under another SESSION_SECRET: no code can match; the account needs a new set-up (docs/staff.md).
    }
  }
  const code = input.code.replace(/\s/g, "");

  return db.transaction(async (tx) => {
    let secondFactor: "totp" | "recovery" | null = null;
    let recoveryCodesLeft: number | null = null;
    if (usable && totpSecret) {
      await tx.execute(sql`select id from ${staffUsers} where ${staffUsers.id} = ${usable.id} for update`);
      const step = totpStep(totpSecret, code, now.getTime());
      if (step !== null) {
        // A code logs in once: only a step after the last one used is taken (one conditional update).
        const taken = await tx
          .update(staffUsers)
          .set({ totpLastStep: step })
          .where(and(eq(staffUsers.id, usable.id), or(isNull(staffUsers.totpLastStep), lt(staffUsers.totpLastStep, step))))
          .returning({ id: staffUsers.id });
        if (taken.length === 1) secondFactor = "totp";
      } else if (/^[a-z0-9-\s]{10,}$/i.test(input.code)) {
        // A recovery code works once: removed from the list in the same conditional update that accepts it.
        const hash = recoveryCodeHash(input.code, secret);
        const taken = await tx
          .update(staffUsers)
          .set({ recoveryCodes: sql`array_remove(${staffUsers.recoveryCodes}, ${hash})` })
          .where(and(eq(staffUsers.id, usable.id), sql`${hash} = any(${staffUsers.recoveryCodes})`))
          .returning({ left: sql<number>`coalesce(array_length(${staffUsers.recoveryCodes}, 1), 0)` });
        if (taken.length === 1) {
          secondFactor = "recovery";
          recoveryCodesLeft = Number(taken[0]!.left);
        }
      }
    }
    if (usable && secondFactor) {
      await clearFailures(tx, key);
      return { kind: "ok", staffUserId: usable.id, recoveryCodesLeft } as const;
    }
    const lockedNow = await countFailure(tx, key);
    // A known account's failures and lock-outs are in its audit log (an unknown address has no account to file them under).
    if (staff) {
      await recordAudit(tx, staff, clientIp, { action: "staff.login_failed", targetType: "staff", targetId: staff.id, changes: { reason: { before: null, after: passwordOk ? "second factor" : "password" } } });
      if (lockedNow !== null) await recordAudit(tx, staff, clientIp, { action: "staff.login_locked", targetType: "staff", targetId: staff.id, changes: { minutes: { before: null, after: lockedNow } } });
    }
    return lockedNow !== null ? ({ kind: "blocked", minutes: lockedNow } as const) : ({ kind: "failed" } as const);
  });
}
