import { sql, type SQL } from "drizzle-orm";
import { addDays, periodOf, type AnalyticsQuery, type AnalyticsResponse, type FunnelSteps, type Money } from "#contract/staff-analytics";
import type { Db } from "../../db/client";
import { operatorFigures } from "../staff/inbox";
import { rollUpMessages } from "./rollups";

/**
 * The owners' analytics (docs/staff.md, Analytics) read from the rollups (api/db/schema/analytics.ts): every figure is
 * a range of rows per site and day (the primary key for one site, the day index for every site; the funnel's totals a
 * row a day, its sources and landers a row per source a day), so a period costs
 * the same at a million members as at a hundred. The paying members of a period are the one read of payments: a range
 * of the paid-time index, read from the index alone.
 */

type Row = Record<string, unknown>;
const rowsOf = <T extends Row>(result: unknown): T[] => (result as { rows: T[] }).rows;
const num = (value: unknown) => Number(value ?? 0);
const str = (value: unknown) => (value === null || value === undefined ? "" : String(value));

export type Scope = { siteId: number | null };

/** The site's today (its time zone), or UTC's for every site. */
async function todayOf(db: Db, scope: Scope): Promise<{ today: string; timeZone: string | null }> {
  if (scope.siteId === null) return { today: new Date().toISOString().slice(0, 10), timeZone: null };
  const [row] = rowsOf<{ today: string; time_zone: string }>(
    await db.execute(sql`select to_char((now() at time zone time_zone)::date, 'YYYY-MM-DD') as today, time_zone from sites where id = ${scope.siteId}`),
  );
  if (!row) throw new Error("the site is gone");
  return { today: row.today, timeZone: row.time_zone };
}

const funnelSums = sql.raw(
  "coalesce(sum(visits), 0)::int as visits, coalesce(sum(signups), 0)::int as signups, coalesce(sum(activations), 0)::int as activations, coalesce(sum(first_messages), 0)::int as first_messages, coalesce(sum(first_purchases), 0)::int as first_purchases",
);
const steps = (r: Row): FunnelSteps => ({ visits: num(r.visits), signups: num(r.signups), activations: num(r.activations), first_messages: num(r.first_messages), first_purchases: num(r.first_purchases) });

const moneySums = sql.raw(
  "coalesce(sum(payments), 0)::int as payments, coalesce(sum(first_purchases), 0)::int as first_purchases, coalesce(sum(amount), 0)::bigint as amount, coalesce(sum(discount_amount), 0)::bigint as discount_amount, coalesce(sum(costs), 0)::bigint as costs, coalesce(sum(refunds), 0)::int as refunds, coalesce(sum(refunded_amount), 0)::bigint as refunded_amount",
);
const money = (r: Row): Money => {
  const amount = num(r.amount);
  const refunded = num(r.refunded_amount);
  const costs = num(r.costs);
  return {
    currency: str(r.currency),
    payments: num(r.payments),
    first_purchases: num(r.first_purchases),
    amount,
    discount_amount: num(r.discount_amount),
    costs,
    refunds: num(r.refunds),
    refunded_amount: refunded,
    net: amount - refunded - costs,
  };
};

const chatSums = sql.raw(
  "coalesce(sum(paid_messages), 0)::int as paid_messages, coalesce(sum(to_site_run), 0)::int as to_site_run, coalesce(sum(credits_message), 0)::bigint as credits_message, coalesce(sum(credits_gift), 0)::bigint as credits_gift, coalesce(sum(credits_photo), 0)::bigint as credits_photo",
);
const chat = (r: Row) => ({ paid_messages: num(r.paid_messages), to_site_run: num(r.to_site_run), credits_message: num(r.credits_message), credits_gift: num(r.credits_gift), credits_photo: num(r.credits_photo) });

/** The rows of one site (its primary key's range) or of every site (the day index), between two days. */
function inRange(scope: Scope, from: string, to: string): SQL {
  const days = sql`day between ${from}::date and ${to}::date`;
  return scope.siteId === null ? days : sql`site_id = ${scope.siteId} and ${days}`;
}

