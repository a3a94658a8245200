import { bigint, date, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { sites } from "./sites";

/**
 * The owners' analytics (docs/staff.md, Analytics): rollups per site and site's day (sites.time_zone), kept up to date
 * by the events themselves (api/domain/analytics/rollups.ts) so a period of any length is a range of a few rows per
 * day, never a scan of members, payments or messages. Empty strings stand for a value not there (one key, not
 * NULL-distinct), as in attribution_visits.
 */

const siteColumn = () =>
  integer("site_id")
    .notNull()
    .references(() => sites.id, { onDelete: "cascade" });
const day = () => date("day", { mode: "string" }).notNull();
const counter = (name: string) => integer(name).notNull().default(0);
const money = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

/** The funnel per site, day, traffic source (network, ref, sub1-sub3) and lander: each step counted on the day it happened. */
export const analyticsFunnelDays = pgTable(
  "analytics_funnel_days",
  {
    siteId: siteColumn(),
    day: day(),
    network: text("network").notNull().default(""),
    ref: text("ref").notNull().default(""),
    sub1: text("sub1").notNull().default(""),
    sub2: text("sub2").notNull().default(""),
    sub3: text("sub3").notNull().default(""),
    /** The landing or lander page the visitor entered by (users.lander; app/features/landers/tracking.server.ts landerOfPath). */
    lander: text("lander").notNull().default(""),
    visits: counter("visits"),
    signups: counter("signups"),
    activations: counter("activations"),
    firstMessages: counter("first_messages"),
    firstPurchases: counter("first_purchases"),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.day, t.network, t.ref, t.sub1, t.sub2, t.sub3, t.lander] }), index("analytics_funnel_days_day_idx").on(t.day)],
);

/**
 * The funnel per site, calendar month (its first day) and source and lander: what analytics_funnel_days holds, summed by
 * month, so a long period's sources and landers read a row per source a month for its whole months and days only for
 * the month it starts and the one it ends in. Kept by the trigger on analytics_funnel_days (api/db/functions/
 * analytics_funnel_totals_follow.sql), in the same statement.
 */
export const analyticsFunnelMonths = pgTable(
  "analytics_funnel_months",
  {
    siteId: siteColumn(),
    month: date("month", { mode: "string" }).notNull(),
    network: text("network").notNull().default(""),
    ref: text("ref").notNull().default(""),
    sub1: text("sub1").notNull().default(""),
    sub2: text("sub2").notNull().default(""),
    sub3: text("sub3").notNull().default(""),
    lander: text("lander").notNull().default(""),
    visits: counter("visits"),
    signups: counter("signups"),
    activations: counter("activations"),
    firstMessages: counter("first_messages"),
    firstPurchases: counter("first_purchases"),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.month, t.network, t.ref, t.sub1, t.sub2, t.sub3, t.lander] }), index("analytics_funnel_months_month_idx").on(t.month)],
);

/**
 * The funnel per site and day, all sources together: what the period's totals and days read (a row a day, however many
 * sources). Kept by a trigger on analytics_funnel_days (migration 0036), so both change in the same statement.
 */
export const analyticsFunnelTotals = pgTable(
  "analytics_funnel_totals",
  {
    siteId: siteColumn(),
    day: day(),
    visits: counter("visits"),
    signups: counter("signups"),
    activations: counter("activations"),
    firstMessages: counter("first_messages"),
    firstPurchases: counter("first_purchases"),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.day] }), index("analytics_funnel_totals_day_idx").on(t.day)],
);

/**
 * Money per site, day, currency, payment country, method, package and discount code: payments on the day they were
 * paid, refunds on the day they were refunded (minor units; amount is what the member paid, costs what the method
 * cost, payments.transaction_costs).
 */
export const analyticsRevenueDays = pgTable(
  "analytics_revenue_days",
  {
    siteId: siteColumn(),
    day: day(),
    currency: text("currency").notNull(),
    country: text("country").notNull(),
    method: text("method").notNull(),
    /** credit_packages.id; 0: none (the package was removed). */
    packageId: integer("package_id").notNull().default(0),
    discountCode: text("discount_code").notNull().default(""),
    payments: counter("payments"),
    firstPurchases: counter("first_purchases"),
    amount: money("amount"),
    discountAmount: money("discount_amount"),
    costs: money("costs"),
    refunds: counter("refunds"),
    refundedAmount: money("refunded_amount"),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.day, t.currency, t.country, t.method, t.packageId, t.discountCode] }), index("analytics_revenue_days_day_idx").on(t.day)],
);

/**
 * Cohorts: per site, signup day (the site's) and currency, the members whose first purchase came within 1, 7 and 30
 * days of signing up, and what their payments in those windows brought (refunds taken off).
 */
export const analyticsCohortDays = pgTable(
  "analytics_cohort_days",
  {
    siteId: siteColumn(),
    day: day(),
    currency: text("currency").notNull(),
    paid1: counter("paid_1"),
    paid7: counter("paid_7"),
    paid30: counter("paid_30"),
    revenue1: money("revenue_1"),
    revenue7: money("revenue_7"),
    revenue30: money("revenue_30"),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.day, t.currency] }), index("analytics_cohort_days_day_idx").on(t.day)],
);

/** Chat per site and day: members' paid messages, the credits they spent by kind, and those sent to site-run profiles. */
export const analyticsChatDays = pgTable(
  "analytics_chat_days",
  {
    siteId: siteColumn(),
    day: day(),
    paidMessages: counter("paid_messages"),
    toSiteRun: counter("to_site_run"),
    creditsMessage: money("credits_message"),
    creditsGift: money("credits_gift"),
    creditsPhoto: money("credits_photo"),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.day] }), index("analytics_chat_days_day_idx").on(t.day)],
);

/** How far the chat rollup has read the messages (their id): api/domain/analytics/rollups.ts rollUpMessages. */
export const analyticsProgress = pgTable("analytics_progress", {
  name: text("name").primaryKey(),
  lastId: bigint("last_id", { mode: "number" }).notNull().default(0),
});
