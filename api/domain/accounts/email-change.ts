import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { confirmEmail } from "./activation";
import { passwordMatches } from "./password";
import { consumeToken, issueTokenLimited, isUniqueViolation, Outcome, retireTokens, takeoverLinkKinds } from "./tokens";

/**
 * Beside the client limits (docs/security.md, Limits per client), a cap per member: at most 3 e-mail-change mails per
 * member a day, counted in the database.
 */
export const emailChangeMailLimit = { max: 3, windowMs: 24 * 60 * 60 * 1000 };

async function emailInUse(db: Db, siteId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  return Boolean(row);
}

/**
 * POST /api/mail-change.php: a token for the new address, which the caller mails to that address. It voids
 * the links of earlier changes and pending reset links: only the newest change stands, and a link lying in
 * the old mailbox cannot take the account over once the member is moving away from that address.
 */
export async function requestEmailChange(
  db: Db,
  secret: string,
  member: { userId: number; siteId: number },
  email: string,
  password: string,
  now = new Date(),
): Promise<{ token: string } | "password_wrong" | "email_taken" | "too_many_requests"> {
  if (!(await passwordMatches(db, member.userId, password))) return "password_wrong";
  if (await emailInUse(db, member.siteId, email)) return "email_taken";
  const token = await issueTokenLimited(db, secret, member.userId, "email_change", emailChangeMailLimit, now, { newEmail: email, voids: takeoverLinkKinds });
  return token ? { token } : "too_many_requests";
}

/** "jane.doe@example.com" -> "j***@e***.com": enough for the owner to recognise the address, not to learn it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const first = (text: string) => [...text][0] ?? "";
  return `${first(email.slice(0, at))}***@${first(domain)}***${dot > 0 ? domain.slice(dot) : ""}`;
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
        // A bounce was about the old address: the new, confirmed one takes mail again (docs/product.md §3, ADR 011).
        .set({ email: used.newEmail, notificationsDisabled: sql`${users.notificationsDisabled} - 'bounce'` })
        .where(and(eq(users.id, used.userId), sql`${users.status} in ('not_confirmed', 'active')`))
        .returning({ id: users.id });
      if (!changed) throw new Outcome("link_invalid");
      await confirmEmail(tx, used.userId, now);
      // Activation links went to the old address: they must not confirm the new one.
      await retireTokens(tx, used.userId, ["activation"], now);
      return "ok";
    });
  } catch (error) {
    if (error instanceof Outcome) return "link_invalid";
    if (isUniqueViolation(error)) return "email_taken";
    throw error;
  }
}