/**
 * A period cut into the calendar months it holds whole (read from analytics_funnel_months) and the days before and
 * after them (read from analytics_funnel_days): 366 days are 11 or 12 months and at most 61 days.
 */
export function monthsOfPeriod(from: string, to: string): { months: { from: string; until: string } | null; days: { from: string; to: string }[] } {
  const firstOfNext = (day: string) => {
    const date = new Date(`${day}T00:00:00Z`);
    return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
  };
  // The first whole month starts on `from` when it is a 1st, else on the next 1st; the whole months end before the 1st
  // of the month that holds the day after `to`.
  const start = from.endsWith("-01") ? from : firstOfNext(from);
  const until = `${addDays(to, 1).slice(0, 8)}01`;
  if (start >= until) return { months: null, days: [{ from, to }] };
  const days = [
    ...(from < start ? [{ from, to: addDays(start, -1) }] : []),
    ...(until <= to ? [{ from: until, to }] : []),
  ];
  return { months: { from: start, until }, days };
}

/** The funnel's rows per source and lander in a period: its whole months' rows and its other days' rows. */
function funnelSourceRows(scope: Scope, from: string, to: string): SQL {
  const site = scope.siteId === null ? sql`true` : sql`site_id = ${scope.siteId}`;
  const columns = sql.raw("network, ref, sub1, sub2, sub3, lander, visits, signups, activations, first_messages, first_purchases");
  const split = monthsOfPeriod(from, to);
  const parts = [
    ...(split.months ? [sql`select ${columns} from analytics_funnel_months where ${site} and month >= ${split.months.from}::date and month < ${split.months.until}::date`] : []),
    ...split.days.map((days) => sql`select ${columns} from analytics_funnel_days where ${inRange(scope, days.from, days.to)}`),
  ];
  return sql.join(parts, sql` union all `);
}

