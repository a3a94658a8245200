import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { confirmEmail } from "./activation";
import { passwordMatches } from "./password";
import { consumeToken, issueToken, isUniqueViolation, Outcome, retireTokens } from "./tokens";

async function emailInUse(db: Db, siteId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  return Boolean(row);
}

/** POST /api/mail-change.php: a token for the new address, which the caller mails to that address. */
export async function requestEmailChange(
  db: Db,
  secret: string,
  member: { userId: number; siteId: number },
  email: string,
  password: string,
  now = new Date(),
): Promise<{ token: string } | "password_wrong" | "email_taken"> {
  if (!(await passwordMatches(db, member.userId, password))) return "password_wrong";
  if (await emailInUse(db, member.siteId, email)) return "email_taken";
  return { token: await issueToken(db, secret, member.userId, "email_change", { newEmail: email, now }) };
}

/**
 * POST /api/mail-change-do.php: the new address replaces the old one and counts as confirmed.
 * If another account took the address meanwhile, the unique index refuses and nothing changes.
 */
export async function confirmEmailChange(db: Db, secret: string, token: string, now = new Date()): Promise<"ok" | "link_invalid" | "email_taken"> {
  try {
    return await db.transaction(async (tx) => {
      const used = await consumeToken(tx, secret, token, "email_change", now);
      if (!used?.newEmail) return "link_invalid";
      const [changed] = await tx
        .update(users)
        .set({ email: used.newEmail })
        .where(and(eq(users.id, used.userId), sql`${users.status} in ('not_confirmed', 'active')`))
        .returning({ id: users.id });
      if (!changed) throw new Outcome("link_invalid");
      await confirmEmail(tx, used.userId, now);
      // Activation links went to the old address: they must not confirm the new one.
      await retireTokens(tx, used.userId, "activation", now);
      return "ok";
    });
  } catch (error) {
    if (error instanceof Outcome) return "link_invalid";
    if (isUniqueViolation(error)) return "email_taken";
    throw error;
  }
}
