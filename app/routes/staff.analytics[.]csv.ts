import type { LoaderFunctionArgs } from "@remix-run/node";
import { fixedT } from "~/utils/i18n.server";
import { analyticsQueryOf, loadAnalytics } from "~/features/staff/analytics.server";
import { analyticsCsv, analyticsTableIds, analyticsTables } from "~/features/staff/analytics-tables.server";

/** /staff/analytics.csv?table=ID&site=&period=&from=&to=: one table of the analytics view (admins) as CSV, the rows as on the page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get("table");
  const { query, invalid } = analyticsQueryOf(url);
  if (invalid || !analyticsTableIds.some((known) => known === id)) return new Response(null, { status: 404, headers: { "Cache-Control": "no-store" } });
  const report = await loadAnalytics(request, context, query);
  const table = analyticsTables(report, fixedT("en", "staff")).find((t) => t.id === id)!;
  return new Response(analyticsCsv(table), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="analytics-${id}-${report.period.from}-${report.period.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
