import { createHash, createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { derivedKey, seal, unseal } from "../sealed";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { creditPackages, debitMandates, debitRequests, sites, users } from "../../db/schema";
import type { DebitRequestResponse, DirectDebitRequest } from "#contract/direct-debit";
import type { DiscountRefusal } from "#contract/discounts";
import { transactionCostsFor } from "#contract/payment-methods";
import type { PaymentProviders } from "../../services/payments";
import { debitRefusalFor, discountForOrder, startPayment } from "./payments";

/**
 * Direct debit (method sdd) through our own form: the member enters account holder, IBAN and
 * address; a 6-digit code goes by SMS to their phone; the right code gives the mandate and creates the
 * sdd payment, which stays pending until the provider settles it (the sandbox: on command).
 *
 * - The IBAN is kept encrypted with AES-256-GCM and masked for display (ADR 010).
 * - A code lasts 10 minutes and allows 5 wrong tries; then a new code is needed (at most 5 per request).
 * - Limits: the member's direct debits of the last 30 days (pending or paid) plus this one stay within
 *   DEBIT_LIMIT_30D, checked again under the member's lock when the code confirms it (confirmDebit); a member
 *   whose debit bounced is blocked (users.debit_blocked_at).
 */

export const codeLifetimeMs = 10 * 60_000;
export const maxWrongTries = 5;
export const maxCodesPerRequest = 5;

export type DebitConfig = { limit30d: number; ibanKey: Buffer; codeSecret: string };

/** The key IBANs are encrypted with: IBAN_KEY, else derived from the session secret. */
export function ibanKeyOf(config: { IBAN_KEY?: string; SESSION_SECRET: string }): Buffer {
  if (config.IBAN_KEY) return Buffer.from(config.IBAN_KEY, "base64");
  return derivedKey(config.SESSION_SECRET, "iban-encryption");
}

/** "v1.<iv>.<tag>.<ciphertext>" in base64url (api/domain/sealed.ts). */
export function encryptIban(iban: string, key: Buffer): string {
  return seal(iban, key);
}

export function decryptIban(stored: string, key: Buffer): string {
  return unseal(stored, key);
}

/** "NL** **** **** **43 00": the country and the last four characters, in the groups of four banks print. */
export function maskIban(iban: string): string {
  const hidden = iban.slice(0, 2) + "*".repeat(Math.max(0, iban.length - 6)) + iban.slice(-4);
  return hidden.replace(/(.{4})/g, "$1 ").trim();
}

/** "+31 6** *** 678": enough to recognise one's own number. */
export function maskPhone(phone: string): string {
  return phone.slice(0, 4) + "*".repeat(Math.max(0, phone.length - 7)) + phone.slice(-3);
}

function codeHash(secret: string, requestId: number, code: string): string {
  return createHmac("sha256", secret).update(`${requestId}:${code}`).digest("base64url");
}

function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export type DebitRefusal = { kind: "not_found" } | { kind: "blocked" } | { kind: "limit" } | { kind: "discount_refused"; refusal: DiscountRefusal };

/** Blocked, or this amount would take the member over their 30-day limit (the payment's own rule: payments.ts). */
async function refusalFor(db: Db, userId: number, amount: number, limit30d: number, now: Date): Promise<DebitRefusal | null> {
  const refused = await debitRefusalFor(db, userId, amount, limit30d, now);
  return refused === "not_found" ? { kind: "not_found" } : refused ? { kind: refused } : null;
}

type PackageRow = typeof creditPackages.$inferSelect;

async function packageAndPrice(db: Db, siteId: number, userId: number, packageId: number, typed: string | null | undefined, now: Date) {
  const [pkg] = await db
    .select()
    .from(creditPackages)
    .where(and(eq(creditPackages.id, packageId), eq(creditPackages.siteId, siteId), eq(creditPackages.active, true)))
    .limit(1);
  if (!pkg) return null;
  const [member] = await db.select({ userId: users.id, signupDate: users.signupDate, paidUser: users.paidUser }).from(users).where(eq(users.id, userId));
  const [site] = await db.select({ hours: sites.welcomeDiscountHours, costs: sites.transactionCosts }).from(sites).where(eq(sites.id, siteId));
  if (!member) return null;
  const found = await discountForOrder(db, { id: siteId, welcomeDiscountHours: Number(site?.hours ?? 0) }, member, { amount: pkg.amount, currency: pkg.currency, country: pkg.country, method: "sdd" }, typed, now);
  if ("refusal" in found) return { pkg, refusal: found.refusal };
  const price = found.discount ? pkg.amount - Math.round((pkg.amount * found.discount.value_percentage) / 100) : pkg.amount;
  // What the debit will be: the price with the site's direct-debit transaction costs, as startPayment stores it.
  return { pkg, amount: price + transactionCostsFor(site?.costs.sdd, price) };
}

export type DebitRequestRow = typeof debitRequests.$inferSelect;

export function toDebitRequest(row: DebitRequestRow, pkg: Pick<PackageRow, "credits" | "currency">, amount: number): DebitRequestResponse {
  return {
    request_id: row.id,
    package_id: row.packageId,
    credits: pkg.credits,
    amount,
    currency: pkg.currency,
    iban_masked: row.details.ibanMasked,
    phone_masked: maskPhone(row.details.phone),
    code_expires_at: row.codeExpiresAt.toISOString(),
    tries_left: Math.max(0, maxWrongTries - row.wrongTries),
    payment_id: row.paymentId,
  };
}

/** Step 1: checks the member may pay this by direct debit, keeps the details and sends the code. */
export async function requestDebit(
  db: Db,
  config: DebitConfig,
  sendCode: (phone: string, code: string) => Promise<void>,
  input: { siteId: number; userId: number; body: DirectDebitRequest },
  now = new Date(),
): Promise<{ kind: "sent"; request: DebitRequestResponse } | DebitRefusal> {
  const priced = await packageAndPrice(db, input.siteId, input.userId, input.body.package_id, input.body.discount_code, now);
  if (!priced) return { kind: "not_found" };
  if ("refusal" in priced) return { kind: "discount_refused", refusal: priced.refusal! };
  const refused = await refusalFor(db, input.userId, priced.amount, config.limit30d, now);
  if (refused) return refused;
  const { body } = input;
  const code = newCode();
  const [row] = await db
    .insert(debitRequests)
    .values({
      userId: input.userId,
      packageId: priced.pkg.id,
      discountCode: body.discount_code || null,
      details: {
        accountHolder: body.account_holder,
        ibanEncrypted: encryptIban(body.iban, config.ibanKey),
        ibanMasked: maskIban(body.iban),
        street: body.street,
        houseNumber: body.house_number,
        zip: body.zip,
        city: body.city,
        phone: body.phone,
      },
      codeHash: "pending",
      codeExpiresAt: new Date(now.getTime() + codeLifetimeMs),
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error("debit request insert returned nothing");
  const [stored] = await db.update(debitRequests).set({ codeHash: codeHash(config.codeSecret, row.id, code) }).where(eq(debitRequests.id, row.id)).returning();
  await sendCode(body.phone, code);
  return { kind: "sent", request: toDebitRequest(stored ?? row, priced.pkg, priced.amount) };
}

/** A member's own request waiting for its code, with what it will debit. */
export async function debitRequestOf(db: Db, siteId: number, userId: number, requestId: number, now = new Date()): Promise<DebitRequestResponse | null> {
  const [row] = await db.select().from(debitRequests).where(and(eq(debitRequests.id, requestId), eq(debitRequests.userId, userId)));
  if (!row) return null;
  const priced = await packageAndPrice(db, siteId, userId, row.packageId, row.discountCode, now);
  if (!priced) return null;
  return toDebitRequest(row, priced.pkg, "refusal" in priced ? priced.pkg.amount : priced.amount);
}

/** A new code for a request (the old one stops working): at most 5 per request. */
export async function resendCode(
  db: Db,
  config: DebitConfig,
  sendCode: (phone: string, code: string) => Promise<void>,
  input: { siteId: number; userId: number; requestId: number },
  now = new Date(),
): Promise<{ kind: "sent"; request: DebitRequestResponse } | { kind: "not_found" | "too_many" }> {
  const code = newCode();
  const [row] = await db
    .update(debitRequests)
    .set({
      codeHash: codeHash(config.codeSecret, input.requestId, code),
      codeExpiresAt: new Date(now.getTime() + codeLifetimeMs),
      wrongTries: 0,
      codesSent: sql`${debitRequests.codesSent} + 1`,
    })
    .where(and(eq(debitRequests.id, input.requestId), eq(debitRequests.userId, input.userId), isNull(debitRequests.confirmedAt), sql`${debitRequests.codesSent} < ${maxCodesPerRequest}`))
    .returning();
  if (!row) {
    const [exists] = await db.select({ id: debitRequests.id }).from(debitRequests).where(and(eq(debitRequests.id, input.requestId), eq(debitRequests.userId, input.userId), isNull(debitRequests.confirmedAt)));
    return { kind: exists ? "too_many" : "not_found" };
  }
  await sendCode(row.details.phone, code);
  const request = await debitRequestOf(db, input.siteId, input.userId, row.id, now);
  if (!request) return { kind: "not_found" };
  return { kind: "sent", request };
}

export type ConfirmOutcome =
  | { kind: "confirmed"; paymentId: number }
  | { kind: "invalid"; triesLeft: number }
  | { kind: "expired" }
  | { kind: "not_found" }
  | DebitRefusal;

/** A confirmation given up inside its transaction (rolled back): the answer it gives. */
class ConfirmRefused extends Error {
  constructor(readonly outcome: ConfirmOutcome) {
    super(outcome.kind);
  }
}

/**
 * Step 2: the right code, once. Claiming the request, checking the 30-day limit and creating the mandate and
 * payment are one transaction that first locks the member's row (SELECT ... FOR NO KEY UPDATE): a member's
 * confirmations run one after another, each sees the debits committed before it, so the limit holds under
 * concurrency (docs/security.md). Of two submits of the same code the second finds the request claimed and
 * answers the same payment. A refusal or an error rolls everything back, the claim included. A wrong code
 * counts a try.
 */
export async function confirmDebit(
  db: Db,
  providers: PaymentProviders,
  config: DebitConfig,
  input: { siteId: number; siteName: string; userId: number; requestId: number; otp: string; origin: string },
  now = new Date(),
): Promise<ConfirmOutcome> {
  const [row] = await db.select().from(debitRequests).where(and(eq(debitRequests.id, input.requestId), eq(debitRequests.userId, input.userId)));
  if (!row) return { kind: "not_found" };
  // Claimed by another submit of the code: answer that payment.
  if (row.confirmedAt) return row.paymentId ? { kind: "confirmed", paymentId: row.paymentId } : paymentOfClaim(db, row.id);
  if (row.codeExpiresAt.getTime() <= now.getTime() || row.wrongTries >= maxWrongTries) return { kind: "expired" };
  const expected = Buffer.from(row.codeHash);
  const given = Buffer.from(codeHash(config.codeSecret, row.id, input.otp));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const [counted] = await db
      .update(debitRequests)
      .set({ wrongTries: sql`${debitRequests.wrongTries} + 1` })
      .where(and(eq(debitRequests.id, row.id), isNull(debitRequests.confirmedAt)))
      .returning({ wrongTries: debitRequests.wrongTries });
    const left = maxWrongTries - (counted?.wrongTries ?? maxWrongTries);
    return left > 0 ? { kind: "invalid", triesLeft: left } : { kind: "expired" };
  }
  try {
    const paymentId = await db.transaction(async (tx) => {
      // The member's lock: held to the commit, so the limit below counts every debit confirmed before this one.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for("no key update");
      const [claimed] = await tx
        .update(debitRequests)
        .set({ confirmedAt: now })
        .where(and(eq(debitRequests.id, row.id), isNull(debitRequests.confirmedAt), eq(debitRequests.codeHash, row.codeHash), sql`${debitRequests.wrongTries} < ${maxWrongTries}`))
        .returning();
      // The same code sent twice at once: the other submit claimed it (and committed its payment first).
      if (!claimed) return null;
      const priced = await packageAndPrice(tx, input.siteId, input.userId, row.packageId, row.discountCode, now);
      if (!priced) throw new ConfirmRefused({ kind: "not_found" });
      if ("refusal" in priced) throw new ConfirmRefused({ kind: "discount_refused", refusal: priced.refusal! });
      const refused = await refusalFor(tx, input.userId, priced.amount, config.limit30d, now);
      if (refused) throw new ConfirmRefused(refused);
      const d = row.details;
      const [mandate] = await tx
        .insert(debitMandates)
        .values({ userId: input.userId, accountHolder: d.accountHolder, ibanEncrypted: d.ibanEncrypted, ibanMasked: d.ibanMasked, street: d.street, houseNumber: d.houseNumber, zip: d.zip, city: d.city, phone: d.phone, createdAt: now })
        .returning({ id: debitMandates.id });
      // A payment with a mandate is only written (the sandbox settles it later): no provider is called inside the lock.
      const outcome = await startPayment(
        tx,
        providers,
        { siteId: input.siteId, siteName: input.siteName, userId: input.userId, packageId: row.packageId, method: "sdd", origin: input.origin, debitLimit30d: config.limit30d, discountCode: row.discountCode, mandateId: mandate!.id },
        now,
      );
      if (outcome.kind === "discount_refused") throw new ConfirmRefused(outcome);
      if (outcome.kind === "debit_refused") throw new ConfirmRefused({ kind: outcome.reason });
      if (outcome.kind !== "created") throw new ConfirmRefused({ kind: "not_found" });
      await tx.update(debitRequests).set({ paymentId: outcome.payment.id }).where(eq(debitRequests.id, row.id));
      return outcome.payment.id;
    });
    if (paymentId === null) return paymentOfClaim(db, row.id);
    return { kind: "confirmed", paymentId };
  } catch (error) {
    if (error instanceof ConfirmRefused) return error.outcome;
    throw error;
  }
}

/** The payment of a request another submit claimed, once it has one (up to 5 s); expired if that submit was refused or failed. */
async function paymentOfClaim(db: Db, requestId: number): Promise<ConfirmOutcome> {
  for (let i = 0; i < 50; i++) {
    const [again] = await db.select({ paymentId: debitRequests.paymentId, confirmedAt: debitRequests.confirmedAt }).from(debitRequests).where(eq(debitRequests.id, requestId));
    if (again?.paymentId) return { kind: "confirmed", paymentId: again.paymentId };
    if (!again?.confirmedAt) return { kind: "expired" };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { kind: "expired" };
}

/** A bounced direct debit (the provider returned it): the payment fails and the member may not pay by direct debit again. */
export async function blockDebitsOf(db: Db, userId: number, now = new Date()): Promise<void> {
  await db.update(users).set({ debitBlockedAt: now }).where(and(eq(users.id, userId), isNull(users.debitBlockedAt)));
}

/** The code secret: the hash of a code is keyed, so a leaked table does not give 6-digit codes away. */
export function codeSecretOf(sessionSecret: string): string {
  return createHash("sha256").update(`debit-codes:${sessionSecret}`).digest("base64url");
}