export async function analyticsReport(db: Db, scope: Scope, query: Pick<AnalyticsQuery, "period" | "from" | "to">): Promise<AnalyticsResponse> {
  // Today's messages are rolled up before they are read (a bounded batch; the scheduled job does the rest).
  await rollUpMessages(db);
  const { today, timeZone } = await todayOf(db, scope);
  const period = periodOf(query, today);
  const current = inRange(scope, period.from, period.to);
  const both = inRange(scope, period.previousFrom, period.to);
  const isCurrent = sql`(day >= ${period.from}::date)`;

  // Every read starts at once (the pool runs them side by side), the paying members first: the longest of them.
  const payersRead = payingMembers(db, scope, period);
  const funnelReads = Promise.all([
    db.execute(sql`select ${isCurrent} as current, ${funnelSums} from analytics_funnel_totals where ${both} group by 1`),
    db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, ${funnelSums} from analytics_funnel_totals where ${current} group by day order by day`),
    db.execute(sql`select network, ref, sub1, sub2, sub3, ${funnelSums} from (${funnelSourceRows(scope, period.from, period.to)}) f
                   group by network, ref, sub1, sub2, sub3 order by sum(visits) + sum(signups) desc, network, ref, sub1, sub2, sub3 limit 100`),
    db.execute(sql`select lander, ${funnelSums} from (${funnelSourceRows(scope, period.from, period.to)}) f group by lander order by sum(visits) + sum(signups) desc, lander limit 100`),
  ]);
  const by = (columns: SQL, order: SQL = sql`sum(amount) desc`) =>
    db.execute(sql`select ${columns}, currency, ${moneySums} from analytics_revenue_days where ${current} group by ${columns}, currency order by ${order}, currency limit 200`);
  const revenueReads = Promise.all([
    db.execute(sql`select ${isCurrent} as current, currency, ${moneySums} from analytics_revenue_days where ${both} group by 1, currency order by currency`),
    db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, currency, ${moneySums} from analytics_revenue_days where ${current} group by day, currency order by day, currency`),
    db.execute(sql`select g.*, s.name as site from (select site_id, currency, ${moneySums} from analytics_revenue_days where ${current} group by site_id, currency) g
                     join sites s on s.id = g.site_id order by g.amount desc, g.site_id, g.currency limit 200`),
    by(sql`country`),
    by(sql`method`),
    db.execute(sql`select g.*, cp.credits from (select package_id, currency, ${moneySums} from analytics_revenue_days where ${current} group by package_id, currency) g
                     left join credit_packages cp on cp.id = g.package_id order by g.amount desc, g.package_id, g.currency limit 200`),
    by(sql`discount_code`),
  ]);
  const otherReads = Promise.all([
    db.execute(sql`select to_char(date_trunc('week', day), 'YYYY-MM-DD') as week, sum(signups)::int as signups from analytics_funnel_totals where ${current} group by 1`),
    db.execute(sql`select to_char(date_trunc('week', day), 'YYYY-MM-DD') as week, currency, sum(paid_1)::int as paid_1, sum(paid_7)::int as paid_7, sum(paid_30)::int as paid_30,
                          sum(revenue_1)::bigint as revenue_1, sum(revenue_7)::bigint as revenue_7, sum(revenue_30)::bigint as revenue_30
                     from analytics_cohort_days where ${current} group by 1, 2`),
    db.execute(sql`select ${isCurrent} as current, ${chatSums} from analytics_chat_days where ${both} group by 1`),
    db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, ${chatSums} from analytics_chat_days where ${current} group by day order by day`),
    operatorTotals(db, period.from, period.to),
  ]);
  const [[funnelTotals, funnelDays, funnelSources, funnelLanders], [revenueTotals, revenueDays, revenueSites, revenueCountries, revenueMethods, revenuePackages, revenueDiscounts], payers, [cohortSignups, cohortMoney, chatTotals, chatDays, operators]] =
    await Promise.all([funnelReads, revenueReads, payersRead, otherReads]);
  const funnelOf = (wanted: boolean) => {
    const row = rowsOf(funnelTotals).find((r) => Boolean(r.current) === wanted);
    return row ? steps(row) : steps({});
  };
  const totalsOf = (wanted: boolean) =>
    rowsOf(revenueTotals)
      .filter((r) => Boolean(r.current) === wanted)
      .map((r) => {
        const m = money(r);
        const paying = payers.get(`${wanted}:${m.currency}`) ?? 0;
        return { ...m, paying_members: paying, per_paying_member: paying > 0 ? Math.round(m.net / paying) : null };
      });
  const chatOf = (wanted: boolean) => {
    const row = rowsOf(chatTotals).find((r) => Boolean(r.current) === wanted);
    return chat(row ?? {});
  };

  return {
    site_id: scope.siteId,
    time_zone: timeZone,
    period: { from: period.from, to: period.to, previous_from: period.previousFrom, previous_to: period.previousTo },
    funnel: {
      current: funnelOf(true),
      previous: funnelOf(false),
      by_day: rowsOf(funnelDays).map((r) => ({ day: str(r.day), ...steps(r) })),
      by_source: rowsOf(funnelSources).map((r) => ({ network: str(r.network), ref: str(r.ref), sub1: str(r.sub1), sub2: str(r.sub2), sub3: str(r.sub3), ...steps(r) })),
      by_lander: rowsOf(funnelLanders).map((r) => ({ lander: str(r.lander), ...steps(r) })),
    },
    revenue: {
      current: totalsOf(true),
      previous: totalsOf(false),
      by_day: rowsOf(revenueDays).map((r) => ({ day: str(r.day), ...money(r) })),
      by_site: rowsOf(revenueSites).map((r) => ({ site_id: num(r.site_id), site: str(r.site), ...money(r) })),
      by_country: rowsOf(revenueCountries).map((r) => ({ country: str(r.country), ...money(r) })),
      by_method: rowsOf(revenueMethods).map((r) => ({ method: str(r.method), ...money(r) })),
      by_package: rowsOf(revenuePackages).map((r) => ({ package_id: num(r.package_id), credits: r.credits === null || r.credits === undefined ? null : num(r.credits), ...money(r) })),
      by_discount: rowsOf(revenueDiscounts).map((r) => ({ discount_code: str(r.discount_code), ...money(r) })),
    },
    cohorts: cohortsOf(rowsOf(cohortSignups), rowsOf(cohortMoney)),
    chat: { current: chatOf(true), previous: chatOf(false), by_day: rowsOf(chatDays).map((r) => ({ day: str(r.day), ...chat(r) })), operators },
  };
}

/**
 * Members with a payment paid in the period (refunded later or not), per currency, for the period and the one before:
 * a range of payments_paid_day_idx, read from the index alone (each payment's site's day is stored with it). A member
 * is counted at their first payment of the period, the one whose previous payment (payments.previous_paid_day) is
 * before the period: a count of index entries, no distinct over members.
 */
async function payingMembers(db: Db, scope: Scope, period: { from: string; to: string; previousFrom: string }): Promise<Map<string, number>> {
  const site = scope.siteId === null ? sql`true` : sql`site_id = ${scope.siteId}`;
  const result = await db.execute(sql`
    select currency,
           count(*) filter (where paid_day >= ${period.from}::date and (previous_paid_day is null or previous_paid_day < ${period.from}::date))::int as current,
           count(*) filter (where paid_day < ${period.from}::date and (previous_paid_day is null or previous_paid_day < ${period.previousFrom}::date))::int as previous
      from payments
     where paid_day between ${period.previousFrom}::date and ${period.to}::date and ${site}
     group by currency`);
  return new Map(rowsOf(result).flatMap((r) => [[`true:${str(r.currency)}`, num(r.current)] as const, [`false:${str(r.currency)}`, num(r.previous)] as const]));
}

/** Per operator over the period's UTC days (api/domain/staff/inbox.ts operatorFigures, kept per day): answers and the members' messages after them. */
async function operatorTotals(db: Db, from: string, to: string): Promise<AnalyticsResponse["chat"]["operators"]> {
  const days = await operatorFigures(db, new Date(`${from}T00:00:00Z`));
  const totals = new Map<number, { staff_id: number; name: string; replies: number; member_messages_after: number }>();
  for (const day of days) {
    if (day.day > to) continue;
    const total = totals.get(day.staffUserId) ?? { staff_id: day.staffUserId, name: day.name, replies: 0, member_messages_after: 0 };
    total.replies += day.replies;
    total.member_messages_after += day.memberMessagesAfter;
    totals.set(day.staffUserId, total);
  }
  return [...totals.values()].sort((a, b) => b.member_messages_after - a.member_messages_after || b.replies - a.replies || a.name.localeCompare(b.name));
}

/** Signup weeks with what their members paid: one row per week and currency (a week without payments: one row, no currency). */
function cohortsOf(signups: Row[], paid: Row[]): AnalyticsResponse["cohorts"] {
  const weeks = new Map<string, number>(signups.map((r) => [str(r.week), num(r.signups)]));
  for (const r of paid) if (!weeks.has(str(r.week))) weeks.set(str(r.week), 0);
  const rows: AnalyticsResponse["cohorts"] = [];
  for (const [week, count] of [...weeks.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const money = paid.filter((r) => str(r.week) === week).sort((a, b) => str(a.currency).localeCompare(str(b.currency)));
    if (money.length === 0) rows.push({ week, signups: count, currency: null, paid_1: 0, paid_7: 0, paid_30: 0, revenue_1: 0, revenue_7: 0, revenue_30: 0 });
    for (const r of money) {
      rows.push({
        week,
        signups: count,
        currency: str(r.currency),
        paid_1: num(r.paid_1),
        paid_7: num(r.paid_7),
        paid_30: num(r.paid_30),
        revenue_1: num(r.revenue_1),
        revenue_7: num(r.revenue_7),
        revenue_30: num(r.revenue_30),
      });
    }
  }
  return rows;
}
