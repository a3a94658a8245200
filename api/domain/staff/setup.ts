import { createHmac, randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { Secret } from "otpauth";
import type { Db } from "../../db/client";
import { sites, staffSessions, staffTokens, staffUsers, type StaffRole } from "../../db/schema";
import { publicOrigin } from "../accounts/links";
import { hashPassword, verifyPassword } from "../passwords";
import { seal } from "../sealed";
import { hashToken } from "../sessions";
import { addStaffAccountForSetup, newRecoveryCodes, type StaffAccountDetails } from "./accounts";
import { recordAudit } from "./audit";
import { recoveryCodeHash, totpKeyOf } from "./login";
import type { StaffMember } from "./sessions";
import { totpStep, totpUri } from "./totp";
import { servesEverySite } from "#contract/staff-permissions";

/**
 * Setting up a staff account (docs/staff.md): `npm run staff -- add` (scripts/staff.ts) makes an account without a
 * password or second factor and a single-use set-up link, valid 72 hours; the link's page (app/routes/
 * staff_.setup.$token.tsx) shows the TOTP secret to enrol, and takes a password and the authenticator's code, which
 * set both at once and use the link up. `-- link` makes a new link for an existing account (a lost phone), which
 * ends its password, second factor and sessions until the new link is used. Also the staff password change.
 */

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const setupLinkHours = 72;
/** The web page of a set-up link: /staff/setup/<token>. */
export const staffSetupPath = "/staff/setup";
/** The issuer authenticator apps show beside the account's e-mail address. */
export const totpIssuer = "Rendezvous staff";

/** Only this HMAC of a set-up token is kept (another HMAC input than sessions', api/domain/staff/sessions.ts). */
export function setupTokenHash(token: string, secret: string): string {
  return hashToken(`staff-setup:${token}`, secret);
}

/**
 * The TOTP secret a set-up link offers: 160 bits derived from its token and the deployment's secret, so every load
 * of the page shows the same secret without keeping it anywhere before enrolment (the token itself is never stored,
 * only its HMAC, and whoever holds the link is shown the secret anyway). Sealed onto the account once enrolled.
 */
export function setupTotpSecret(token: string, secret: string): string {
  const bytes = createHmac("sha256", secret).update(`staff-setup-totp:${token}`).digest().subarray(0, 20);
  return new Secret({ buffer: new Uint8Array(bytes).buffer }).base32;
}

/** A new set-up token for an account; its earlier unused ones end (marked used), so only the newest link works. */
async function issueSetupToken(tx: Tx, secret: string, staffUserId: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
  await tx
    .update(staffTokens)
    .set({ usedAt: now })
    .where(and(eq(staffTokens.staffUserId, staffUserId), eq(staffTokens.kind, "setup"), isNull(staffTokens.usedAt)));
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + setupLinkHours * 60 * 60 * 1000);
  await tx.insert(staffTokens).values({ staffUserId, kind: "setup", tokenHash: setupTokenHash(token, secret), expiresAt });
  return { token, expiresAt };
}

/** The ids of `siteIds` that are no site. */
export async function unknownSiteIds(db: Pick<Db, "select">, siteIds: readonly number[]): Promise<number[]> {
  if (siteIds.length === 0) return [];
  const found = new Set((await db.select({ id: sites.id }).from(sites).where(inArray(sites.id, [...siteIds]))).map((row) => row.id));
  return siteIds.filter((id) => !found.has(id));
}

export type NewSetupLink = { kind: "ok"; staffUserId: number; token: string; expiresAt: Date };

/** A new staff account without a password or second factor, and its set-up link. */
export async function addStaffWithSetupLink(
  db: Db,
  secret: string,
  account: StaffAccountDetails,
  now = new Date(),
): Promise<NewSetupLink | { kind: "email_taken" } | { kind: "unknown_sites"; siteIds: number[] }> {
  const unknown = await unknownSiteIds(db, account.siteIds);
  if (unknown.length) return { kind: "unknown_sites", siteIds: unknown };
  return db.transaction(async (tx) => {
    const row = await addStaffAccountForSetup(tx, account);
    if (!row) return { kind: "email_taken" } as const;
    return { kind: "ok", staffUserId: row.id, ...(await issueSetupToken(tx, secret, row.id, now)) } as const;
  });
}

