import { may } from "#contract/endpoints/may";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { photoRejectionReasons } from "#contract/moderation-reasons";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff, staffRouteId } from "~/features/staff/staff-api.server";
import { formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffCard, staffField, utcMinute } from "~/features/staff/staff-format";
import { Button } from "~/components/ui/button";
import { FormAlert, InputField, SelectField, TextareaField } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { moderationReasons } from "#contract/moderation-reasons";
import { reportMeasures } from "#contract/moderation-reasons";
import { formConstraint } from "~/utils/form-constraint";
import { staffT } from "~/features/staff/staff-i18n.server";
import { useStaffT } from "~/features/staff/staff-i18n";
import { decideSchema } from "~/features/staff/report-forms";
import { Notice } from "~/components/ui/notice";
import { StaffErrorBoundary } from "~/features/staff/staff-error";
import { ReasonSelect, StaffCard } from "~/features/staff/staff-parts";
import { endpoints } from "#contract/endpoints/index";

/**
 * One report: what was reported and by whom, the notes, and the actions (take, note, hide a photo or
 * the profile, suspend, reply to the sender, a statement of reasons to the member, resolve or reject). Each action is a
 * plain form (intent=...), so everything works without JavaScript; the api checks each one's role and site.
 */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const id = staffRouteId(params);
  const texts = staffTexts();
  const result = await apiFor(request, context).call(endpoints.staffReport, { query: { id } });
  if (!result.ok) throw new Response(null, { status: result.status === 400 ? 404 : result.status });
  return {
    title: fill(texts.reports.detail.metaTitle, { id }),
    description: texts.reports.lead,
    texts: { ...texts.reports, photoReasons: texts.reasons.photo, moderationReasons: texts.reasons.moderation, reasons: { ...texts.reasons.report, ...texts.reasons.moderation } },
    report: result.data,
    role: staff.role,
    done: new URL(request.url).searchParams.get("done") === "1",
    decideConstraint: formConstraint(decideSchema(staffT())),
  };
}

