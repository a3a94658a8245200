import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ComplaintRequest } from "#contract/complaints";
import { complaintReasons } from "#contract/complaint-reasons";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getUser } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";

/**
 * /complaints (the footer's Complaints): anyone reports content; the api stores it, mails it to
 * the site's support address and answers a reference number, shown here (?ref=). A plain form: it works
 * without JavaScript. Its texts are rendered on the server (the complaints namespace never ships to the browser).
 */
const fields = ["name", "email", "content_url", "reason", "message"] as const;
type Field = (typeof fields)[number];

function textsOf(locale: Parameters<typeof fixedT>[0]) {
  const t = fixedT(locale, "complaints");
  return {
    title: t("title"),
    intro: t("intro"),
    urgent: t("urgent"),
    labels: Object.fromEntries(fields.map((f) => [f, t(`fields.${f}`)])) as Record<Field, string>,
    hints: { content_url: t("hints.content_url") },
    choose: t("choose"),
    reasons: Object.fromEntries(complaintReasons.map((r) => [r, t(`reasons.${r}`)])) as Record<(typeof complaintReasons)[number], string>,
    send: t("send"),
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await getUser(request, context);
  const ref = new URL(request.url).searchParams.get("ref");
  const texts = textsOf(locale);
  const reference = ref && /^C-[2-9A-HJ-NP-Z]{8}$/.test(ref) ? ref : null;
  return {
    texts,
    sent: reference ? fixedT(locale, "complaints")("sent", { reference }) : null,
    member: user ? { name: user.profile.name, email: user.email } : null,
    title: texts.title,
    description: metaDescription(locale, "complaints"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const t = fixedT(locale, "complaints");
  const form = await request.formData();
  const values = Object.fromEntries(fields.map((f) => [f, String(form.get(f) ?? "").slice(0, 5000)])) as Record<Field, string>;
  const parsed = ComplaintRequest.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<Field, string>> = {};
    for (const issue of parsed.error.issues) {
      const name = issue.path[0] as Field;
      if (fields.includes(name) && !errors[name]) errors[name] = t(`errors.${name}`);
    }
    return data({ message: t("errors.check"), errors, values }, { status: 400 });
  }
  const sent = await apiFor(request, context).call(endpoints.sendComplaint, { body: parsed.data });
  if (!sent.ok) return data({ message: apiErrorMessage(fixedT(locale), sent.error), errors: {} as Partial<Record<Field, string>>, values }, { status: sent.status });
  return redirect(`/complaints?ref=${encodeURIComponent(sent.data.reference)}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

const inputClass = "mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 aria-[invalid=true]:border-danger";

export default function Complaints() {
  const { texts, sent, member } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const value = (name: Field) => failed?.values[name] ?? (name === "name" ? member?.name : name === "email" ? member?.email : "") ?? "";
  const error = (name: Field) =>
    failed?.errors[name] ? (
      <span id={`${name}-error`} className="mt-1 block text-sm text-danger" data-testid={`complaint-${name}-error`}>
        {failed.errors[name]}
      </span>
    ) : null;
  const described = (name: Field) => (failed?.errors[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {});
  return (
    <section className="container max-w-2xl py-8" data-testid="complaints-page">
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      {sent ? (
        <div className="mt-4">
          <Notice testId="complaint-sent">{sent}</Notice>
        </div>
      ) : null}
      <p className="mt-2 text-gray-700">{texts.intro}</p>
      <p className="mt-2 text-sm text-gray-600">{texts.urgent}</p>
      {failed?.message ? (
        <div className="mt-4">
          <FormAlert testId="complaint-error">{failed.message}</FormAlert>
        </div>
      ) : null}
      <Form method="post" className="mt-6 space-y-4" noValidate>
        {(["name", "email", "content_url"] as const).map((name) => (
          <label key={name} className="block text-sm font-medium text-gray-700">
            {texts.labels[name]}
            <input
              name={name}
              type={name === "email" ? "email" : name === "content_url" ? "url" : "text"}
              defaultValue={value(name)}
              required
              maxLength={name === "content_url" ? 500 : 254}
              className={inputClass}
              data-testid={`complaint-${name}`}
              {...described(name)}
            />
            {name === "content_url" ? <span className="mt-1 block text-xs text-gray-500">{texts.hints.content_url}</span> : null}
            {error(name)}
          </label>
        ))}
        <label className="block text-sm font-medium text-gray-700">
          {texts.labels.reason}
          <select name="reason" defaultValue={value("reason")} required className={inputClass} data-testid="complaint-reason" {...described("reason")}>
            <option value="">{texts.choose}</option>
            {complaintReasons.map((reason) => (
              <option key={reason} value={reason}>
                {texts.reasons[reason]}
              </option>
            ))}
          </select>
          {error("reason")}
        </label>
        <label className="block text-sm font-medium text-gray-700">
          {texts.labels.message}
          <textarea name="message" rows={6} defaultValue={value("message")} required maxLength={5000} className={inputClass} data-testid="complaint-message" {...described("message")} />
          {error("message")}
        </label>
        <Button disabled={busy} data-testid="complaint-send">
          {texts.send}
        </Button>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
