import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { queueCountText } from "#contract/queue-count";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { formatMoney } from "~/features/payments/money";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { Link } from "@remix-run/react";
import { endpoints } from "#contract/endpoints/index";
import { may } from "#contract/endpoints/may";

/** Today's figures of the sites the staff member serves (an admin: every site). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const texts = staffTexts().dashboard;
  const result = await apiFor(request, context).call(endpoints.staffDashboard, { ...{ sessionOptional: true } });
  if (!result.ok) throw new Response(null, { status: result.status });
  const left = Number(new URL(request.url).searchParams.get("recovery_left"));
  // Who answers in the inbox sees their own desk: the conversation they hold, their answers today, their sites' median wait.
  const desk = may(staff.role, endpoints.desk) ? await apiFor(request, context).call(endpoints.desk) : null;
  const recoveryNotice = Number.isInteger(left) && left >= 0 && new URL(request.url).searchParams.has("recovery_left") ? staffTexts().login.recoveryUsed.replace("{{count}}", String(left)) : null;
  return { title: texts.metaTitle, description: texts.lead, texts, figures: result.data, recoveryNotice, role: staff.role, desk: desk?.ok ? desk.data : null };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffDashboard() {
  const { texts, figures, recoveryNotice, role, desk } = useLoaderData<typeof loader>();
  // Who can act on neither photos nor reports (operators) has a dashboard without those queues.
  const queues = may(role, "photos.moderate") || may(role, "reports.handle");
  return (
    <>
      {recoveryNotice ? (
        <p role="status" className="mb-4 rounded-md bg-amber-50 px-4 py-2 text-sm text-gray-900 ring-1 ring-amber-200" data-testid="staff-recovery-left">
          {recoveryNotice}
        </p>
      ) : null}
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      {desk ? (
        <section className="mt-4 rounded-xl bg-white p-4 ring-1 ring-gray-200" data-testid="staff-desk" aria-labelledby="staff-desk-title">
          <h2 id="staff-desk-title" className="font-semibold text-gray-900">
            {texts.deskTitle}
          </h2>
          <p className="mt-1 text-sm text-gray-800" data-testid="staff-desk-claim">
            {desk.claim ? (
              <>
                {texts.deskClaim.replace("{{member}}", desk.claim.member.name).replace("{{profile}}", desk.claim.profile.name)} <Link to={`/staff/inbox/${desk.claim.id}`}>{texts.deskOpen}</Link>
              </>
            ) : (
              <>
                {texts.deskNoClaim} <Link to="/staff/inbox">{texts.deskInbox}</Link>
              </>
            )}
          </p>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-gray-700">{texts.deskAnswered}</dt>
            <dd className="font-semibold tabular-nums text-gray-900" data-testid="staff-desk-answered">
              {desk.answered_today}
            </dd>
            <dt className="text-gray-700">{texts.deskMedian}</dt>
            <dd className="font-semibold tabular-nums text-gray-900" data-testid="staff-desk-median">
              {desk.median_wait_seconds === null ? texts.deskNoMedian : desk.median_wait_seconds < 3600 ? `${Math.round(desk.median_wait_seconds / 60)} min` : `${Math.floor(desk.median_wait_seconds / 3600)} h ${Math.round((desk.median_wait_seconds % 3600) / 60)} min`}
            </dd>
          </dl>
        </section>
      ) : null}
      <p className="mt-4 text-sm text-gray-600">{texts.lead}</p>
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
                {queues ? (
                  <>
                    <th scope="col" className="px-4 py-3 text-right font-semibold">
                      {texts.photoQueue}
                    </th>
                    <th scope="col" className="px-4 py-3 text-right font-semibold">
                      {texts.reportQueue}
                    </th>
                  </>
                ) : null}
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
                  {queues ? (
                    <>
                      <td className="px-4 py-3 text-right tabular-nums">{queueCountText(site.photo_queue)}</td>
                      <td className="px-4 py-3 text-right tabular-nums">{queueCountText(site.report_queue)}</td>
                    </>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="mt-4 text-sm text-gray-600">{texts.streams.replace("{{count}}", String(figures.open_streams))}</p>
      {figures.jobs ? (
        <p className="mt-1 text-sm text-gray-600" data-testid="staff-dashboard-jobs">
          {texts.jobs.replace("{{push}}", String(figures.jobs.push_retrying)).replace("{{exports}}", String(figures.jobs.exports_failed_today))}
        </p>
      ) : null}
    </>
  );
}
