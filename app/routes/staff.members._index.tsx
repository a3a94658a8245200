import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffField, utcMinute } from "~/features/staff/staff-format";
import { Button } from "~/components/ui/button";
import { StaffErrorBoundary } from "~/features/staff/staff-error";
import { StaffTable } from "~/features/staff/staff-parts";
import { endpoints } from "#contract/endpoints/index";

/** Find members of the staff member's sites by e-mail, name, id or payment id. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().members;
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 254);
  const result = q ? await apiFor(request, context).call(endpoints.staffMembers, { query: { q } }) : null;
  if (result && !result.ok) throw new Response(null, { status: result.status });
  return { title: texts.metaTitle, description: texts.lead, texts, q, members: result?.data.members ?? null };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffMembers() {
  const { texts, q, members } = useLoaderData<typeof loader>();
  const c = texts.columns;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 text-sm text-gray-600">{texts.lead}</p>
      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3 rounded-xl bg-white p-4 ring-1 ring-gray-200">
        <div className="min-w-64 flex-1">
          <label htmlFor="member-q" className="block text-sm font-medium text-gray-700">
            {texts.searchLabel}
          </label>
          <input id="member-q" name="q" type="search" defaultValue={q} maxLength={254} required className={staffField} />
        </div>
        <Button size="md">{texts.search}</Button>
      </Form>
      {members === null ? (
        <p className="mt-6 text-gray-700">{texts.hint}</p>
      ) : members.length === 0 ? (
        <p className="mt-6 text-gray-700" data-testid="staff-members-empty">
          {texts.empty}
        </p>
      ) : (
        <StaffTable testId="staff-members" headings={[c.id, c.name, c.email, c.site, c.status, c.credits, c.paying, c.signup]} className="mt-6">
          {members.map((member) => (
            <tr key={member.user_id} data-testid="staff-member-row">
              <td className="px-4 py-3 tabular-nums">{member.user_id}</td>
              <td className="px-4 py-3">
                <Link to={`/staff/members/${member.user_id}`} className="font-semibold">
                  {member.name}
                </Link>
              </td>
              <td className="px-4 py-3">{member.email}</td>
              <td className="px-4 py-3">{member.site.name}</td>
              <td className="px-4 py-3">
                {member.status}
                {member.suspended ? `, ${texts.suspended}` : ""}
              </td>
              <td className="px-4 py-3 tabular-nums">{member.credits}</td>
              <td className="px-4 py-3">{member.paid_user ? texts.yes : texts.no}</td>
              <td className="whitespace-nowrap px-4 py-3 tabular-nums">{utcMinute(member.signup_date)}</td>
            </tr>
          ))}
        </StaffTable>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