/**
 * A new set-up link for an existing account (a lost phone, a forgotten password): the account's password, second
 * factor and recovery codes are cleared and its sessions end at once, so a lost phone or a leaked recovery code opens
 * nothing; the new link sets them again. Earlier unused links of the account end.
 */
export async function renewSetupLink(
  db: Db,
  secret: string,
  email: string,
  now = new Date(),
): Promise<(NewSetupLink & { role: StaffRole; siteIds: number[] }) | { kind: "not_found" } | { kind: "disabled" }> {
  return db.transaction(async (tx) => {
    const [staff] = await tx
      .select({ id: staffUsers.id, role: staffUsers.role, siteIds: staffUsers.siteIds, disabled: staffUsers.disabled })
      .from(staffUsers)
      .where(eq(staffUsers.email, email.trim().toLowerCase()))
      .for("update");
    if (!staff) return { kind: "not_found" } as const;
    if (staff.disabled) return { kind: "disabled" } as const;
    await tx
      .update(staffUsers)
      .set({ passwordHash: null, totpSecret: null, totpLastStep: null, recoveryCodes: [], sessionsValidFrom: sql`now()` })
      .where(eq(staffUsers.id, staff.id));
    await tx.delete(staffSessions).where(eq(staffSessions.staffUserId, staff.id));
    return { kind: "ok", staffUserId: staff.id, role: staff.role, siteIds: staff.siteIds, ...(await issueSetupToken(tx, secret, staff.id, now)) } as const;
  });
}

/**
 * The origin of a set-up link: PUBLIC_URL (api/config.ts) with `{domain}` the domain of the first site the account
 * serves (an admin, or an account without sites: the first site). Null when PUBLIC_URL needs a domain and there is
 * no site.
 */
export async function setupLinkOrigin(db: Pick<Db, "select">, publicUrl: string, account: { role: StaffRole; siteIds: readonly number[] }): Promise<string | null> {
  if (!publicUrl.includes("{domain}")) return publicUrl;
  const served = servesEverySite(account.role) || account.siteIds.length === 0 ? undefined : inArray(sites.id, [...account.siteIds]);
  const [site] = await db.select({ domain: sites.domain }).from(sites).where(served).orderBy(asc(sites.id)).limit(1);
  return site ? publicOrigin(publicUrl, site.domain) : null;
}

export function setupLink(origin: string, token: string): string {
  return `${origin}${staffSetupPath}/${token}`;
}

export type PendingSetup = { staffUserId: number; email: string; name: string; totpSecret: string; otpauthUri: string };

/** The account a set-up link sets up and the secret it offers; null for an unknown, used or expired link, or a disabled account. */
export async function pendingSetup(db: Pick<Db, "select">, secret: string, token: string, now = new Date()): Promise<PendingSetup | null> {
  const [row] = await db
    .select({ id: staffUsers.id, email: staffUsers.email, name: staffUsers.name })
    .from(staffTokens)
    .innerJoin(staffUsers, eq(staffUsers.id, staffTokens.staffUserId))
    .where(
      and(
        eq(staffTokens.tokenHash, setupTokenHash(token, secret)),
        eq(staffTokens.kind, "setup"),
        isNull(staffTokens.usedAt),
        gt(staffTokens.expiresAt, now),
        eq(staffUsers.disabled, false),
      ),
    )
    .limit(1);
  if (!row) return null;
  const totpSecret = setupTotpSecret(token, secret);
  return { staffUserId: row.id, email: row.email, name: row.name, totpSecret, otpauthUri: totpUri(totpSecret, row.email, totpIssuer) };
}

export type SetupOutcome = { kind: "ok"; staffUserId: number; recoveryCodes: string[] } | { kind: "link_invalid" } | { kind: "code_wrong" };

