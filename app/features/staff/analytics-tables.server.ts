import type { TFunction } from "i18next";
import { csvText } from "#contract/csv";
import { major, type AnalyticsTable } from "./analytics-format";
import { addDays, daysBetween, funnelStepNames, type AnalyticsResponse, type FunnelSteps, type Money } from "#contract/staff-analytics";

/**
 * The analytics page's tables (docs/staff.md, Analytics), each as its headings and rows of cell texts: the page shows
 * them and /staff/analytics.csv writes the same rows through csvText, so a download is exactly the table on screen.
 */

export const analyticsTableIds = [
  "funnel-summary",
  "funnel-days",
  "funnel-sources",
  "funnel-landers",
  "revenue-summary",
  "revenue-days",
  "revenue-sites",
  "revenue-countries",
  "revenue-methods",
  "revenue-packages",
  "revenue-discounts",
  "cohorts",
  "chat-summary",
  "chat-days",
  "operators",
] as const;

const percent = (part: number, whole: number, none: string) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : none);
const change = (now: number, before: number, none: string) => (before > 0 ? `${now >= before ? "+" : ""}${(((now - before) / before) * 100).toFixed(1)}%` : none);

export function analyticsTables(report: AnalyticsResponse, t: TFunction): AnalyticsTable[] {
  const c = (key: string) => t(`analytics.columns.${key}`);
  const title = (key: string) => t(`analytics.tables.${key}`);
  const none = t("analytics.none");
  const step = (name: (typeof funnelStepNames)[number]) => t(`analytics.steps.${name}`);
  const stepCells = (s: FunnelSteps) => funnelStepNames.map((name) => String(s[name]));
  const stepHeadings = funnelStepNames.map(step);
  const moneyHeadings = [c("currency"), c("payments"), c("firstPurchases"), c("amount"), c("discounts"), c("costs"), c("refunds"), c("refunded"), c("net")];
  const moneyCells = (m: Money) => [m.currency, String(m.payments), String(m.first_purchases), major(m.amount), major(m.discount_amount), major(m.costs), String(m.refunds), major(m.refunded_amount), major(m.net)];
  const { funnel, revenue, chat } = report;

  const funnelSummary: AnalyticsTable = {
    id: "funnel-summary",
    title: title("funnelSummary"),
    headings: [c("step"), c("thisPeriod"), c("previousPeriod"), c("change"), c("conversion")],
    rows: funnelStepNames.map((name, i) => {
      const before = i === 0 ? null : funnelStepNames[i - 1]!;
      return [step(name), String(funnel.current[name]), String(funnel.previous[name]), change(funnel.current[name], funnel.previous[name], none), before ? percent(funnel.current[name], funnel.current[before], none) : none];
    }),
  };
  const rates = (s: FunnelSteps) => [percent(s.signups, s.visits, none), percent(s.first_purchases, s.signups, none)];

  const currencies = [...new Set([...revenue.current, ...revenue.previous].map((m) => m.currency))].sort();
  const totals = (list: AnalyticsResponse["revenue"]["current"], currency: string) => list.find((m) => m.currency === currency);
  const revenueFigures: [string, (m: AnalyticsResponse["revenue"]["current"][number]) => string][] = [
    [c("payments"), (m) => String(m.payments)],
    [c("firstPurchases"), (m) => String(m.first_purchases)],
    [c("repeat"), (m) => String(m.payments - m.first_purchases)],
    [c("amount"), (m) => major(m.amount)],
    [c("discounts"), (m) => major(m.discount_amount)],
    [c("costs"), (m) => major(m.costs)],
    [c("refunds"), (m) => String(m.refunds)],
    [c("refunded"), (m) => major(m.refunded_amount)],
    [c("net"), (m) => major(m.net)],
    [c("payingMembers"), (m) => String(m.paying_members)],
    [c("perPayingMember"), (m) => (m.per_paying_member === null ? none : major(m.per_paying_member))],
  ];
  const revenueSummary: AnalyticsTable = {
    id: "revenue-summary",
    title: title("revenueSummary"),
    headings: [c("figure"), c("currency"), c("thisPeriod"), c("previousPeriod")],
    rows: currencies.flatMap((currency) =>
      revenueFigures.map(([label, cell]) => {
        const now = totals(revenue.current, currency);
        const before = totals(revenue.previous, currency);
        return [label, currency, now ? cell(now) : none, before ? cell(before) : none];
      }),
    ),
  };

  const chatFigures: [string, (s: AnalyticsResponse["chat"]["current"]) => string][] = [
    [c("paidMessages"), (s) => String(s.paid_messages)],
    [c("toSiteRun"), (s) => String(s.to_site_run)],
    [c("toSiteRunShare"), (s) => percent(s.to_site_run, s.paid_messages, none)],
    [c("creditsMessage"), (s) => String(s.credits_message)],
    [c("creditsGift"), (s) => String(s.credits_gift)],
    [c("creditsPhoto"), (s) => String(s.credits_photo)],
  ];

  return [
    funnelSummary,
    { id: "funnel-days", title: title("funnelDays"), headings: [c("day"), ...stepHeadings], rows: funnel.by_day.map((d) => [d.day, ...stepCells(d)]) },
    {
      id: "funnel-sources",
      title: title("funnelSources"),
      headings: [c("network"), c("ref"), c("sub1"), c("sub2"), c("sub3"), ...stepHeadings, c("visitToSignup"), c("signupToPurchase")],
      rows: funnel.by_source.map((s) => [s.network || t("analytics.noSource"), s.ref, s.sub1, s.sub2, s.sub3, ...stepCells(s), ...rates(s)]),
    },
    {
      id: "funnel-landers",
      title: title("funnelLanders"),
      headings: [c("lander"), ...stepHeadings, c("visitToSignup"), c("signupToPurchase")],
      rows: funnel.by_lander.map((l) => [l.lander || t("analytics.noLander"), ...stepCells(l), ...rates(l)]),
    },
    revenueSummary,
    {
      id: "revenue-days",
      title: title("revenueDays"),
      headings: [c("day"), ...moneyHeadings],
      rows: revenue.by_day.map((d) => [d.day, ...moneyCells(d)]),
    },
    { id: "revenue-sites", title: title("revenueSites"), headings: [c("site"), ...moneyHeadings], rows: revenue.by_site.map((m) => [m.site, ...moneyCells(m)]) },
    { id: "revenue-countries", title: title("revenueCountries"), headings: [c("country"), ...moneyHeadings], rows: revenue.by_country.map((m) => [m.country, ...moneyCells(m)]) },
    { id: "revenue-methods", title: title("revenueMethods"), headings: [c("method"), ...moneyHeadings], rows: revenue.by_method.map((m) => [m.method, ...moneyCells(m)]) },
    {
      id: "revenue-packages",
      title: title("revenuePackages"),
      headings: [c("package"), ...moneyHeadings],
      rows: revenue.by_package.map((m) => [m.credits === null ? t("analytics.removedPackage") : t("analytics.packageCredits", { credits: m.credits }), ...moneyCells(m)]),
    },
    {
      id: "revenue-discounts",
      title: title("revenueDiscounts"),
      headings: [c("discountCode"), ...moneyHeadings],
      rows: revenue.by_discount.map((m) => [m.discount_code || t("analytics.noCode"), ...moneyCells(m)]),
    },
    {
      id: "cohorts",
      title: title("cohorts"),
      headings: [c("week"), c("signups"), c("currency"), c("paid1"), c("paid7"), c("paid30"), c("revenue1"), c("revenue7"), c("revenue30")],
      rows: report.cohorts.map((w) => [
        w.week,
        String(w.signups),
        w.currency ?? none,
        `${w.paid_1} (${percent(w.paid_1, w.signups, none)})`,
        `${w.paid_7} (${percent(w.paid_7, w.signups, none)})`,
        `${w.paid_30} (${percent(w.paid_30, w.signups, none)})`,
        major(w.revenue_1),
        major(w.revenue_7),
        major(w.revenue_30),
      ]),
    },
    {
      id: "chat-summary",
      title: title("chatSummary"),
      headings: [c("figure"), c("thisPeriod"), c("previousPeriod")],
      rows: chatFigures.map(([label, cell]) => [label, cell(chat.current), cell(chat.previous)]),
    },
    {
      id: "chat-days",
      title: title("chatDays"),
      headings: [c("day"), c("paidMessages"), c("toSiteRun"), c("creditsMessage"), c("creditsGift"), c("creditsPhoto")],
      rows: chat.by_day.map((d) => [d.day, String(d.paid_messages), String(d.to_site_run), String(d.credits_message), String(d.credits_gift), String(d.credits_photo)]),
    },
    { id: "operators", title: title("operators"), headings: [c("operator"), c("answers"), c("followed")], rows: chat.operators.map((o) => [o.name, String(o.replies), String(o.member_messages_after)]) },
  ];
}

/** A table as CSV: its headings and rows through the one neutralising function (contract/csv.ts). */
export function analyticsCsv(table: AnalyticsTable): string {
  return csvText([table.headings, ...table.rows]);
}

/** Every day of the period, for a chart's categories (days without figures show as zero). */
export function periodDays(report: AnalyticsResponse): string[] {
  return Array.from({ length: daysBetween(report.period.from, report.period.to) }, (_, i) => addDays(report.period.from, i));
}
