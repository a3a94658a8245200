import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DashboardResponse } from "#contract/staff";
import { queueCountText } from "#contract/staff-moderation";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { formatMoney } from "~/features/payments/money";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";

/** Today's figures of the sites the staff member serves (an admin: every site). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const texts = staffTexts().dashboard;
  const result = await apiFor(request, context).get("/api/staff/dashboard.php", DashboardResponse, undefined, { sessionOptional: true });
  if (!result.ok) throw new Response(null, { status: result.status });
  const left = Number(new URL(request.url).searchParams.get("recovery_left"));
  const recoveryNotice = Number.isInteger(left) && left >= 0 && new URL(request.url).searchParams.has("recovery_left") ? staffTexts().login.recoveryUsed.replace("{{count}}", String(left)) : null;
  return { title: texts.metaTitle, description: texts.lead, texts, figures: result.data, recoveryNotice, role: staff.role };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffDashboard() {
  const { texts, figures, recoveryNotice, role } = useLoaderData<typeof loader>();
  return (
    <>
      {recoveryNotice ? (
        <p role="status" className="mb-4 rounded-md bg-amber-50 px-4 py-2 text-sm text-gray-900 ring-1 ring-amber-200" data-testid="staff-recovery-left">
          {recoveryNotice}
        </p>
      ) : null}
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 text-sm text-gray-600">{texts.lead}</p>
      {figures.sites.length === 0 ? (
        <p className="mt-6 text-gray-700">{texts.empty}</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-xl bg-white ring-1 ring-gray-200">
          <table className="min-w-full text-left text-sm" data-testid="staff-dashboard">
            <thead className="border-b border-gray-200 text-gray-700">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {texts.site}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {texts.signups}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {texts.paying}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {texts.revenue}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {texts.messages}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {texts.camClicks}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {texts.photoQueue}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {texts.reportQueue}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 text-gray-900">
              {figures.sites.map((site) => (
                <tr key={site.id} data-testid="staff-dashboard-site">
                  <th scope="row" className="px-4 py-3 font-medium">
                    {site.name} <span className="font-normal text-gray-600">({site.domain})</span>
                  </th>
                  <td className="px-4 py-3 text-right tabular-nums">{site.signups_today}</td>
                  <td className="px-4 py-3 text-right tabular-nums">{site.paying_members}</td>
                  <td className="px-4 py-3 text-right tabular-nums">
                    {site.revenue_today.length ? site.revenue_today.map((r) => formatMoney(r.amount, r.currency, "en")).join(", ") : texts.noRevenue}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{site.messages_today}</td>
                  <td className="px-4 py-3 text-right tabular-nums" data-testid="staff-dashboard-cam-clicks">
                    {site.cam_clicks_today}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{queueCountText(site.photo_queue)}</td>
                  <td className="px-4 py-3 text-right tabular-nums">{queueCountText(site.report_queue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="mt-4 text-sm text-gray-600">{texts.streams.replace("{{count}}", String(figures.open_streams))}</p>
      {role === "admin" ? (
        <p className="mt-1 text-sm text-gray-600" data-testid="staff-dashboard-jobs">
          {texts.jobs.replace("{{push}}", String(figures.jobs.push_retrying)).replace("{{exports}}", String(figures.jobs.exports_failed_today))}
        </p>
      ) : null}
    </>
  );
}
