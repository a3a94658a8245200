import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { SitesResponse } from "#contract/staff-sites";
import { analyticsPeriods, funnelStepNames } from "#contract/staff-analytics";
import { apiFor } from "~/utils/api.server";
import { fixedT } from "~/utils/i18n.server";
import { pageMeta } from "~/utils/page-title";
import { analyticsQueryOf, analyticsSearch, loadAnalytics } from "~/features/staff/analytics.server";
import { analyticsTables, periodDays } from "~/features/staff/analytics-tables.server";
import { major, type AnalyticsTable } from "~/features/staff/analytics-format";
import { staffField } from "~/features/staff/staff-format";
import { StaffTable } from "~/features/staff/staff-parts";
import { Button, ButtonAnchor } from "~/components/ui/button";
import { LineChart } from "~/components/charts/line-chart";
import { BarChart } from "~/components/charts/bar-chart";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";

/** docs/staff.md, Analytics: the owners' figures (admins), their charts drawn on the server, each table as CSV. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { query, invalid } = analyticsQueryOf(url);
  const [report, sites] = await Promise.all([loadAnalytics(request, context, query), apiFor(request, context).get("/api/staff/sites.php", SitesResponse)]);
  const t = fixedT("en", "staff");
  const tables = analyticsTables(report, t);
  const search = analyticsSearch(query);
  const days = periodDays(report);
  const byDay = <T extends { day: string }>(rows: T[], value: (row: T) => number) => days.map((day) => rows.filter((r) => r.day === day).reduce((sum, r) => sum + value(r), 0));
  const currencies = [...new Set(report.revenue.by_day.map((d) => d.currency))].sort();
  const step = (name: (typeof funnelStepNames)[number]) => t(`analytics.steps.${name}`);
  const period = { from: report.period.from, to: report.period.to };
  return {
    title: t("analytics.metaTitle"),
    description: t("analytics.lead"),
    query: { site: query.site ?? null, period: query.period, from: query.from ?? report.period.from, to: query.to ?? report.period.to },
    invalid,
    search,
    sites: sites.ok ? sites.data.sites.map((s) => ({ id: s.id, name: s.name })) : [],
    tables,
    charts: {
      funnelDays: {
        title: t("analytics.charts.funnelDays"),
        description: t("analytics.charts.funnelDaysDesc", period),
        categories: days,
        series: (["visits", "signups", "first_purchases"] as const).map((name) => ({ name: step(name), values: byDay(report.funnel.by_day, (r) => r[name]) })),
      },
      funnelSteps: {
        title: t("analytics.charts.funnelSteps"),
        description: t("analytics.charts.funnelStepsDesc"),
        categories: funnelStepNames.map(step),
        series: [
          { name: t("analytics.columns.thisPeriod"), values: funnelStepNames.map((name) => report.funnel.current[name]) },
          { name: t("analytics.columns.previousPeriod"), values: funnelStepNames.map((name) => report.funnel.previous[name]) },
        ],
      },
      revenueDays: {
        title: t("analytics.charts.revenueDays"),
        description: t("analytics.charts.revenueDaysDesc"),
        categories: days,
        series: currencies.map((currency) => ({ name: currency, values: byDay(report.revenue.by_day.filter((d) => d.currency === currency), (r) => r.net / 100) })),
      },
      chatDays: {
        title: t("analytics.charts.chatDays"),
        description: t("analytics.charts.chatDaysDesc"),
        categories: days,
        series: [
          { name: t("analytics.columns.paidMessages"), values: byDay(report.chat.by_day, (r) => r.paid_messages) },
          { name: t("analytics.columns.toSiteRun"), values: byDay(report.chat.by_day, (r) => r.to_site_run) },
        ],
      },
      cohorts: {
        title: t("analytics.charts.cohorts"),
        description: t("analytics.charts.cohortsDesc"),
        categories: [...new Set(report.cohorts.map((w) => w.week))],
        series: (["paid_1", "paid_7", "paid_30"] as const).map((key, i) => ({
          name: t(`analytics.columns.${["paid1", "paid7", "paid30"][i]}`),
          values: [...new Set(report.cohorts.map((w) => w.week))].map((week) => {
            const rows = report.cohorts.filter((w) => w.week === week);
            const signups = rows[0]?.signups ?? 0;
            return signups > 0 ? Math.round((rows.reduce((sum, w) => sum + w[key], 0) / signups) * 1000) / 10 : 0;
          }),
        })),
      },
    },
    texts: {
      title: t("analytics.title"),
      lead: t("analytics.lead"),
      filters: t("analytics.filters"),
      site: t("analytics.site"),
      allSites: t("analytics.allSites"),
      period: t("analytics.period"),
      periods: Object.fromEntries(analyticsPeriods.map((p) => [p, t(`analytics.periods.${p}`)])) as Record<(typeof analyticsPeriods)[number], string>,
      from: t("analytics.from"),
      to: t("analytics.to"),
      show: t("analytics.show"),
      invalid: t("analytics.invalid"),
      shown: t("analytics.shown", { from: report.period.from, to: report.period.to, previousFrom: report.period.previous_from, previousTo: report.period.previous_to }),
      zone: report.time_zone ? t("analytics.timeZone", { zone: report.time_zone }) : t("analytics.eachZone"),
      share: t("analytics.share"),
      shareHint: t("analytics.shareHint"),
      csv: t("analytics.csv"),
      csvLabels: Object.fromEntries(tables.map((table) => [table.id, t("analytics.csvLabel", { table: table.title })])),
      empty: t("analytics.empty"),
      sections: { funnel: t("analytics.sections.funnel"), revenue: t("analytics.sections.revenue"), cohorts: t("analytics.sections.cohorts"), chat: t("analytics.sections.chat") },
      operatorsNote: t("analytics.operatorsNote"),
      payingNote: t("analytics.payingNote"),
    },
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

/** A table of the view with its CSV download (the same rows, /staff/analytics.csv). */
function FigureTable({ table, data, bare = false }: { table: AnalyticsTable; data: Data; bare?: boolean }) {
  const heading = (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
      <h3 className="font-semibold text-gray-900">{table.title}</h3>
      <ButtonAnchor href={`/staff/analytics.csv?table=${table.id}&${data.search}`} variant="neutral" size="sm" download aria-label={data.texts.csvLabels[table.id]}>
        {data.texts.csv}
      </ButtonAnchor>
    </div>
  );
  return (
    <div className={bare ? "" : "mt-2"}>
      {heading}
      {table.rows.length === 0 ? (
        <p className="mt-2 text-sm text-gray-700">{data.texts.empty}</p>
      ) : (
        <StaffTable testId={`table-${table.id}`} headings={table.headings} className="mt-2">
          {table.rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) => (
                <td key={j} className={`whitespace-nowrap px-4 py-2 ${j === 0 ? "" : "tabular-nums"}`}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </StaffTable>
      )}
    </div>
  );
}

export default function StaffAnalytics() {
  const data = useLoaderData<typeof loader>();
  const { texts, charts, query } = data;
  const table = (id: string) => data.tables.find((t) => t.id === id)!;
  const section = "mt-10 border-t border-gray-200 pt-6";
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <Form method="get" className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" aria-label={texts.filters}>
        <div>
          <label htmlFor="analytics-site" className="block text-sm font-medium text-gray-700">
            {texts.site}
          </label>
          <select id="analytics-site" name="site" defaultValue={query.site ?? ""} className={staffField}>
            <option value="">{texts.allSites}</option>
            {data.sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="analytics-period" className="block text-sm font-medium text-gray-700">
            {texts.period}
          </label>
          <select id="analytics-period" name="period" defaultValue={query.period} className={staffField}>
            {Object.entries(texts.periods).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="analytics-from" className="block text-sm font-medium text-gray-700">
            {texts.from}
          </label>
          <input id="analytics-from" name="from" type="date" defaultValue={query.from} className={staffField} />
        </div>
        <div>
          <label htmlFor="analytics-to" className="block text-sm font-medium text-gray-700">
            {texts.to}
          </label>
          <input id="analytics-to" name="to" type="date" defaultValue={query.to} className={staffField} />
        </div>
        <Button size="md">{texts.show}</Button>
      </Form>
      {data.invalid ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          {texts.invalid}
        </p>
      ) : null}
      <p className="mt-4 text-sm text-gray-700" data-testid="analytics-period">
        {texts.shown} {texts.zone}
      </p>
      <p className="mt-1 text-sm">
        <a href={`/staff/analytics?${data.search}`} className="font-medium text-blue-700 underline" data-testid="analytics-share">
          {texts.share}
        </a>{" "}
        <span className="text-gray-600">{texts.shareHint}</span>
      </p>

      <section className={section} aria-labelledby="analytics-funnel">
        <h2 id="analytics-funnel" className="text-xl font-semibold text-gray-900">
          {texts.sections.funnel}
        </h2>
        <BarChart id="funnel-steps" {...charts.funnelSteps} table={<FigureTable table={table("funnel-summary")} data={data} bare />} />
        <LineChart id="funnel-days" {...charts.funnelDays} table={<FigureTable table={table("funnel-days")} data={data} bare />} />
        <FigureTable table={table("funnel-sources")} data={data} />
        <FigureTable table={table("funnel-landers")} data={data} />
      </section>

      <section className={section} aria-labelledby="analytics-revenue">
        <h2 id="analytics-revenue" className="text-xl font-semibold text-gray-900">
          {texts.sections.revenue}
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.payingNote}</p>
        <FigureTable table={table("revenue-summary")} data={data} />
        <BarChart id="revenue-days" {...charts.revenueDays} format={(v) => major(Math.round(v * 100))} table={<FigureTable table={table("revenue-days")} data={data} bare />} />
        {["revenue-sites", "revenue-countries", "revenue-methods", "revenue-packages", "revenue-discounts"].map((id) => (
          <FigureTable key={id} table={table(id)} data={data} />
        ))}
      </section>

      <section className={section} aria-labelledby="analytics-cohorts">
        <h2 id="analytics-cohorts" className="text-xl font-semibold text-gray-900">
          {texts.sections.cohorts}
        </h2>
        <BarChart id="cohorts" {...charts.cohorts} format={(v) => `${v}%`} table={<FigureTable table={table("cohorts")} data={data} bare />} />
      </section>

      <section className={section} aria-labelledby="analytics-chat">
        <h2 id="analytics-chat" className="text-xl font-semibold text-gray-900">
          {texts.sections.chat}
        </h2>
        <FigureTable table={table("chat-summary")} data={data} />
        <LineChart id="chat-days" {...charts.chatDays} table={<FigureTable table={table("chat-days")} data={data} bare />} />
        <p className="mt-4 text-sm text-gray-600">{texts.operatorsNote}</p>
        <FigureTable table={table("operators")} data={data} />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
