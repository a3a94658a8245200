import type { AppLoadContext } from "@remix-run/node";
import { AnalyticsQuery, AnalyticsResponse } from "#contract/staff-analytics";
import { apiFor } from "~/utils/api.server";
import { requireStaff } from "./staff-api.server";

/**
 * The analytics view's state is its URL (site, period, from, to), so a link shows another admin the same view. A
 * query the api would refuse is not sent: the page shows the default view with a note instead.
 */
export function analyticsQueryOf(url: URL): { query: AnalyticsQuery; invalid: boolean } {
  const raw = Object.fromEntries(["site", "period", "from", "to"].flatMap((key) => (url.searchParams.get(key) ? [[key, url.searchParams.get(key)]] : [])));
  const parsed = AnalyticsQuery.safeParse(raw);
  return parsed.success ? { query: parsed.data, invalid: false } : { query: AnalyticsQuery.parse({}), invalid: true };
}

/** The search string of a view (what the form, the share link and the CSV links carry). */
export function analyticsSearch(query: AnalyticsQuery): string {
  const params = new URLSearchParams();
  if (query.site !== undefined) params.set("site", String(query.site));
  params.set("period", query.period);
  if (query.period === "custom" && query.from && query.to) {
    params.set("from", query.from);
    params.set("to", query.to);
  }
  return params.toString();
}

export async function loadAnalytics(request: Request, context: AppLoadContext, query: AnalyticsQuery): Promise<AnalyticsResponse> {
  await requireStaff(request, context);
  const result = await apiFor(request, context).get("/api/staff/analytics.php", AnalyticsResponse, Object.fromEntries(new URLSearchParams(analyticsSearch(query))));
  if (!result.ok) throw new Response(null, { status: result.status });
  return result.data;
}
