import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { profiles, users } from "../../db/schema";
import { countFunnelStep } from "../analytics/rollups";
import { consumeToken, issueTokenLimited, type Tx } from "./tokens";

/** Resending the activation mail: at most 3 an hour per member, counted in the database. */
export const activationResendLimit = { max: 3, windowMs: 60 * 60 * 1000 };

/** docs/product.md §4: until the e-mail is confirmed, the other party cannot reply to this member's messages. */
export function mayReplyTo(user: { status: string }): boolean {
  return user.status === "active";
}

/**
 * Marks the member's e-mail confirmed: a not_confirmed account becomes active and its profile visible.
 * A pending deletion stays pending (its profile stays hidden).
 */
export async function confirmEmail(tx: Tx, userId: number, now: Date): Promise<void> {
  // The first confirmation is the analytics funnel's activation (docs/staff.md, Analytics); a later one changes nothing.
  const [first] = await tx
    .update(users)
    .set({ emailConfirmedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)))
    .returning({ id: users.id });
  if (first) await countFunnelStep(tx, userId, "activations", now);
  const [user] = await tx
    .update(users)
    .set({
      emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now.toISOString()}::timestamptz)`,
      status: sql`case when ${users.status} = 'not_confirmed' then 'active' else ${users.status} end`,
    })
    .where(eq(users.id, userId))
    .returning({ status: users.status });
  if (user?.status === "active") await tx.update(profiles).set({ status: "active" }).where(eq(profiles.userId, userId));
}

/** POST /api/activate.php: true when the token was valid and is now used. */
export async function activate(db: Db, secret: string, token: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const used = await consumeToken(tx, secret, token, "activation", now);
    if (!used) return false;
    await confirmEmail(tx, used.userId, now);
    return true;
  });
}

/** A new activation token while the member is not confirmed; "limited" past 3 an hour, "confirmed" when there is nothing to confirm. */
export async function reissueActivation(db: Db, secret: string, userId: number, now = new Date()): Promise<{ token: string } | "limited" | "confirmed"> {
  const [user] = await db.select({ status: users.status }).from(users).where(and(eq(users.id, userId), eq(users.status, "not_confirmed")));
  if (!user) return "confirmed";
  const token = await issueTokenLimited(db, secret, userId, "activation", activationResendLimit, now);
  return token ? { token } : "limited";
}
