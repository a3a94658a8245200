import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { paymentStatuses } from "#contract/payment-methods";
import { createdAt } from "./columns";
import { userRef } from "./members";
import { siteRef, sites } from "./sites";

/** Credits and money: the ledger, packages, payments and their events, discount codes, direct debits. api/db/schema.ts gathers every domain's tables for drizzle and the api. */

/** Every change of a member's credits, written in the same transaction as users.credits. */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason", { enum: ["signup", "purchase", "message", "gift", "photo", "refund", "demo", "staff"] }).notNull(),
    reference: text("reference"),
    createdAt: createdAt(),
  },
  (t) => [index("credit_ledger_user_idx").on(t.userId, t.createdAt)],
);

/** docs/product.md §3 Payment: a credit package of a site for one payment country; money in integer minor units. */
export const creditPackages = pgTable(
  "credit_packages",
  {
    id: serial("id").primaryKey(),
    siteId: siteRef(),
    country: text("country").notNull(),
    credits: integer("credits").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    mark: text("mark", { enum: ["most_chosen", "best_value"] }),
    position: integer("position").notNull().default(0),
    active: boolean("active").notNull().default(true),
    /** Payments started with it, counted as they are (api/domain/payments/payments.ts startPayment): the packages page. */
    paymentsCount: integer("payments_count").notNull().default(0),
  },
  (t) => [index("credit_packages_site_country_idx").on(t.siteId, t.country, t.position)],
);

/**
 * A payment's states: the members' (contract/payment-methods.ts paymentStatuses) and `refunding`, the claim of a
 * refund while the provider is asked (members still see `paid`; docs/payments.md Refunds).
 */
export const paymentRowStatuses = [...paymentStatuses, "refunding"] as const;

/**
 * A payment: what was bought (credits and amount copied from the package at creation), with which method
 * and provider, and its state (contract/payments.ts paymentStatuses). Only a conditional update from
 * `pending` makes it final; credits are granted in the same transaction (ledger reference `payment:{id}`).
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    siteId: siteRef(),
    packageId: integer("package_id").references(() => creditPackages.id, { onDelete: "set null" }),
    credits: integer("credits").notNull(),
    amount: integer("amount").notNull(),
    transactionCosts: integer("transaction_costs").notNull().default(0),
    currency: text("currency").notNull(),
    country: text("country").notNull(),
    method: text("method").notNull(),
    provider: text("provider").notNull(),
    status: text("status", { enum: paymentRowStatuses }).notNull().default("pending"),
    /** Our reference at the provider (random, unguessable): the sandbox checkout token, Verotel's referenceID. */
    reference: text("reference").notNull(),
    /** The provider's id of the sale (Verotel saleID), once known. */
    providerReference: text("provider_reference"),
    /** A stored card the provider can charge again (repeat order); null when none. */
    storedCard: text("stored_card"),
    /** Whether this payment charged a stored card (repeat order). */
    usedStoredCard: boolean("used_stored_card").notNull().default(false),
    /** The sandbox's own state (the payer's choice): the fake provider keeps it here. */
    sandboxOutcome: text("sandbox_outcome"),
    createdAt: createdAt(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /**
     * The site's day (sites.time_zone) it was paid on, and the one the member's payment in this currency before it was
     * paid on (null: this is their first): set as it is paid (api/domain/analytics/rollups.ts countPaymentPaid). A
     * member paid in a period once for each payment of the period whose previous one is before the period, so the
     * analytics count the paying members from the index alone, without a distinct, a join or time-zone arithmetic.
     */
    paidDay: date("paid_day", { mode: "string" }),
    previousPaidDay: date("previous_paid_day", { mode: "string" }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    refundedCredits: integer("refunded_credits").notNull().default(0),
    /** Credits already spent when refunded: not taken back (the balance never goes below zero). */
    refundShortfall: integer("refund_shortfall").notNull().default(0),
    /** What was paid back (minor units): the whole amount or a part of it, as the provider was asked; null before a refund. */
    refundAmount: integer("refund_amount"),
    /** Why staff refunded it (the console's refund form asks). */
    refundReason: text("refund_reason"),
    /** The discount this payment got: its code (upper case), percentage and amount off the package's price. */
    discountCode: text("discount_code"),
    discountPercentage: integer("discount_percentage"),
    discountAmount: integer("discount_amount").notNull().default(0),
    /** A direct debit (sdd) through our own form: its mandate. */
    mandateId: integer("mandate_id"),
    /** Attribution: the member's tracking values (docs/product.md §3) when the payment started. */
    network: text("network"),
    ref: text("ref"),
    sub1: text("sub1"),
    sub2: text("sub2"),
    sub3: text("sub3"),
  },
  (t) => [
    uniqueIndex("payments_reference_idx").on(t.provider, t.reference),
    // The staff's member search by a payment's reference or the provider's (api/domain/staff/member-admin.ts).
    index("payments_search_reference_idx").on(t.reference),
    index("payments_search_provider_reference_idx").on(t.providerReference),
    // The packages page's payments per package (api/http/staff-sites.ts).
    index("payments_package_idx").on(t.packageId),
    index("payments_user_idx").on(t.userId, t.createdAt),
    // The pending ones, oldest first: the settle job's scan and the metrics' backlog (api/jobs/settle-payments.ts) read
    // these few rows rather than every payment ever made.
    // The analytics' paying members of a period (api/domain/analytics/report.ts): a range of paid times, read from the index alone.
    index("payments_paid_day_idx").on(t.paidDay, t.siteId, t.currency, t.previousPaidDay).where(sql`${t.paidDay} is not null`),
    index("payments_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    // The paid ones by when: the dashboard's revenue of the day (api/domain/staff/dashboard.ts) reads that day's.
    index("payments_paid_idx").on(t.paidAt).where(sql`${t.status} = 'paid'`),
  ],
);

/** Every notification a provider sent (replays included), and what it changed: the audit trail of a payment. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: serial("id").primaryKey(),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    eventId: text("event_id"),
    status: text("status").notNull(),
    /**
     * applied (changed the payment), ignored (replay, late or out of order), mismatch (amount or currency
     * differs, or a `paid` without them), unconfirmed (the provider's status service did not confirm it),
     * refund_failed (our refund call failed at the provider: `event_id` holds the error, the payment is `paid` again).
     */
    outcome: text("outcome", { enum: ["applied", "ignored", "mismatch", "unconfirmed", "refund_failed"] }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_events_payment_idx").on(t.paymentId, t.receivedAt)],
);

/**
 * docs/product.md §3 discount codes an operator hands out (the welcome discount and the time bonus are rules in
 * api/domain/payments/discounts.ts, not rows). `site_id` null: valid on every site.
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id").references(() => sites.id, { onDelete: "cascade" }),
    /** Upper case; members may type it in any case. */
    code: text("code").notNull(),
    percentage: integer("percentage").notNull(),
    /** Minor units of the package's price (before transaction costs); 0: none. */
    minimumOrderValue: integer("minimum_order_value").notNull().default(0),
    /** Only for payments in this currency (and the minimum order is in it); null: any. */
    currency: text("currency"),
    /** Only for this payment country; null: any. */
    country: text("country"),
    /** Only for these payment methods; null: any. */
    paymentMethods: jsonb("payment_methods").$type<string[]>(),
    validity: text("validity", { enum: ["once_per_user", "uses"] }).notNull().default("once_per_user"),
    /** With validity `uses`: how many paid (or running) payments may use it in all. */
    maxUses: integer("max_uses"),
    /** Uses held by running payments and used by paid ones (validity `uses`). */
    usedCount: integer("used_count").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("discount_codes_code_idx").on(t.code, t.siteId), check("discount_codes_percentage_check", sql`${t.percentage} between 1 and 90`)],
);

