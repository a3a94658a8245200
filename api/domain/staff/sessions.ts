import { randomBytes } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { staffSessions, staffUsers, type StaffRole } from "../../db/schema";
import { hashToken } from "../sessions";

/** docs/staff.md: a staff session lasts 12 hours; its cookie is for /staff only (web sets it). */
export const staffSessionCookieName = "rdv_staff";
export const staffSessionMaxAgeSeconds = 12 * 60 * 60;

/** Who a staff request acts for. */
export type StaffMember = { id: number; email: string; name: string; role: StaffRole; siteIds: number[] };

export async function createStaffSession(db: Db, staffUserId: number, secret: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  // created_at by the database's clock, as sessions_valid_from is: the two are compared.
  await db.insert(staffSessions).values({ tokenHash: hashToken(`staff:${token}`, secret), staffUserId, expiresAt: new Date(now.getTime() + staffSessionMaxAgeSeconds * 1000) });
  return token;
}

/**
 * The staff member of a live session: not expired, the account not disabled, and made after the account's last
 * password change or re-enabling (sessionsValidFrom). A member's session token is no staff token (another HMAC input).
 */
export async function staffOfSession(db: Db, token: string, secret: string, now = new Date()): Promise<StaffMember | null> {
  const [row] = await db
    .select({ id: staffUsers.id, email: staffUsers.email, name: staffUsers.name, role: staffUsers.role, siteIds: staffUsers.siteIds })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffUserId))
    .where(
      and(
        eq(staffSessions.tokenHash, hashToken(`staff:${token}`, secret)),
        gt(staffSessions.expiresAt, now),
        eq(staffUsers.disabled, false),
        sql`${staffSessions.createdAt} >= ${staffUsers.sessionsValidFrom}`,
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function deleteStaffSession(db: Db, token: string, secret: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.tokenHash, hashToken(`staff:${token}`, secret)));
}