/**
 * Finishes a set-up: the authenticator's current code proves the secret was enrolled (a wrong code changes nothing,
 * the link stays usable); then, in one transaction, the link is used up by one conditional update (unused and not
 * expired: of two requests with one link exactly one gets past it), the password, the sealed secret and ten new
 * recovery codes (hashed) are set, earlier sessions end, and the audit log records it (the account acts on itself).
 * The enrolment code's step counts as used: it cannot log in afterwards.
 */
export async function completeSetup(
  db: Db,
  secret: string,
  input: { token: string; password: string; code: string },
  clientIp: string | null,
  now = new Date(),
): Promise<SetupOutcome> {
  const pending = await pendingSetup(db, secret, input.token, now);
  if (!pending) return { kind: "link_invalid" };
  const step = totpStep(pending.totpSecret, input.code.trim(), now.getTime());
  if (step === null) return { kind: "code_wrong" };
  // Hashed before the transaction: no lock is held while scrypt runs.
  const passwordHash = await hashPassword(input.password);
  const recoveryCodes = newRecoveryCodes();
  return db.transaction(async (tx) => {
    // The account's row first, as a login locks it (api/domain/staff/login.ts).
    await tx.execute(sql`select id from ${staffUsers} where ${staffUsers.id} = ${pending.staffUserId} for update`);
    const [used] = await tx
      .update(staffTokens)
      .set({ usedAt: now })
      .where(and(eq(staffTokens.tokenHash, setupTokenHash(input.token, secret)), eq(staffTokens.kind, "setup"), isNull(staffTokens.usedAt), gt(staffTokens.expiresAt, now)))
      .returning({ staffUserId: staffTokens.staffUserId });
    if (!used) return { kind: "link_invalid" } as const;
    const [staff] = await tx
      .update(staffUsers)
      .set({
        passwordHash,
        totpSecret: seal(pending.totpSecret, totpKeyOf(secret)),
        totpLastStep: step,
        recoveryCodes: recoveryCodes.map((code) => recoveryCodeHash(code, secret)),
        sessionsValidFrom: sql`now()`,
      })
      .where(and(eq(staffUsers.id, used.staffUserId), eq(staffUsers.disabled, false)))
      .returning({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role });
    // Disabled since the link was opened: the link is used up all the same, and sets nothing.
    if (!staff) return { kind: "link_invalid" } as const;
    await tx.delete(staffSessions).where(eq(staffSessions.staffUserId, staff.id));
    await recordAudit(tx, staff, clientIp, { action: "staff.setup_completed", targetType: "staff", targetId: staff.id });
    return { kind: "ok", staffUserId: staff.id, recoveryCodes } as const;
  });
}

/**
 * A staff member's password change: the current password checked, the new one set, every session of the account
 * ended (sessions_valid_from moves; the caller opens a fresh one for the member) and the change in the audit log
 * (never the password). `same`: the new password is the current one.
 */
export async function changeStaffPassword(
  db: Db,
  staff: Pick<StaffMember, "id" | "email" | "role">,
  input: { currentPassword: string; password: string },
  clientIp: string | null,
): Promise<"changed" | "current_wrong" | "same"> {
  const [row] = await db.select({ passwordHash: staffUsers.passwordHash }).from(staffUsers).where(eq(staffUsers.id, staff.id)).limit(1);
  const stored = row?.passwordHash ?? null;
  if (!(await verifyPassword(input.currentPassword, stored)) || stored === null) return "current_wrong";
  if (input.password === input.currentPassword) return "same";
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // Only over the password just checked: of two changes at once, the second finds another hash and is refused.
    const [changed] = await tx
      .update(staffUsers)
      .set({ passwordHash, sessionsValidFrom: sql`now()` })
      .where(and(eq(staffUsers.id, staff.id), eq(staffUsers.passwordHash, stored)))
      .returning({ id: staffUsers.id });
    if (!changed) return "current_wrong" as const;
    await tx.delete(staffSessions).where(eq(staffSessions.staffUserId, staff.id));
    await recordAudit(tx, staff, clientIp, { action: "staff.password_changed", targetType: "staff", targetId: staff.id });
    return "changed" as const;
  });
}