/**
 * A discount held by a running payment (`reserved`) or used by a paid one (`used`). A payment that ends
 * unpaid gives its reservation back. A once-per-member code has `once_key` = the member, so the unique
 * index lets one payment of theirs hold it at a time, however many start at once.
 */
export const discountUses = pgTable(
  "discount_uses",
  {
    id: serial("id").primaryKey(),
    code: text("code").notNull(),
    discountCodeId: integer("discount_code_id").references(() => discountCodes.id, { onDelete: "cascade" }),
    userId: userRef(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    onceKey: integer("once_key"),
    status: text("status", { enum: ["reserved", "used"] }).notNull().default("reserved"),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("discount_uses_payment_idx").on(t.paymentId), uniqueIndex("discount_uses_once_idx").on(t.code, t.onceKey), index("discount_uses_user_idx").on(t.userId)],
);

/**
 * A direct debit mandate (docs/product.md §3 Direct debit form), given once the SMS code is right. The IBAN
 * is kept encrypted (AES-256-GCM, docs/decisions/010-direct-debit-mandates.md) and masked for display.
 */
export const debitMandates = pgTable(
  "debit_mandates",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    accountHolder: text("account_holder").notNull(),
    ibanEncrypted: text("iban_encrypted").notNull(),
    ibanMasked: text("iban_masked").notNull(),
    street: text("street").notNull(),
    houseNumber: text("house_number").notNull(),
    zip: text("zip").notNull(),
    city: text("city").notNull(),
    phone: text("phone").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("debit_mandates_user_idx").on(t.userId)],
);

/**
 * A direct debit waiting for its SMS code: what the member entered (the IBAN encrypted), the package,
 * the code's hash, its expiry and the wrong tries. Confirmed once (confirmed_at, the payment it made).
 */
export const debitRequests = pgTable(
  "debit_requests",
  {
    id: serial("id").primaryKey(),
    userId: userRef(),
    packageId: integer("package_id")
      .notNull()
      .references(() => creditPackages.id, { onDelete: "cascade" }),
    discountCode: text("discount_code"),
    details: jsonb("details").$type<{ accountHolder: string; ibanEncrypted: string; ibanMasked: string; street: string; houseNumber: string; zip: string; city: string; phone: string }>().notNull(),
    codeHash: text("code_hash").notNull(),
    codeExpiresAt: timestamp("code_expires_at", { withTimezone: true }).notNull(),
    codesSent: integer("codes_sent").notNull().default(1),
    wrongTries: integer("wrong_tries").notNull().default(0),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("debit_requests_user_idx").on(t.userId, t.createdAt)],
);

/* ---- Data export ---- */
