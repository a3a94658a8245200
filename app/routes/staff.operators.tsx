import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffField } from "~/features/staff/staff-format";
import { formatWait } from "~/features/staff/operator-figures";
import { Button, ButtonAnchor } from "~/components/ui/button";
import { StaffErrorBoundary } from "~/features/staff/staff-error";
import { StaffTable } from "~/features/staff/staff-parts";
import { endpoints } from "#contract/endpoints/index";

/** The operators' figures per day (admins), as a table and as CSV (/staff/operators.csv). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().operators;
  const raw = new URL(request.url).searchParams.get("days");
  const days = raw && /^\d{1,3}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 366 ? Number(raw) : 30;
  const result = await apiFor(request, context).call(endpoints.operatorFigures, { query: { days } });
  if (!result.ok) throw new Response(null, { status: result.status });
  return { title: texts.metaTitle, description: texts.lead, texts, figures: result.data };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffOperators() {
  const { texts, figures } = useLoaderData<typeof loader>();
  const c = texts.columns;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <div className="mt-6 flex flex-wrap items-end gap-3">
        <Form method="get" className="flex items-end gap-3">
          <div>
            <label htmlFor="operator-days" className="block text-sm font-medium text-gray-700">
              {texts.period}
            </label>
            <input id="operator-days" name="days" type="number" min={1} max={366} defaultValue={figures.days} className={staffField} />
          </div>
          <Button size="md">{texts.show}</Button>
        </Form>
        <ButtonAnchor href={`/staff/operators.csv?days=${figures.days}`} variant="neutral" size="md" download>
          {texts.csv}
        </ButtonAnchor>
      </div>
      {figures.rows.length === 0 ? (
        <p className="mt-6 text-gray-700">{texts.empty}</p>
      ) : (
        <StaffTable testId="operator-figures" headings={[c.day, c.operator, c.replies, c.conversations, c.median, c.p90, c.followed]} className="mt-6">
          {figures.rows.map((row) => (
            <tr key={`${row.day}-${row.staff_id}`}>
              <td className="whitespace-nowrap px-4 py-3 tabular-nums">{row.day}</td>
              <td className="px-4 py-3">{row.name}</td>
              <td className="px-4 py-3 tabular-nums">{row.replies}</td>
              <td className="px-4 py-3 tabular-nums">{row.conversations}</td>
              <td className="px-4 py-3 tabular-nums">{formatWait(row.median_seconds)}</td>
              <td className="px-4 py-3 tabular-nums">{formatWait(row.p90_seconds)}</td>
              <td className="px-4 py-3 tabular-nums">{row.member_messages_after}</td>
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
