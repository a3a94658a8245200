import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { StaffCard, StaffTable } from "~/features/staff/staff-parts";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";
import { servesEverySite, staffRoleNames } from "#contract/staff-permissions";

const roles = ["admin", "moderator", "support", "operator"] as const;

/** Staff accounts (admins): list, add with a one-time set-up link, a new link, disable and enable. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const texts = staffTexts();
  const result = await apiFor(request, context).call(endpoints.staffAccounts);
  if (!result.ok) throw new Response(null, { status: result.status });
  return { title: texts.accounts.metaTitle, description: texts.accounts.lead, texts: { ...texts.accounts, roles: texts.roles }, list: result.data, me: staff.id };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().accounts;
  const form = await request.formData();
  const intent = formText(form, "intent");
  let body: Record<string, unknown>;
  if (intent === "add") {
    const role = formText(form, "role");
    const siteIds = form.getAll("site_ids").map((value) => Number(value));
    const everySite = staffRoleNames.some((name) => name === role && servesEverySite(name));
    if (!everySite && siteIds.length === 0) return data({ error: texts.noSitesChosen, link: null }, { status: 400 });
    body = { action: "add", email: formText(form, "email"), name: formText(form, "name"), role, site_ids: siteIds };
  } else if (intent === "link" || intent === "disable" || intent === "enable") {
    body = { action: intent, id: Number(formText(form, "id")) };
  } else throw data(null, { status: 400 });
  const result = await staffWrite(request, context, endpoints.changeStaffAccount, body);
  if (!result.ok) return data({ error: result.message, link: null }, { status: result.status });
  const email = intent === "add" ? formText(form, "email").toLowerCase() : formText(form, "email");
  return { error: null, link: result.data.link ? { url: result.data.link, email, until: result.data.expires_at } : null };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffAccounts() {
  const { texts, list, me } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const siteName = new Map(list.sites.map((site) => [site.id, site.name]));
  const c = texts.columns;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <div className="mt-4 space-y-2">
        {outcome?.error ? <FormAlert>{outcome.error}</FormAlert> : null}
        {outcome?.link ? (
          <div role="status" className="rounded-xl bg-green-50 p-4 text-sm text-green-900 ring-1 ring-green-200" data-testid="staff-setup-link">
            <p className="font-semibold">{fill(texts.linkTitle, { email: outcome.link.email })}</p>
            <p className="mt-1">{fill(texts.linkLead, { until: outcome.link.until ? utcMinute(outcome.link.until) : "" })}</p>
            <p className="mt-2 break-all font-mono" data-testid="staff-setup-url">
              {outcome.link.url}
            </p>
          </div>
        ) : outcome ? (
          <Notice>{texts.done}</Notice>
        ) : null}
      </div>
      <StaffTable testId="staff-accounts" headings={[c.name, c.email, c.role, c.sites, c.state, c.actions]} className="mt-6">
        {list.accounts.map((account) => (
          <tr key={account.id} data-testid="staff-account-row">
            <td className="px-4 py-3">{account.name}</td>
            <td className="px-4 py-3">{account.email}</td>
            <td className="px-4 py-3">{texts.roles[account.role]}</td>
            <td className="px-4 py-3">{servesEverySite(account.role) ? texts.allSites : account.site_ids.map((id) => siteName.get(id) ?? id).join(", ") || texts.noSites}</td>
            <td className="px-4 py-3">{account.disabled ? texts.disabled : account.set_up ? texts.active : texts.notSetUp}</td>
            <td className="px-4 py-3">
              {account.id === me ? null : (
                <Form method="post" className="flex flex-wrap gap-2">
                  <input type="hidden" name="id" value={account.id} />
                  <input type="hidden" name="email" value={account.email} />
                  {account.disabled ? (
                    <Button name="intent" value="enable" size="sm" variant="neutral" disabled={busy} aria-label={`${texts.enable} ${account.email}`}>
                      {texts.enable}
                    </Button>
                  ) : (
                    <>
                      <Button name="intent" value="link" size="sm" variant="neutral" disabled={busy} aria-label={`${texts.newLink} ${account.email}`}>
                        {texts.newLink}
                      </Button>
                      <Button name="intent" value="disable" size="sm" variant="danger" disabled={busy} aria-label={`${texts.disable} ${account.email}`}>
                        {texts.disable}
                      </Button>
                    </>
                  )}
                </Form>
              )}
            </td>
          </tr>
        ))}
      </StaffTable>
      <div className="mt-6 max-w-xl">
        <StaffCard title={texts.addTitle}>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="add" />
            <div>
              <label htmlFor="account-email" className="block text-sm font-medium text-gray-700">
                {texts.email}
              </label>
              <input id="account-email" name="email" type="email" required maxLength={254} autoComplete="off" className={staffField} />
            </div>
            <div>
              <label htmlFor="account-name" className="block text-sm font-medium text-gray-700">
                {texts.name}
              </label>
              <input id="account-name" name="name" required maxLength={80} autoComplete="off" className={staffField} />
            </div>
            <div>
              <label htmlFor="account-role" className="block text-sm font-medium text-gray-700">
                {texts.role}
              </label>
              <select id="account-role" name="role" defaultValue="moderator" className={staffField}>
                {roles.map((role) => (
                  <option key={role} value={role}>
                    {texts.roles[role]}
                  </option>
                ))}
              </select>
            </div>
            <fieldset>
              <legend className="text-sm font-medium text-gray-700">{texts.sites}</legend>
              <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                {list.sites.map((site) => (
                  <label key={site.id} className="flex items-center gap-2 text-sm text-gray-800">
                    <input type="checkbox" name="site_ids" value={site.id} className="h-4 w-4" />
                    {site.name}
                  </label>
                ))}
              </div>
            </fieldset>
            <Button size="md" disabled={busy}>
              {texts.add}
            </Button>
          </Form>
        </StaffCard>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
