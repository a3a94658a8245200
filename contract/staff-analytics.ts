import { z } from "zod";
import { IsoDate } from "./account";
import { queryId } from "./input";

/**
 * The owners' analytics (docs/staff.md, Analytics), admins only (`analytics.read`):
 *   GET /api/staff/analytics.php AnalyticsQuery -> AnalyticsResponse
 * One site (its days in its time zone) or every site (each site's own days), for a period and the period of the same
 * length just before it. Money is in minor units per currency.
 */

export const analyticsPeriods = ["today", "7", "30", "90", "custom"] as const;
export type AnalyticsPeriod = (typeof analyticsPeriods)[number];
/** The longest custom period, in days. */
export const analyticsMaxDays = 366;

export const AnalyticsQuery = z
  .object({
    site: queryId.optional(),
    period: z.enum(analyticsPeriods).default("30"),
    from: IsoDate.optional(),
    to: IsoDate.optional(),
  })
  .refine((q) => q.period !== "custom" || (q.from !== undefined && q.to !== undefined), { message: "a custom period needs from and to", path: ["from"] })
  .refine((q) => q.from === undefined || q.to === undefined || (q.from <= q.to && daysBetween(q.from, q.to) <= analyticsMaxDays), {
    message: `from on or before to, at most ${analyticsMaxDays} days`,
    path: ["to"],
  });
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

/** Days from `from` to `to`, both counted. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The day `n` days after `day` (YYYY-MM-DD; n may be negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The period asked for (both days included) and the one of the same length just before it; `today` is the site's today. */
export function periodOf(query: Pick<AnalyticsQuery, "period" | "from" | "to">, today: string): { from: string; to: string; previousFrom: string; previousTo: string } {
  const [from, to] =
    query.period === "custom" && query.from && query.to ? [query.from, query.to] : query.period === "today" ? [today, today] : [addDays(today, 1 - Number(query.period)), today];
  const length = daysBetween(from, to);
  return { from, to, previousFrom: addDays(from, -length), previousTo: addDays(from, -1) };
}

const FunnelSteps = z.object({ visits: z.number(), signups: z.number(), activations: z.number(), first_messages: z.number(), first_purchases: z.number() });
export type FunnelSteps = z.infer<typeof FunnelSteps>;
export const funnelStepNames = ["visits", "signups", "activations", "first_messages", "first_purchases"] as const;

const Source = z.object({ network: z.string(), ref: z.string(), sub1: z.string(), sub2: z.string(), sub3: z.string() });

const Money = z.object({
  currency: z.string(),
  payments: z.number(),
  first_purchases: z.number(),
  /** What members paid (after discounts, with the method's costs). */
  amount: z.number(),
  discount_amount: z.number(),
  /** What the payment methods cost (payments.transaction_costs). */
  costs: z.number(),
  refunds: z.number(),
  refunded_amount: z.number(),
  /** amount - refunded_amount - costs. */
  net: z.number(),
});
export type Money = z.infer<typeof Money>;

const RevenueTotals = Money.extend({
  paying_members: z.number(),
  /** net / paying_members, minor units, rounded; null without paying members. */
  per_paying_member: z.number().nullable(),
});

const Cohort = z.object({
  /** The Monday the signup week starts. */
  week: z.string(),
  signups: z.number(),
  currency: z.string().nullable(),
  paid_1: z.number(),
  paid_7: z.number(),
  paid_30: z.number(),
  revenue_1: z.number(),
  revenue_7: z.number(),
  revenue_30: z.number(),
});

const ChatTotals = z.object({ paid_messages: z.number(), to_site_run: z.number(), credits_message: z.number(), credits_gift: z.number(), credits_photo: z.number() });

export const AnalyticsResponse = z.object({
  site_id: z.number().nullable(),
  /** The site's time zone (every site: each its own). */
  time_zone: z.string().nullable(),
  period: z.object({ from: z.string(), to: z.string(), previous_from: z.string(), previous_to: z.string() }),
  funnel: z.object({
    current: FunnelSteps,
    previous: FunnelSteps,
    by_day: z.array(FunnelSteps.extend({ day: z.string() })),
    /** The 100 sources with the most visits and signups. */
    by_source: z.array(FunnelSteps.extend(Source.shape)),
    by_lander: z.array(FunnelSteps.extend({ lander: z.string() })),
  }),
  revenue: z.object({
    current: z.array(RevenueTotals),
    previous: z.array(RevenueTotals),
    by_day: z.array(Money.extend({ day: z.string() })),
    by_site: z.array(Money.extend({ site_id: z.number(), site: z.string() })),
    by_country: z.array(Money.extend({ country: z.string() })),
    by_method: z.array(Money.extend({ method: z.string() })),
    by_package: z.array(Money.extend({ package_id: z.number(), credits: z.number().nullable() })),
    by_discount: z.array(Money.extend({ discount_code: z.string() })),
  }),
  cohorts: z.array(Cohort),
  chat: z.object({
    current: ChatTotals,
    previous: ChatTotals,
    by_day: z.array(ChatTotals.extend({ day: z.string() })),
    /** Per operator (UTC days, every site): answers sent and the members' messages that followed them. */
    operators: z.array(z.object({ staff_id: z.number(), name: z.string(), replies: z.number(), member_messages_after: z.number() })),
  }),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;
