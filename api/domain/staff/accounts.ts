import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
import { staffUsers, type StaffRole } from "../../db/schema";
import { hashPassword } from "../passwords";
import { seal } from "../sealed";
import { recoveryCodeHash, totpKeyOf } from "./login";
import { newTotpSecret } from "./totp";

export const recoveryCodeCount = 10;

/** Ten recovery codes, "xxxxx-xxxxx" of lower-case letters and digits: shown once, kept as HMACs. */
export function newRecoveryCodes(): string[] {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  return Array.from({ length: recoveryCodeCount }, () => {
    const chars = [...randomBytes(10)].map((byte) => alphabet[byte % alphabet.length]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export type NewStaffAccount = { email: string; name: string; role: StaffRole; siteIds: number[]; password: string; totpSecret?: string };

/**
 * A staff account with its password and second factor set at once (the demo data; a set-up link does it for real
 * accounts): answers the TOTP secret and the recovery codes, which are shown once and kept only sealed or hashed.
 */
export async function addStaffAccount(db: Db, secret: string, account: NewStaffAccount): Promise<{ id: number; totpSecret: string; recoveryCodes: string[] }> {
  const totpSecret = account.totpSecret ?? newTotpSecret();
  const recoveryCodes = newRecoveryCodes();
  const [row] = await db
    .insert(staffUsers)
    .values({
      email: account.email.trim().toLowerCase(),
      name: account.name,
      role: account.role,
      siteIds: account.siteIds,
      passwordHash: await hashPassword(account.password),
      totpSecret: seal(totpSecret, totpKeyOf(secret)),
      recoveryCodes: recoveryCodes.map((code) => recoveryCodeHash(code, secret)),
    })
    .returning({ id: staffUsers.id });
  return { id: row!.id, totpSecret, recoveryCodes };
}

export type StaffAccountDetails = Omit<NewStaffAccount, "password" | "totpSecret">;

/**
 * A staff account without a password or a second factor (password_hash and totp_secret null: it cannot log in), for
 * `npm run staff -- add` (scripts/staff.ts): its set-up link (api/domain/staff/setup.ts) sets both. Null when the
 * e-mail address is taken (the unique index decides, also between two commands at once).
 */
export async function addStaffAccountForSetup(db: Pick<Db, "insert">, account: StaffAccountDetails): Promise<{ id: number } | null> {
  const [row] = await db
    .insert(staffUsers)
    .values({ email: account.email.trim().toLowerCase(), name: account.name, role: account.role, siteIds: account.siteIds })
    .onConflictDoNothing({ target: staffUsers.email })
    .returning({ id: staffUsers.id });
  return row ?? null;
}
