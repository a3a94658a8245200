import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { BlockQuery } from "#contract/blocks";
import { MemberResponse } from "#contract/members";
import { reportReasons } from "#contract/moderation-reasons";
import { ReportRequest, ReportResponse } from "#contract/staff-moderation";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { requireUser } from "~/utils/session.server";
import { MemberErrorBoundary } from "~/features/members/member-actions";
import type { BlockedByMemberData } from "~/types";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";

/*
 * /members/{id}/report: a member reports a profile, or with ?message={id} one of its messages to
 * them (the chat's Report link). A plain form whose texts are rendered on the server (the moderation namespace
 * never ships to the browser); the api puts the report in the staff's queue (/staff/reports).
 */

type Reason = (typeof reportReasons)[number];

function textsOf(locale: Parameters<typeof fixedT>[0], name: string) {
  const t = fixedT(locale, "moderation");
  return {
    title: t("report.title", { name }),
    titleMessage: t("report.titleMessage", { name }),
    intro: t("report.intro", { name }),
    reason: t("report.reason"),
    choose: t("report.choose"),
    details: t("report.details"),
    detailsHint: t("report.detailsHint"),
    send: t("report.send"),
    sending: t("report.sending"),
    cancel: t("report.cancel"),
    sent: t("report.sent"),
    back: t("report.back", { name }),
    reasons: Object.fromEntries(reportReasons.map((r) => [r, t(`reportReasons.${r}`)])) as Record<Reason, string>,
  };
}

const MessageParam = z.coerce.number().int().min(1).max(2_147_483_647);

/** The reported member (and the reported message, when it is one of theirs to this member), or a 404/403 page. */
async function target(request: Request, context: Parameters<typeof apiFor>[1], params: { id?: string }) {
  await requireUser(request, context);
  const id = BlockQuery.safeParse({ id: params.id });
  if (!id.success) throw data(null, { status: 404 });
  const result = await apiFor(request, context).get("/api/member.php", MemberResponse, { id: id.data.id });
  if (!result.ok) {
    if (result.error.error === "blocked_by_member") {
      const blocked: BlockedByMemberData = { blocked_by_member: { name: String(result.error.params?.name ?? "") } };
      throw data(blocked, { status: 403 });
    }
    throw data(null, { status: result.status === 400 ? 404 : result.status });
  }
  const raw = new URL(request.url).searchParams.get("message");
  const message = raw === null ? null : MessageParam.safeParse(raw);
  if (message && !message.success) throw data(null, { status: 404 });
  return { member: { id: result.data.profile.id, name: result.data.profile.name }, messageId: message?.data ?? null };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const { member, messageId } = await target(request, context, params);
  const texts = textsOf(locale, member.name);
  return { member, messageId, texts, title: fixedT(locale, "moderation")("report.metaTitle", { name: member.name }), description: texts.intro };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const { member, messageId } = await target(request, context, params);
  const t = fixedT(locale, "moderation");
  const form = await request.formData();
  const values = { reason: String(form.get("reason") ?? "").slice(0, 40), details: String(form.get("details") ?? "").slice(0, 5000) };
  const parsed = ReportRequest.safeParse({
    ...(messageId === null ? { profile_id: member.id } : { message_id: messageId }),
    reason: values.reason,
    ...(values.details.trim() ? { details: values.details } : {}),
  });
  if (!parsed.success) {
    const errors: { reason?: string; details?: string } = {};
    for (const issue of parsed.error.issues) {
      if (issue.path[0] === "reason") errors.reason = t("report.errors.reason");
      else if (issue.path[0] === "details") errors.details = t("report.errors.details");
    }
    return data({ sent: false as const, errors, values, message: null }, { status: 400 });
  }
  const result = await apiFor(request, context).post("/api/report.php", ReportResponse, parsed.data);
  if (!result.ok) {
    if (result.error.error === "not_found") throw data(null, { status: 404 });
    const message = result.error.error === "too_many_requests" ? t("report.errors.tooMany") : apiErrorMessage(fixedT(locale), result.error);
    return data({ sent: false as const, errors: {}, values, message }, { status: result.status });
  }
  return { sent: true as const, errors: {}, values, message: null };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [...pageMeta(data, matches), { name: "robots", content: "noindex" }];

const inputClass = "mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 aria-[invalid=true]:border-danger";

export default function ReportMember() {
  const { member, messageId, texts } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const memberPage = `/members/${member.id}`;
  const back = messageId === null ? memberPage : `/members/${member.id}/chat`;
  const errors: { reason?: string; details?: string } = result?.errors ?? {};
  const described = (name: "reason" | "details") => (errors[name] ? { "aria-invalid": true, "aria-describedby": `report-${name}-error` } : {});
  return (
    <section className="container flex justify-center py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100" data-testid="report-page">
        <h1 className="text-2xl font-bold text-gray-900">{messageId === null ? texts.title : texts.titleMessage}</h1>
        {result?.sent ? (
          <>
            <p role="status" className="mt-4 rounded-xl bg-green-50 p-4 text-green-900 ring-1 ring-green-200" data-testid="report-sent">
              {texts.sent}
            </p>
            <p className="mt-4">
              <Link to={back} className="font-semibold text-primary-dark hover:underline">
                {texts.back}
              </Link>
            </p>
          </>
        ) : (
          <>
            <p className="mt-3 text-gray-700">{texts.intro}</p>
            {result?.message ? (
              <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-danger" data-testid="report-error">
                {result.message}
              </p>
            ) : null}
            <Form method="post" className="mt-6 space-y-4" noValidate>
              <label className="block text-sm font-medium text-gray-700">
                {texts.reason}
                <select name="reason" defaultValue={result?.values.reason ?? ""} required className={inputClass} data-testid="report-reason" {...described("reason")}>
                  <option value="">{texts.choose}</option>
                  {reportReasons.map((reason) => (
                    <option key={reason} value={reason}>
                      {texts.reasons[reason]}
                    </option>
                  ))}
                </select>
                {errors.reason ? (
                  <span id="report-reason-error" className="mt-1 block text-sm text-danger">
                    {errors.reason}
                  </span>
                ) : null}
              </label>
              <label className="block text-sm font-medium text-gray-700">
                {texts.details}
                <textarea name="details" rows={4} maxLength={1000} defaultValue={result?.values.details ?? ""} className={inputClass} data-testid="report-details" {...described("details")} />
                <span className="mt-1 block text-xs text-gray-500">{texts.detailsHint}</span>
                {errors.details ? (
                  <span id="report-details-error" className="mt-1 block text-sm text-danger">
                    {errors.details}
                  </span>
                ) : null}
              </label>
              <div className="flex flex-wrap items-center gap-3">
                <Button disabled={busy} variant="danger" size="md" data-testid="report-send">
                  {busy ? texts.sending : texts.send}
                </Button>
                <Link to={back} className="rounded-full px-4 py-2 font-semibold text-gray-700 hover:text-gray-900">
                  {texts.cancel}
                </Link>
              </div>
            </Form>
          </>
        )}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <MemberErrorBoundary />;
}
