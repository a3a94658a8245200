import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { countFunnelStep } from "../analytics/rollups";
import type { Db } from "../../db/client";
import { creditLedger, invitations, profiles, users } from "../../db/schema";
import { hasTrafficSource, type SignupRequest } from "#contract/account";
import { isLocale } from "#contract/locales";
import type { Site } from "../sites";
import { ageOn } from "#contract/age";
import { hashPassword } from "../passwords";
import { issueToken, isUniqueViolation, Outcome, type Tx } from "./tokens";
import { countSignup } from "../../metrics";

export const maxAge = 120;

export type SignupRefusal =
  | { code: "signups_closed" | "invitation_invalid" | "invalid_date_of_birth" | "account_exists" | "account_pending_deletion" }
  | { code: "validation_failed"; fields: Record<string, string[]> };

/** docs/product.md §3, §5: all, with_trafficsource (a network or ref in the tracking), or other (a valid invitation). */
export function signupGate(site: Pick<Site, "signups">, body: Pick<SignupRequest, "tracking" | "invitation">): SignupRefusal | null {
  if (site.signups === "all") return null;
  if (site.signups === "with_trafficsource") return hasTrafficSource(body.tracking) ? null : { code: "signups_closed" };
  return body.invitation ? null : { code: "signups_closed" };
}

/** docs/product.md §5: the name may not be the e-mail address nor start with @; the age must be min_age..120. */
export function signupInputRefusal(site: Pick<Site, "minAge">, body: Pick<SignupRequest, "name" | "email" | "date_of_birth">, now = new Date()): SignupRefusal | null {
  const name = body.name.trim();
  if (name.toLowerCase() === body.email.toLowerCase()) return { code: "validation_failed", fields: { name: ["name_is_email"] } };
  if (name.startsWith("@")) return { code: "validation_failed", fields: { name: ["name_starts_with_at"] } };
  const age = ageOn(body.date_of_birth, now);
  if (age < site.minAge || age > maxAge) return { code: "invalid_date_of_birth" };
  return null;
}

/** account_exists or account_pending_deletion when the site has an account with this address, else null. */
export async function existingAccountRefusal(db: Tx, siteId: number, email: string): Promise<SignupRefusal | null> {
  const [row] = await db
    .select({ status: users.status })
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  if (!row) return null;
  return { code: row.status === "deleted" ? "account_pending_deletion" : "account_exists" };
}

export type NewAccount = { userId: number; activationToken: string };

/**
 * Creates user, profile, signup credits (with their ledger row), the used invitation and the activation
 * token in one transaction. A parallel signup with the same address loses on the unique index and gets
 * account_exists with nothing written.
 */
export async function createAccount(
  db: Db,
  secret: string,
  site: Site,
  body: SignupRequest,
  country: string,
  now = new Date(),
): Promise<NewAccount | SignupRefusal> {
  const passwordHash = await hashPassword(body.password);
  const tracking = body.tracking ?? {};
  try {
    const account = await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          siteId: site.id,
          email: body.email,
          passwordHash,
          status: "not_confirmed",
          credits: 0,
          signupDate: now,
          language: isLocale(body.language) ? body.language : "en",
          network: tracking.network || null,
          ref: tracking.ref || null,
          sub1: tracking.sub1 || null,
          sub2: tracking.sub2 || null,
          sub3: tracking.sub3 || null,
          lander: body.lander || null,
        })
        .returning({ id: users.id });
      if (!user) throw new Error("user insert returned nothing");
      if (site.signups === "other") await useInvitation(tx, site.id, body.invitation ?? "", user.id, now);
      await tx.insert(profiles).values({
        userId: user.id,
        siteId: site.id,
        name: body.name.trim(),
        country,
        status: "disabled",
        dateOfBirth: body.date_of_birth,
        gender: body.gender ?? "male",
        signupMessage: body.signup_message || null,
        createdAt: now,
      });
      await grantCredits(tx, user.id, site.signupCredits, "signup", now);
      await countFunnelStep(tx, user.id, "signups", now);
      const activationToken = await issueToken(tx, secret, user.id, "activation", { now });
      return { userId: user.id, activationToken };
    });
    countSignup();
    return account;
  } catch (error) {
    if (error instanceof Outcome && error.code === "invitation_invalid") return { code: "invitation_invalid" };
    if (isUniqueViolation(error)) return (await existingAccountRefusal(db, site.id, body.email)) ?? { code: "account_exists" };
    throw error;
  }
}

/** Marks the site's invitation used by this member, if it exists, is unused and unexpired: one conditional UPDATE. */
async function useInvitation(tx: Tx, siteId: number, code: string, userId: number, now: Date): Promise<void> {
  const [used] = await tx
    .update(invitations)
    .set({ usedByUserId: userId })
    .where(and(eq(invitations.siteId, siteId), eq(invitations.code, code), isNull(invitations.usedByUserId), gt(invitations.expiresAt, now)))
    .returning({ id: invitations.id });
  if (!used) throw new Outcome("invitation_invalid");
}

/** Adds credits with a conditional UPDATE and writes the ledger row with the resulting balance, in the caller's transaction. */
export async function grantCredits(tx: Tx, userId: number, delta: number, reason: "signup", now: Date): Promise<void> {
  if (delta === 0) return;
  const [row] = await tx
    .update(users)
    .set({ credits: sql`${users.credits} + ${delta}` })
    .where(eq(users.id, userId))
    .returning({ credits: users.credits });
  if (!row) throw new Error("credits update found no user");
  await tx.insert(creditLedger).values({ userId, delta, balanceAfter: row.credits, reason, createdAt: now });
}
