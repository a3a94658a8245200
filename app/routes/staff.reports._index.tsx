import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { reportStatusNames } from "#contract/moderation-reasons";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffField, utcMinute } from "~/features/staff/staff-format";
import { Button } from "~/components/ui/button";
import { StaffErrorBoundary } from "~/features/staff/staff-error";
import { StaffTable } from "~/features/staff/staff-parts";
import { endpoints } from "#contract/endpoints/index";

const statuses = ["open", ...reportStatusNames] as const;
type Shown = (typeof statuses)[number];

/** Member reports and complaints in one queue (admins, moderators, support), filtered by status. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts();
  const url = new URL(request.url);
  const status: Shown = statuses.find((s) => s === url.searchParams.get("status")) ?? "open";
  const mine = url.searchParams.get("mine") === "1";
  const before = url.searchParams.get("before");
  const query: Record<string, string> = { status, ...(mine ? { mine: "1" } : {}), ...(before && /^\d{1,9}$/.test(before) ? { before } : {}) };
  const result = await apiFor(request, context).call(endpoints.staffReports, { query: query });
  if (!result.ok) throw new Response(null, { status: result.status });
  return { title: texts.reports.metaTitle, description: texts.reports.lead, texts: { ...texts.reports, reasons: { ...texts.reasons.report, ...texts.reasons.moderation } }, status, mine, list: result.data };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffReports() {
  const { texts, status, mine, list } = useLoaderData<typeof loader>();
  const columns = texts.columns;
  const more = list.next_before === null ? null : `?${new URLSearchParams({ status, ...(mine ? { mine: "1" } : {}), before: String(list.next_before) })}`;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 text-sm text-gray-600">{texts.lead}</p>
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3 rounded-xl bg-white p-4 ring-1 ring-gray-200">
        <div>
          <label htmlFor="report-status" className="block text-sm font-medium text-gray-700">
            {texts.filter}
          </label>
          <select id="report-status" name="status" defaultValue={status} className={staffField}>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {texts.status[s]}
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm text-gray-800">
          <input type="checkbox" name="mine" value="1" defaultChecked={mine} className="h-4 w-4" />
          {texts.mine}
        </label>
        <Button size="md">{texts.apply}</Button>
      </Form>
      {list.reports.length === 0 ? (
        <p className="mt-6 text-gray-700" data-testid="staff-reports-empty">
          {texts.empty}
        </p>
      ) : (
        <StaffTable testId="staff-reports" headings={[columns.id, columns.source, columns.reason, columns.about, columns.site, columns.status, columns.assignee, columns.created]} className="mt-6">
          {list.reports.map((report) => (
            <tr key={report.id} data-testid="staff-report-row">
              <td className="px-4 py-3">
                <Link to={`/staff/reports/${report.id}`} className="font-semibold">
                  {report.id}
                </Link>
              </td>
              <td className="px-4 py-3">{texts.source[report.source]}</td>
              <td className="px-4 py-3">{(texts.reasons as Record<string, string>)[report.reason] ?? report.reason}</td>
              <td className="px-4 py-3">{report.reported ? report.reported.name : texts.nobody}</td>
              <td className="px-4 py-3">{report.site.name}</td>
              <td className="px-4 py-3">{texts.status[report.status]}</td>
              <td className="px-4 py-3">{report.assignee?.name ?? texts.nobody}</td>
              <td className="whitespace-nowrap px-4 py-3 tabular-nums">{utcMinute(report.created_at)}</td>
            </tr>
          ))}
        </StaffTable>
      )}
      {more ? (
        <p className="mt-4">
          <Link to={more} className="font-semibold">
            {texts.older}
          </Link>
        </p>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