const intents = ["take", "note", "resolve", "reject", "reopen", "hide_photo", "hide_profile", "suspend", "reply", "statement"] as const;

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const id = staffRouteId(params);
  const form = await request.formData();
  if (form.get("intent") === "decide") {
    const submission = parseWithZod(form, { schema: decideSchema(staffT()) });
    if (submission.status !== "success") return data({ intent: "decide" as const, result: submission.reply(), error: null }, { status: 400 });
    const { intent: _intent, ...decision } = submission.value;
    const result = await staffWrite(request, context, endpoints.handleReport, { id, action: "decide", ...decision });
    if (!result.ok) {
      const fields = Object.fromEntries(Object.entries(result.fields).filter(([name]) => name in decision));
      return data({ intent: "decide" as const, result: Object.keys(fields).length ? submission.reply({ fieldErrors: fields }) : submission.reply({ formErrors: [result.message] }), error: null }, { status: result.status });
    }
    throw redirect(`/staff/reports/${id}?done=1`);
  }
  const intent = intents.find((i) => i === form.get("intent"));
  if (!intent) throw data(null, { status: 400 });
  const text = formText(form, "text");
  const reason = formText(form, "reason");
  const body: Record<string, unknown> = { id, action: intent };
  if (intent === "note" || intent === "reply" || intent === "statement") body.text = text;
  if ((intent === "resolve" || intent === "reject") && text) body.text = text;
  if (intent === "hide_photo" || intent === "hide_profile" || intent === "suspend" || intent === "statement") body.reason = reason;
  if (intent === "hide_photo") body.photo_id = Number(formText(form, "photo_id")) || 0;
  if (intent === "suspend" && formText(form, "until")) body.until = formText(form, "until");
  const result = await staffWrite(request, context, endpoints.handleReport, body);
  if (!result.ok) return data({ intent, error: result.message, result: null }, { status: result.status });
  throw redirect(`/staff/reports/${id}?done=1`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

const decideSchemaLoader = () => import("~/features/staff/report-forms").then((m) => m.decideSchema);

/** Act, state the reasons and close in one submit (docs/staff.md Reports). */
function DecideForm({ t, canAct }: { t: TFunction; canAct: boolean }) {
  const { decideConstraint } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "decide";
  const lastResult = answer?.intent === "decide" ? answer.result : undefined;
  const { form, fields, formProps, validation } = useValidatedForm({ id: "report-decide", schema: decideSchemaLoader, constraint: decideConstraint, lastResult, t });
  const option = (value: string, label: string) => ({ value, label });
  return (
    <section className="mt-6 rounded-xl bg-white p-4 ring-2 ring-primary/40" aria-labelledby="report-decide-title" data-testid="staff-report-decide">
      <h2 id="report-decide-title" className="font-semibold text-gray-900">
        {t("reports.decide.title")}
      </h2>
      <p className="mt-1 text-sm text-gray-600">{t("reports.decide.lead")}</p>
      <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2" {...formProps}>
        {validation}
        <input type="hidden" name="intent" value="decide" />
        <div className="sm:col-span-2">{form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}</div>
        <SelectField field={fields.outcome} label={t("reports.decide.outcome")} options={[option("resolve", t("reports.decide.resolve")), option("reject", t("reports.decide.reject"))]} fallback="resolve" />
        {canAct ? (
          <>
            <SelectField field={fields.measure} label={t("reports.decide.measure")} options={reportMeasures.map((m) => option(m, t(`reports.decide.measures.${m}`)))} fallback="none" />
            <SelectField field={fields.reason} label={t("reports.decide.reason")} options={moderationReasons.map((r) => option(r, t(`reasons.moderation.${r}`)))} placeholder={t("reports.decide.reasonPlaceholder")} />
            <InputField field={fields.until} label={t("reports.decide.until")} type="date" />
            <div className="sm:col-span-2">
              <TextareaField field={fields.statement} label={t("reports.decide.statement")} rows={3} />
            </div>
          </>
        ) : null}
        <TextareaField field={fields.reply} label={t("reports.decide.reply")} rows={2} />
        <TextareaField field={fields.note} label={t("reports.decide.note")} rows={2} />
        <div className="sm:col-span-2">
          <Button size="md" disabled={busy}>
            {t("reports.decide.submit")}
          </Button>
        </div>
      </Form>
    </section>
  );
}

export default function StaffReport() {
  const { texts, report, role, done } = useLoaderData<typeof loader>();
  const t = useStaffT(useMemo(() => ({ reports: texts, reasons: { moderation: texts.moderationReasons } }), [texts]));
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const d = texts.detail;
  const open = report.status === "new" || report.status === "in_progress";
  const mayModerate = may(role, "photos.moderate");
  const error = (intent: string) => (failed && failed.intent === intent ? <FormAlert>{failed.error}</FormAlert> : null);
  return (
    <>
      <p>
        <Link to="/staff/reports" className="text-sm">
          ← {d.back}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold text-gray-900">
        {fill(d.title, { id: report.id })} · <span data-testid="staff-report-status">{texts.status[report.status]}</span>
      </h1>
      <p className="mt-1 text-sm text-gray-600">
        {texts.source[report.source]} · {(texts.reasons as Record<string, string>)[report.reason] ?? report.reason} · {fill(d.received, { when: utcMinute(report.created_at), site: report.site.name })}
        {report.assignee ? ` · ${report.assignee.name}` : ""}
      </p>
      {done ? (
        <div className="mt-4">
          <Notice testId="staff-report-done">{d.done}</Notice>
        </div>
      ) : null}
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <section className={staffCard} aria-labelledby="report-what">
          <h2 id="report-what" className="font-semibold text-gray-900">
            {d.details}
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-gray-600">{d.reporter}</dt>
            <dd>{report.reporter ? `${report.reporter.name}${report.reporter.email ? ` <${report.reporter.email}>` : ""}` : texts.nobody}</dd>
            <dt className="text-gray-600">{d.reported}</dt>
            <dd>
              {report.reported ? (
                <Link to={`/staff/members/${report.reported.user_id}`} className="font-semibold">
                  {report.reported.name}
                </Link>
              ) : (
                texts.nobody
              )}
            </dd>
          </dl>
          <p className="mt-3 whitespace-pre-line text-sm text-gray-900">{report.details || d.noDetails}</p>
          {report.complaint ? (
            <div className="mt-3 text-sm">
              <p className="font-medium">{fill(d.complaint, { reference: report.complaint.reference })}</p>
              <p className="break-all text-gray-700">
                {d.contentUrl}: {report.complaint.content_url}
              </p>
              <p className="mt-2 whitespace-pre-line text-gray-900">{report.complaint.message}</p>
            </div>
          ) : null}
          {report.conversation.length > 0 ? (
            <div className="mt-3 text-sm">
              <p className="font-medium">{texts.decide.conversation}</p>
              <ol className="mt-1 max-h-96 space-y-1 overflow-y-auto rounded-md bg-gray-50 p-2" data-testid="staff-report-conversation" tabIndex={0}>
                {report.conversation.map((message) => (
                  <li key={message.id} className={message.reported ? "rounded-md bg-red-50 p-2 ring-2 ring-red-300" : "p-2"} data-reported={message.reported || undefined}>
                    <p className="text-xs text-gray-600">
                      {message.sender} · {utcMinute(message.at)}
                      {message.reported ? <strong className="ml-2 text-red-800">{texts.decide.reported}</strong> : null}
                    </p>
                    <p className="whitespace-pre-line text-gray-900">{message.kind === "text" ? message.body : `(${message.kind})`}</p>
                  </li>
                ))}
              </ol>
            </div>
          ) : report.message ? (
            <div className="mt-3 text-sm">
              <p className="font-medium">{d.message}</p>
              <p className="mt-1 whitespace-pre-line rounded-md bg-gray-50 p-2 text-gray-900" data-testid="staff-report-message">
                {report.message.body ?? d.messageHidden}
              </p>
            </div>
          ) : null}
        </section>
        {report.profile ? (
          <section className={staffCard} aria-labelledby="report-profile">
            <h2 id="report-profile" className="font-semibold text-gray-900">
              {d.profile}: {report.profile.name}
              {report.profile.status === "disabled" ? ` (${d.profileHidden})` : ""}
            </h2>
            <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
              {report.profile.photos.map((photo) => (
                <li key={photo.id} className="text-xs" data-testid="staff-report-photo" data-status={photo.status}>
                  <img src={photo.thumb_url} alt={`${report.profile?.name ?? ""} ${photo.id}`} width={160} height={160} className={`aspect-square w-full rounded-md object-cover ${photo.status === "rejected" ? "opacity-40" : ""}`} />
                  {photo.status === "rejected" ? (
                    <p className="mt-1 text-gray-700">{d.profileHidden}</p>
                  ) : mayModerate ? (
                    <Form method="post" className="mt-1 space-y-1">
                      <input type="hidden" name="intent" value="hide_photo" />
                      <input type="hidden" name="photo_id" value={photo.id} />
                      <label className="sr-only" htmlFor={`hide-reason-${photo.id}`}>
                        {d.reason}
                      </label>
                      <select id={`hide-reason-${photo.id}`} name="reason" defaultValue="not_the_member" className={staffField}>
                        {photoRejectionReasons.map((reason) => (
                          <option key={reason} value={reason}>
                            {texts.photoReasons[reason]}
                          </option>
                        ))}
                      </select>
                      <Button size="sm" variant="danger" disabled={busy} aria-label={`${d.hidePhoto} ${photo.id}`}>
                        {d.hidePhoto}
                      </Button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
            {error("hide_photo")}
          </section>
        ) : null}
      </div>

      {open ? <DecideForm t={t} canAct={report.can_state && may(role, "members.suspend")} /> : null}

      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        {open ? (
          <StaffCard title={d.take}>
            <p className="text-sm text-gray-600">{d.takeHint}</p>
            <Form method="post" className="mt-2">
              <Button name="intent" value="take" size="md" disabled={busy}>
                {d.take}
              </Button>
            </Form>
            {error("take")}
          </StaffCard>
        ) : null}
        <StaffCard title={open ? d.close : texts.status[report.status]}>
          {open ? (
            <Form method="post" className="space-y-2">
              <TextArea id="close-text" label={d.closeNote} />
              <div className="flex flex-wrap gap-2">
                <Button name="intent" value="resolve" size="md" disabled={busy}>
                  {d.resolve}
                </Button>
                <Button name="intent" value="reject" size="md" variant="neutral" disabled={busy}>
                  {d.reject}
                </Button>
              </div>
            </Form>
          ) : (
            <Form method="post">
              <Button name="intent" value="reopen" size="md" variant="neutral" disabled={busy}>
                {d.reopen}
              </Button>
            </Form>
          )}
          {error("resolve")}
          {error("reject")}
          {error("reopen")}
        </StaffCard>
        <StaffCard title={d.note}>
          <Form method="post" className="space-y-2">
            <input type="hidden" name="intent" value="note" />
            <TextArea id="note-text" label={d.text} required />
            <Button size="md" variant="neutral" disabled={busy}>
              {d.addNote}
            </Button>
          </Form>
          {error("note")}
        </StaffCard>
        {report.reported ? (
          <StaffCard title={d.suspend}>
            <Form method="post" className="space-y-2">
              <ReasonSelect id="suspend-reason" label={d.reason} reasons={texts.moderationReasons} />
              <div>
                <label htmlFor="suspend-until" className="block text-sm font-medium text-gray-700">
                  {d.until}
                </label>
                <input id="suspend-until" name="until" type="date" className={staffField} />
              </div>
              <div className="flex flex-wrap gap-2">
                <Button name="intent" value="suspend" size="md" variant="danger" disabled={busy}>
                  {d.suspendSubmit}
                </Button>
                <Button name="intent" value="hide_profile" size="md" variant="neutral" disabled={busy}>
                  {d.hideProfile}
                </Button>
              </div>
            </Form>
            {error("suspend")}
            {error("hide_profile")}
          </StaffCard>
        ) : null}
        {report.can_reply ? (
          <StaffCard title={d.reply}>
            <Form method="post" className="space-y-2">
              <input type="hidden" name="intent" value="reply" />
              <TextArea id="reply-text" label={d.text} required />
              <Button size="md" disabled={busy}>
                {d.replySubmit}
              </Button>
            </Form>
            {error("reply")}
          </StaffCard>
        ) : null}
        {report.can_state ? (
          <StaffCard title={d.statement}>
            <Form method="post" className="space-y-2">
              <input type="hidden" name="intent" value="statement" />
              <ReasonSelect id="statement-reason" label={d.reason} reasons={texts.moderationReasons} />
              <TextArea id="statement-text" label={d.text} required />
              <Button size="md" disabled={busy}>
                {d.statementSubmit}
              </Button>
            </Form>
            {error("statement")}
          </StaffCard>
        ) : null}
      </div>

      <section className={`mt-6 ${staffCard}`} aria-labelledby="report-notes">
        <h2 id="report-notes" className="font-semibold text-gray-900">
          {d.notes}
        </h2>
        {report.notes.length === 0 ? (
          <p className="mt-2 text-sm text-gray-700">{d.noNotes}</p>
        ) : (
          <ol className="mt-2 space-y-2 text-sm" data-testid="staff-report-notes">
            {report.notes.map((note) => (
              <li key={note.id}>
                <span className="text-gray-600">
                  {utcMinute(note.at)} · {note.staff_name} · {d.kinds[note.kind]}:
                </span>{" "}
                <span className="whitespace-pre-line text-gray-900">{note.body}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}

/** The text of an action's form (field name "text"), with its own id on the page. */
function TextArea({ id, label, required }: { id: string; label: string; required?: boolean }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <textarea id={id} name="text" rows={3} maxLength={2000} required={required} className={staffField} />
    </div>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
