import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { emailChangeSchema, passwordChangeSchema } from "~/features/account/account-forms";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, requireUser } from "~/utils/session.server";
import { Notice, NewPasswordFields, useEmptyPasswordsAfterError } from "~/features/account/account-ui";
import { FormAlert, InputField, SubmitButton } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { Panel } from "~/components/ui/panel";
import { pageMeta } from "~/utils/page-title";
import { useFormMountKey } from "~/utils/form-key";
import { formConstraint } from "~/utils/form-constraint";
import { endpoints } from "#contract/endpoints/index";

type Intent = "password" | "email";
type ActionData = { intent: Intent; result: SubmissionResult<string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await requireUser(request, context);
  const settings = await getSettings(request, context);
  const done = new URL(request.url).searchParams.get("done");
  return {
    title: fixedT(locale, "account")("accountSettings.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "account"),
    email: user.email,
    done: done === "password" || done === "email" ? done : null,
    constraints: { password: formConstraint(passwordChangeSchema(fixedT(locale, "account"))), email: formConstraint(emailChangeSchema(fixedT(locale, "account"))) },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const t = fixedT(locale, "account");
  const common = fixedT(locale);
  const formData = await request.formData();
  const api = apiFor(request, context);
  const done = (intent: Intent) => redirect(`/profile/account?done=${intent}`);

  if (formData.get("intent") === "password") {
    const hideFields = ["old_password", "password", "password_repeat"];
    const submission = parseWithZod(formData, { schema: passwordChangeSchema(t) });
    if (submission.status !== "success") return data<ActionData>({ intent: "password", result: submission.reply({ hideFields }) }, { status: 400 });
    const { old_password, password } = submission.value;
    const result = await api.call(endpoints.changePassword, { body: { old_password, password } });
    if (result.ok) throw done("password");
    const reply =
      result.error.error === "old_password_wrong"
        ? submission.reply({ fieldErrors: { old_password: [common("errors.old_password_wrong")] }, hideFields })
        : submission.reply({ formErrors: [apiErrorMessage(common, result.error)], hideFields });
    return data<ActionData>({ intent: "password", result: reply }, { status: result.status });
  }

  if (formData.get("intent") === "email") {
    const hideFields = ["password"];
    const submission = parseWithZod(formData, { schema: emailChangeSchema(t) });
    if (submission.status !== "success") return data<ActionData>({ intent: "email", result: submission.reply({ hideFields }) }, { status: 400 });
    const { email, password } = submission.value;
    const result = await api.call(endpoints.requestMailChange, { body: { email, password } });
    if (result.ok) throw done("email");
    const code = result.error.error;
    const reply =
      code === "email_taken" || code === "password_wrong"
        ? submission.reply({ fieldErrors: { [code === "email_taken" ? "email" : "password"]: [common(`errors.${code}`)] }, hideFields })
        : submission.reply({ formErrors: [apiErrorMessage(common, result.error)], hideFields });
    return data<ActionData>({ intent: "email", result: reply }, { status: result.status });
  }

  throw data(null, { status: 400 });
}

const passwordSchema = () => import("~/features/account/account-forms").then((m) => m.passwordChangeSchema);
const emailSchema = () => import("~/features/account/account-forms").then((m) => m.emailChangeSchema);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function AccountSettings() {
  const { t } = useTranslation("account");
  const { done, email } = useLoaderData<typeof loader>();
  // After each completed change the forms mount again, empty.
  const key = useFormMountKey();
  return (
    <section className="container max-w-2xl py-10">
      <h1 className="text-2xl font-bold text-gray-900">{t("accountSettings.title")}</h1>
      <div className="mt-6 space-y-6">
        <Panel title={t("accountSettings.password.title")} testId="password-change">
          {done === "password" ? <Notice>{t("accountSettings.password.done")}</Notice> : null}
          <PasswordChangeForm key={key} />
        </Panel>
        <Panel title={t("accountSettings.email.title")} testId="email-change">
          {done === "email" ? <Notice>{t("accountSettings.email.done")}</Notice> : null}
          <p className="text-gray-900" data-testid="current-email">
            {t("accountSettings.email.current", { email })}
          </p>
          <p className="text-sm text-gray-600">{t("accountSettings.email.lead")}</p>
          <EmailChangeForm key={key} />
        </Panel>
        <Panel title={t("accountSettings.delete.title")} testId="account-delete">
          <p className="text-sm text-gray-600">{t("accountSettings.delete.lead")}</p>
          <Link to="/profile/delete" className="inline-block font-semibold">
            {t("accountSettings.delete.link")}
          </Link>
        </Panel>
      </div>
    </section>
  );
}


/** This form's last answer from the action; the other form's answers are not its business. */
function useLastResult(intent: Intent) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return {
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    busy: navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formData?.get("intent") === intent,
  };
}

function PasswordChangeForm() {
  const { t } = useTranslation("account");
  const { lastResult, busy } = useLastResult("password");
  const constraint = useLoaderData<typeof loader>().constraints.password;
  const { form, fields, formProps, validation } = useValidatedForm({ id: "password-change-form", schema: passwordSchema, constraint, lastResult, t });
  useEmptyPasswordsAfterError(form.id, lastResult);
  return (
    <Form method="post" className="space-y-4" {...formProps}>
      {validation}
      <input type="hidden" name="intent" value="password" />
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <InputField field={fields.old_password} label={t("fields.oldPassword")} type="password" autoComplete="current-password" />
      <NewPasswordFields password={fields.password} repeat={fields.password_repeat} />
      <SubmitButton busy={busy} busyText={t("accountSettings.saving")}>
        {t("accountSettings.password.submit")}
      </SubmitButton>
    </Form>
  );
}

function EmailChangeForm() {
  const { t } = useTranslation("account");
  const { lastResult, busy } = useLastResult("email");
  const constraint = useLoaderData<typeof loader>().constraints.email;
  const { form, fields, formProps, validation } = useValidatedForm({ id: "email-change-form", schema: emailSchema, constraint, lastResult, t });
  useEmptyPasswordsAfterError(form.id, lastResult);
  return (
    <Form method="post" className="space-y-4" {...formProps}>
      {validation}
      <input type="hidden" name="intent" value="email" />
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <InputField field={fields.email} label={t("fields.newEmail")} type="email" autoComplete="email" />
      <InputField field={fields.password} label={t("fields.currentPassword")} type="password" autoComplete="current-password" />
      <SubmitButton busy={busy} busyText={t("accountSettings.saving")}>
        {t("accountSettings.email.submit")}
      </SubmitButton>
    </Form>
  );
}
