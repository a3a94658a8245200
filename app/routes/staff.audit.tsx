import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { auditActions } from "#contract/audit-actions";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { Button, ButtonLink } from "~/components/ui/button";
import { endpoints } from "#contract/endpoints/index";
import { FormAlert } from "~/components/ui/form-fields";
import { PlainSelect } from "~/components/ui/choice-fields";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

const filterNames = ["action", "staff_id", "target_type", "target_id", "from", "to"] as const;
const textFilters = ["staff_id", "target_type", "target_id"] as const;

/** The staff page of an entry's target, where there is one. */
const targetPages: Record<string, (id: string) => string> = {
  member: (id) => `/staff/members/${id}`,
  site: (id) => `/staff/sites/${id}`,
  report: (id) => `/staff/reports/${id}`,
  profile: (id) => `/staff/profiles/${id}`,
};

/** The audit log, newest first, filtered; admins only (the api answers others 403). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().audit;
  const url = new URL(request.url);
  const query: Record<string, string> = {};
  for (const name of [...filterNames, "before"]) {
    const value = url.searchParams.get(name)?.trim();
    if (value) query[name] = value;
  }
  const result = await apiFor(request, context).call(endpoints.staffAudit, { query: query, ...{ sessionOptional: true } });
  if (!result.ok && result.error.error !== "validation_failed") throw new Response(null, { status: result.status });
  const invalid = result.ok ? null : texts.invalid.replace("{{fields}}", Object.keys(result.error.fields ?? {}).join(", "));
  return { title: texts.metaTitle, description: texts.lead, texts, filters: query, invalid, log: result.ok ? result.data : { entries: [], next_before: null } };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

const field = "mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm";

export default function StaffAudit() {
  const { texts, filters, invalid, log } = useLoaderData<typeof loader>();
  const labels: Record<(typeof textFilters)[number], string> = { staff_id: texts.staffId, target_type: texts.targetType, target_id: texts.targetId };
  const next = log.next_before === null ? null : `?${new URLSearchParams({ ...filters, before: String(log.next_before) })}`;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 text-sm text-gray-600">{texts.lead}</p>
      <Form method="get" className="mt-6 grid gap-3 rounded-xl bg-white p-4 ring-1 ring-gray-200 sm:grid-cols-4 sm:items-end" aria-label={texts.filters}>
        <PlainSelect id="audit-action" name="action" label={texts.action} defaultValue={filters.action ?? ""} options={[{ value: "", label: texts.anyAction }, ...auditActions.map((action) => ({ value: action, label: action }))]} />
        {textFilters.map((name) => (
          <div key={name}>
            <label htmlFor={`audit-${name}`} className="block text-sm font-medium text-gray-700">
              {labels[name]}
            </label>
            <input id={`audit-${name}`} name={name} defaultValue={filters[name] ?? ""} className={field} inputMode={name === "staff_id" ? "numeric" : undefined} />
          </div>
        ))}
        {(["from", "to"] as const).map((name) => (
          <div key={name}>
            <label htmlFor={`audit-${name}`} className="block text-sm font-medium text-gray-700">
              {name === "from" ? texts.from : texts.to}
            </label>
            <input id={`audit-${name}`} name={name} type="date" defaultValue={filters[name] ?? ""} className={field} />
          </div>
        ))}
        <div className="flex gap-2">
          <Button size="md">{texts.apply}</Button>
          <ButtonLink to="/staff/audit" variant="neutral" size="md">
            {texts.clear}
          </ButtonLink>
        </div>
      </Form>
      {invalid ? (
        <div className="mt-4">
          <FormAlert>{invalid}</FormAlert>
        </div>
      ) : null}
      {log.entries.length === 0 ? (
        <p className="mt-6 text-gray-700">{texts.none}</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-xl bg-white ring-1 ring-gray-200" tabIndex={0}>
          <table className="min-w-full text-left text-sm" data-testid="staff-audit">
            <thead className="border-b border-gray-200 text-gray-700">
              <tr>
                {[texts.when, texts.who, texts.what, texts.target, texts.changes, texts.ip].map((heading) => (
                  <th key={heading} scope="col" className="px-4 py-3 font-semibold">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 align-top text-gray-900">
              {log.entries.map((entry) => (
                <tr key={entry.id} data-testid="staff-audit-entry">
                  <td className="whitespace-nowrap px-4 py-3 tabular-nums">
                    <time dateTime={entry.at}>{entry.at.replace("T", " ").slice(0, 19)} UTC</time>
                  </td>
                  <td className="px-4 py-3">
                    {entry.staff_email} <span className="text-gray-600">({entry.role})</span>
                  </td>
                  <td className="px-4 py-3 font-mono text-xs">{entry.action}</td>
                  <td className="px-4 py-3">
                    {entry.target_id && targetPages[entry.target_type] ? (
                      <Link to={targetPages[entry.target_type]!(entry.target_id)} data-testid="staff-audit-target">
                        {entry.target_type} #{entry.target_id}
                      </Link>
                    ) : (
                      <>
                        {entry.target_type}
                        {entry.target_id ? ` #${entry.target_id}` : ""}
                      </>
                    )}
                  </td>
                  <td className="px-4 py-3">
                    {Object.keys(entry.changes).length === 0 ? (
                      texts.noChanges
                    ) : (
                      <ul className="space-y-1">
                        {Object.entries(entry.changes).map(([name, change]) => (
                          <li key={name}>
                            <span className="font-medium">{name}</span>: {JSON.stringify(change.before)} → {JSON.stringify(change.after)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="px-4 py-3 font-mono text-xs">{entry.client_ip ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next ? (
        <p className="mt-4">
          <Link to={next} className="font-semibold">
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
