import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formNumber, formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField } from "~/features/staff/staff-format";
import { StaffCard, StaffField, StaffTable } from "~/features/staff/staff-parts";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Modal } from "~/components/ui/modal";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/**
 * The desk's saved replies (admins, docs/staff.md): a site's list, a form for a new one, editing one (?edit=), deleting
 * one after a confirmation in the Modal (?delete=, so it works without JavaScript), and the site's waiting-time
 * thresholds of the queues. Every change is audited by the api.
 */

function numberParam(url: URL, name: string): number | null {
  const value = url.searchParams.get(name) ?? "";
  return /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().savedReplies;
  const api = apiFor(request, context);
  const url = new URL(request.url);
  const sites = await api.call(endpoints.staffSites);
  if (!sites.ok) throw new Response(null, { status: sites.status });
  const siteId = numberParam(url, "site") ?? sites.data.sites[0]?.id ?? null;
  const list = siteId ? await api.call(endpoints.savedReplies, { query: { site: siteId } }) : null;
  if (list && !list.ok) throw new Response(null, { status: list.status === 400 ? 404 : list.status });
  const done = url.searchParams.get("done");
  return {
    title: texts.metaTitle,
    description: texts.lead,
    texts,
    sites: sites.data.sites.map((site) => ({ id: site.id, name: site.name })),
    list: list?.ok ? list.data : null,
    editId: numberParam(url, "edit"),
    deleteId: numberParam(url, "delete"),
    done: done === "created" || done === "saved" || done === "deleted" || done === "thresholds" ? done : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const site = formNumber(form, "site");
  const profile = formText(form, "profile");
  const fields = { site, profile: profile ? formNumber(form, "profile") : null, title: formText(form, "title"), body: formText(form, "body") };
  const body =
    intent === "create"
      ? { action: "create", ...fields }
      : intent === "update"
        ? { action: "update", id: formNumber(form, "id"), ...fields }
        : intent === "delete"
          ? { action: "delete", site, id: formNumber(form, "id") }
          : intent === "thresholds"
            ? { action: "thresholds", site, warn_minutes: formNumber(form, "warn_minutes"), late_minutes: formNumber(form, "late_minutes") }
            : null;
  if (!body) throw data(null, { status: 400 });
  const result = await staffWrite(request, context, endpoints.changeSavedReply, body);
  if (!result.ok) return data({ intent, error: result.message, fields: result.fields, values: { title: fields.title, body: fields.body } }, { status: result.status });
  const done = intent === "create" ? "created" : intent === "update" ? "saved" : intent === "delete" ? "deleted" : "thresholds";
  throw redirect(`/staff/saved-replies?site=${site}&done=${done}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffSavedReplies() {
  const { texts, sites, list, editId, deleteId, done } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const navigate = useNavigate();
  const c = texts.columns;
  const editing = list?.replies.find((reply) => reply.id === editId) ?? null;
  const deleting = list?.replies.find((reply) => reply.id === deleteId) ?? null;
  const siteQuery = list ? `?site=${list.site.id}` : "";
  const fieldError = (name: string) => (failed?.fields?.[name]?.[0] ? failed.fields[name][0] : undefined);
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="saved-site" className="block text-sm font-medium text-gray-700">
            {texts.site}
          </label>
          <select id="saved-site" name="site" defaultValue={list?.site.id ?? ""} className={staffField}>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
        <Button size="sm" variant="neutral">
          {texts.choose}
        </Button>
      </Form>
      <div className="mt-4 space-y-2">
        {done ? <Notice testId="saved-replies-done">{done === "created" ? texts.created : done === "saved" ? texts.saved : done === "deleted" ? texts.deleted : texts.thresholdsSaved}</Notice> : null}
        {failed?.error && Object.keys(failed.fields ?? {}).length === 0 ? <FormAlert>{failed.error}</FormAlert> : null}
      </div>
      {list ? (
        <>
          <h2 className="mt-6 text-lg font-semibold text-gray-900">{fill(texts.list, { site: list.site.name })}</h2>
          {list.replies.length === 0 ? (
            <p className="mt-2 text-gray-700" data-testid="saved-replies-empty">
              {texts.empty}
            </p>
          ) : (
            <StaffTable testId="saved-replies" headings={[c.title, c.text, c.for, c.actions]} className="mt-2">
              {list.replies.map((reply) => (
                <tr key={reply.id} data-testid="saved-reply-row">
                  <td className="px-4 py-3 font-semibold">{reply.title}</td>
                  <td className="max-w-md whitespace-pre-line px-4 py-3 text-gray-800">{reply.body}</td>
                  <td className="px-4 py-3">{reply.profile?.name ?? texts.allProfiles}</td>
                  <td className="whitespace-nowrap px-4 py-3">
                    <Link to={`${siteQuery}&edit=${reply.id}`} aria-label={`${texts.edit}: ${reply.title}`}>
                      {texts.edit}
                    </Link>{" "}
                    ·{" "}
                    <Link to={`${siteQuery}&delete=${reply.id}`} aria-label={`${texts.delete}: ${reply.title}`} className="text-red-700">
                      {texts.delete}
                    </Link>
                  </td>
                </tr>
              ))}
            </StaffTable>
          )}
          <div className="mt-6 grid gap-4 lg:grid-cols-2">
            <StaffCard title={editing ? fill(texts.editTitle, { title: editing.title }) : texts.new} testId="saved-reply-form">
              <Form method="post" className="space-y-3" key={editing?.id ?? "new"}>
                <input type="hidden" name="intent" value={editing ? "update" : "create"} />
                <input type="hidden" name="site" value={list.site.id} />
                {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
                <StaffField id="saved-title" label={texts.titleField} error={fieldError("title")}>
                  <input id="saved-title" name="title" required maxLength={80} defaultValue={failed?.values.title || editing?.title || ""} className={staffField} />
                </StaffField>
                <StaffField id="saved-body" label={texts.bodyField} hint={texts.bodyHint} error={fieldError("body")}>
                  <textarea id="saved-body" name="body" required rows={4} maxLength={2000} defaultValue={failed?.values.body || editing?.body || ""} className={staffField} />
                </StaffField>
                <StaffField id="saved-profile" label={texts.profileField} error={fieldError("profile")}>
                  <select id="saved-profile" name="profile" defaultValue={editing?.profile?.id ?? ""} className={staffField}>
                    <option value="">{texts.allProfiles}</option>
                    {list.profiles.map((profile) => (
                      <option key={profile.id} value={profile.id}>
                        {profile.name}
                      </option>
                    ))}
                  </select>
                </StaffField>
                <div className="flex flex-wrap gap-2">
                  <Button size="md" disabled={busy}>
                    {editing ? texts.save : texts.create}
                  </Button>
                  {editing ? (
                    <ButtonLink to={siteQuery} size="md" variant="neutral">
                      {texts.cancel}
                    </ButtonLink>
                  ) : null}
                </div>
              </Form>
            </StaffCard>
            <StaffCard title={fill(texts.thresholds, { site: list.site.name })} testId="saved-thresholds">
              <p className="text-sm text-gray-700">{texts.thresholdsLead}</p>
              <Form method="post" className="mt-2 space-y-3">
                <input type="hidden" name="intent" value="thresholds" />
                <input type="hidden" name="site" value={list.site.id} />
                <StaffField id="warn-minutes" label={texts.warn} error={fieldError("warn_minutes")}>
                  <input id="warn-minutes" name="warn_minutes" type="number" min={1} max={10080} required defaultValue={list.thresholds.warn_minutes} className={staffField} />
                </StaffField>
                <StaffField id="late-minutes" label={texts.late} error={fieldError("late_minutes")}>
                  <input id="late-minutes" name="late_minutes" type="number" min={1} max={10080} required defaultValue={list.thresholds.late_minutes} className={staffField} />
                </StaffField>
                <Button size="md" variant="neutral" disabled={busy}>
                  {texts.saveThresholds}
                </Button>
              </Form>
            </StaffCard>
          </div>
          {deleting ? (
            <Modal title={texts.delete} onClose={() => navigate(siteQuery, { replace: true })} closeLabel={texts.cancel} closeHref={siteQuery} testId="saved-reply-delete">
              <p className="mt-2 text-sm text-gray-800">{fill(texts.confirmDelete, { title: deleting.title })}</p>
              <Form method="post" className="mt-4 flex flex-wrap gap-2">
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="site" value={list.site.id} />
                <input type="hidden" name="id" value={deleting.id} />
                <Button size="md" variant="danger" disabled={busy}>
                  {texts.delete}
                </Button>
                <ButtonLink to={siteQuery} size="md" variant="neutral" replace>
                  {texts.cancel}
                </ButtonLink>
              </Form>
            </Modal>
          ) : null}
        </>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
