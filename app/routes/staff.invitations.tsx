import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formNumber, formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { StaffCard, StaffTable } from "~/features/staff/staff-parts";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/** Invitations for invite-only signup (admins): create (its signup link shown), list, revoke. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().invitations;
  const result = await apiFor(request, context).call(endpoints.invitations);
  if (!result.ok) throw new Response(null, { status: result.status });
  // The new invitation form's key, new with each rendering: one form makes one invitation.
  return { title: texts.metaTitle, description: texts.lead, texts, list: result.data, formKey: crypto.randomUUID() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const body = intent === "revoke" ? { action: "revoke", id: formNumber(form, "id") } : intent === "create" ? { action: "create", site_id: formNumber(form, "site_id"), days: formNumber(form, "days"), form_key: formText(form, "form_key") } : null;
  if (!body) throw data(null, { status: 400 });
  const result = await staffWrite(request, context, endpoints.changeInvitation, body);
  if (!result.ok) return data({ error: result.message, link: null, replay: false }, { status: result.status });
  return { error: null, link: result.data.link, replay: result.data.replay ?? false };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffInvitations() {
  const { texts, list, formKey } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const now = new Date().toISOString();
  const c = texts.columns;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <div className="mt-4">
        {outcome?.error ? (
          <FormAlert>{outcome.error}</FormAlert>
        ) : outcome?.link ? (
          <div role="status" className="rounded-xl bg-green-50 p-4 text-sm text-green-900 ring-1 ring-green-200">
            <p className="font-semibold">{texts.linkTitle}</p>
            <p className="mt-1">{texts.linkLead}</p>
            <p className="mt-2 break-all font-mono" data-testid="staff-invitation-link">
              {outcome.link}
            </p>
          </div>
        ) : outcome ? (
          <Notice>{outcome.replay ? texts.replay : texts.done}</Notice>
        ) : null}
      </div>
      <div className="mt-6 max-w-xl">
        <StaffCard title={texts.createTitle}>
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="create" />
            <input type="hidden" name="form_key" value={formKey} />
            <div>
              <label htmlFor="invitation-site" className="block text-sm font-medium text-gray-700">
                {texts.site}
              </label>
              <select id="invitation-site" name="site_id" className={staffField}>
                {list.sites.map((site) => (
                  <option key={site.id} value={site.id}>
                    {site.name} {site.invite_only ? texts.inviteOnly : ""}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="invitation-days" className="block text-sm font-medium text-gray-700">
                {texts.days}
              </label>
              <input id="invitation-days" name="days" type="number" min={1} max={365} defaultValue={14} required className={staffField} />
            </div>
            <Button size="md" disabled={busy}>
              {texts.create}
            </Button>
          </Form>
        </StaffCard>
      </div>
      {list.invitations.length > 0 ? (
        <StaffTable testId="staff-invitations" headings={[c.code, c.site, c.state, c.expires, c.actions]} className="mt-6">
          {list.invitations.map((invitation) => {
            const open = invitation.used_by === null && invitation.expires_at > now;
            return (
              <tr key={invitation.id}>
                <td className="px-4 py-3 font-mono">{invitation.code}</td>
                <td className="px-4 py-3">{invitation.site.name}</td>
                <td className="px-4 py-3">{invitation.used_by !== null ? fill(texts.used, { id: invitation.used_by }) : open ? texts.open : texts.expired}</td>
                <td className="whitespace-nowrap px-4 py-3 tabular-nums">{utcMinute(invitation.expires_at)}</td>
                <td className="px-4 py-3">
                  {open ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="revoke" />
                      <input type="hidden" name="id" value={invitation.id} />
                      <Button size="sm" variant="neutral" disabled={busy} aria-label={`${texts.revoke} ${invitation.code}`}>
                        {texts.revoke}
                      </Button>
                    </Form>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </StaffTable>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
