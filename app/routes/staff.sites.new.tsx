import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { SiteResponse } from "#contract/staff-sites";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { saveSite } from "~/features/staff/site-settings.server";
import { siteSettingsFormSchema, siteSettingsFormValues, siteSettingsLayout } from "~/features/staff/site-settings-form";
import { formConstraint } from "~/utils/form-constraint";
import { SiteSettingsForm } from "~/features/staff/site-settings";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/** A new site (admins). The form starts from the default site's settings, without its name and domain. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().sites;
  const api = apiFor(request, context);
  const sites = await api.call(endpoints.staffSites);
  if (!sites.ok) throw new Response(null, { status: sites.status });
  // The api serves no request without a default site (api/domain/sites.ts), so there is always one to start from.
  const template = sites.data.sites.find((site) => site.is_default) ?? sites.data.sites[0];
  const base = template ? await api.call(endpoints.staffSite, { query: { id: template.id } }) : null;
  if (!base?.ok) throw new Response(null, { status: base?.status ?? 404 });
  const values: SiteResponse["settings"] = { ...base.data.settings, name: "", domain: "", is_default: false };
  return { title: texts.newMetaTitle, description: texts.newLead, texts, defaultValue: siteSettingsFormValues(values), constraint: formConstraint(siteSettingsFormSchema()),
    layout: siteSettingsLayout(), companies: sites.data.companies };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await request.formData();
  const saved = await saveSite(request, context, form, { action: "create" }, staffTexts().sites);
  if (!saved.ok) return data(saved, { status: saved.status });
  throw redirect(`/staff/sites/${saved.id}?done=created`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffNewSite() {
  const { texts, defaultValue, constraint, layout, companies } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <>
      <Link to="/staff/sites" className="text-sm font-semibold underline">
        {texts.back}
      </Link>
      <h1 className="mt-2 text-2xl font-bold text-gray-900">{texts.newTitle}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.newLead}</p>
      <SiteSettingsForm texts={texts} layout={layout} defaultValue={defaultValue} constraint={constraint} lastResult={refused?.reply} companies={companies} intent="create" busy={busy} />
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
