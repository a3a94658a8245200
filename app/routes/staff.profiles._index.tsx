import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ageOn } from "#contract/age";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formNumber, staffWrite } from "~/features/staff/staff-write.server";
import { staffField } from "~/features/staff/staff-format";
import { StaffCard } from "~/features/staff/staff-parts";
import { ProfileFields, profileBody } from "~/features/staff/profile-fields";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/** The site-run profiles (admins): the list, and a new one. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().profiles;
  const before = new URL(request.url).searchParams.get("before");
  const result = await apiFor(request, context).call(endpoints.siteRunProfiles, { query: before ? { before } : undefined });
  if (!result.ok) throw new Response(null, { status: result.status });
  return { title: texts.metaTitle, description: texts.lead, texts, list: result.data };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await request.formData();
  const result = await staffWrite(request, context, endpoints.changeSiteRunProfile, { action: "create", site_id: formNumber(form, "site_id"), ...profileBody(form) });
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  throw redirect(`/staff/profiles/${result.data.id}?done=1`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffProfiles() {
  const { texts, list } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const c = texts.columns;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      {list.profiles.length === 0 ? (
        <p className="mt-6 text-gray-700">{texts.empty}</p>
      ) : (
        <div className="mt-6 max-h-[32rem] overflow-auto rounded-xl bg-white ring-1 ring-gray-200">
          <table className="min-w-full text-left text-sm" data-testid="staff-profiles">
            <thead className="border-b border-gray-200 text-gray-700">
              <tr>
                {[c.name, c.site, c.age, c.place, c.photos, c.state].map((heading) => (
                  <th key={heading} scope="col" className="px-4 py-3 font-semibold">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 text-gray-900">
              {list.profiles.map((profile) => (
                <tr key={profile.id} data-testid="staff-profile-row">
                  <td className="px-4 py-3">
                    <Link to={`/staff/profiles/${profile.id}`} className="font-semibold">
                      {profile.name}
                    </Link>
                  </td>
                  <td className="px-4 py-3">{profile.site.name}</td>
                  <td className="px-4 py-3 tabular-nums">{ageOn(profile.date_of_birth)}</td>
                  <td className="px-4 py-3">{[profile.city, profile.country].filter(Boolean).join(", ")}</td>
                  <td className="px-4 py-3 tabular-nums">{profile.photos.length}</td>
                  <td className="px-4 py-3">{profile.active ? texts.active : texts.disabled}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.next_before !== null ? (
        <p className="mt-3">
          <Link to={`?before=${list.next_before}`} rel="next" data-testid="staff-profiles-older">
            {texts.older}
          </Link>
        </p>
      ) : null}
      <div className="mt-6 max-w-2xl">
        <StaffCard title={texts.createTitle}>
          {failed?.error ? <FormAlert>{failed.error}</FormAlert> : null}
          <Form method="post" className="mt-2 grid gap-3 sm:grid-cols-2">
            <div>
              <label htmlFor="profile-site" className="block text-sm font-medium text-gray-700">
                {texts.site}
              </label>
              <select id="profile-site" name="site_id" className={staffField}>
                {list.sites.map((site) => (
                  <option key={site.id} value={site.id}>
                    {site.name}
                  </option>
                ))}
              </select>
            </div>
            <ProfileFields texts={texts} />
            <div className="sm:col-span-2">
              <Button size="md" disabled={busy}>
                {texts.create}
              </Button>
            </div>
          </Form>
        </StaffCard>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
