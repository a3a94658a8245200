import { createHmac } from "node:crypto";
import { and, asc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { staffLoginFailures, staffUsers } from "../../db/schema";
import { loginThrottle } from "../login";
import { verifyPassword } from "../passwords";
import { derivedKey, unseal } from "../sealed";
import { totpStep } from "./totp";

/**
 * Staff login (docs/staff.md): e-mail, password and a second factor, a TOTP code or one of the recovery codes. The
 * same lock-out as members' (five failures in 15 minutes, api/domain/login.ts), counted for a wrong password and a
 * wrong or reused code alike; a disabled account or one not set up yet never logs in.
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

export async function attemptStaffLogin(db: Db, secret: string, input: { email: string; password: string; code: string }, now = new Date()): Promise<StaffLoginOutcome> {
  const [staff] = await db
    .select({ id: staffUsers.id, passwordHash: staffUsers.passwordHash, totpSecret: staffUsers.totpSecret, disabled: staffUsers.disabled })
    .from(staffUsers)
    .where(eq(staffUsers.email, input.email.trim().toLowerCase()))
    .limit(1);
  // Hash even for an unknown address, so the answer's time does not tell which addresses exist.
  const passwordOk = await verifyPassword(input.password, staff?.passwordHash ?? null);
  if (!staff || staff.disabled || !staff.totpSecret) return { kind: "failed" };
  let totpSecret: string;
  try {
    totpSecret = unseal(staff.totpSecret, totpKeyOf(secret));
  } catch {
    // Sealed under another SESSION_SECRET: no code can match; the account needs a new set-up (docs/staff.md).
    return { kind: "failed" };
  }
  const code = input.code.replace(/\s/g, "");

  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${staffUsers} where ${staffUsers.id} = ${staff.id} for update`);
    const since = new Date(now.getTime() - loginThrottle.windowMs);
    const recent = await tx
      .select({ at: staffLoginFailures.at })
      .from(staffLoginFailures)
      .where(and(eq(staffLoginFailures.staffUserId, staff.id), gt(staffLoginFailures.at, since)))
      .orderBy(asc(staffLoginFailures.at));
    if (recent.length >= loginThrottle.maxFailures) return blocked(recent, now);

    let secondFactor: "totp" | "recovery" | null = null;
    let recoveryCodesLeft: number | null = null;
    if (passwordOk) {
      const step = totpStep(totpSecret, code, now.getTime());
      if (step !== null) {
        // A code logs in once: only a step after the last one used is taken (one conditional update).
        const taken = await tx
          .update(staffUsers)
          .set({ totpLastStep: step })
          .where(and(eq(staffUsers.id, staff.id), or(isNull(staffUsers.totpLastStep), lt(staffUsers.totpLastStep, step))))
          .returning({ id: staffUsers.id });
        if (taken.length === 1) secondFactor = "totp";
      } else if (/^[a-z0-9-\s]{10,}$/i.test(input.code)) {
        // A recovery code works once: removed from the list in the same conditional update that accepts it.
        const hash = recoveryCodeHash(input.code, secret);
        const taken = await tx
          .update(staffUsers)
          .set({ recoveryCodes: sql`array_remove(${staffUsers.recoveryCodes}, ${hash})` })
          .where(and(eq(staffUsers.id, staff.id), sql`${hash} = any(${staffUsers.recoveryCodes})`))
          .returning({ left: sql<number>`coalesce(array_length(${staffUsers.recoveryCodes}, 1), 0)` });
        if (taken.length === 1) {
          secondFactor = "recovery";
          recoveryCodesLeft = Number(taken[0]!.left);
        }
      }
    }
    if (secondFactor) {
      await tx.delete(staffLoginFailures).where(eq(staffLoginFailures.staffUserId, staff.id));
      return { kind: "ok", staffUserId: staff.id, recoveryCodesLeft } as const;
    }
    await tx.insert(staffLoginFailures).values({ staffUserId: staff.id, at: now });
    const failures = [...recent, { at: now }];
    return failures.length >= loginThrottle.maxFailures ? blocked(failures, now) : ({ kind: "failed" } as const);
  });
}

function blocked(failures: { at: Date }[], now: Date): StaffLoginOutcome {
  const pivot = failures[failures.length - loginThrottle.maxFailures];
  const until = (pivot?.at.getTime() ?? now.getTime()) + loginThrottle.windowMs;
  return { kind: "blocked", minutes: Math.max(1, Math.ceil((until - now.getTime()) / 60_000)) };
}
