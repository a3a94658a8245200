import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { fill } from "~/features/staff/staff-format";
import { StaffTable } from "~/features/staff/staff-parts";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/** The sites of this deployment (admins), each leading to its settings and its packages. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().sites;
  const result = await apiFor(request, context).call(endpoints.staffSites);
  if (!result.ok) throw new Response(null, { status: result.status });
  return { title: texts.metaTitle, description: texts.lead, texts, list: result.data };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

const linkClass = "font-semibold underline";

export default function StaffSites() {
  const { texts, list } = useLoaderData<typeof loader>();
  const c = texts.columns;
  return (
    <>
      <div className="flex flex-wrap items-center gap-4">
        <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
        <Link to="/staff/sites/new" className={linkClass}>
          {texts.new}
        </Link>
      </div>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      {list.sites.length === 0 ? (
        <p className="mt-6 text-gray-700">{texts.empty}</p>
      ) : (
        <StaffTable testId="staff-sites" headings={[c.name, c.domain, c.niche, c.countries, c.signups, c.packages, c.actions]}>
          {list.sites.map((site) => (
            <tr key={site.id} data-testid="staff-site">
              <td className="px-4 py-3">
                {site.name}
                {site.is_default ? <span className="ml-2 rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">{texts.isDefault}</span> : null}
              </td>
              <td className="px-4 py-3 font-mono">{site.domain}</td>
              <td className="px-4 py-3 tabular-nums">{site.niche}</td>
              <td className="px-4 py-3">{site.countries.join(", ")}</td>
              <td className="px-4 py-3">{texts.signups[site.signups]}</td>
              <td className="px-4 py-3 tabular-nums">{site.packages}</td>
              <td className="px-4 py-3">
                <div className="flex flex-wrap gap-3">
                  <Link to={`/staff/sites/${site.id}`} className={linkClass} aria-label={fill(texts.edit, { name: site.name })}>
                    {texts.settingsLink}
                  </Link>
                  <Link to={`/staff/packages?site=${site.id}`} className={linkClass} aria-label={fill(texts.packagesLink, { name: site.name })}>
                    {texts.packagesShort}
                  </Link>
                </div>
              </td>
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
