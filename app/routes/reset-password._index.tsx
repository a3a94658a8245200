import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { passwordResetRequestSchema } from "~/features/account/account-forms";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { AccessCard, Notice } from "~/features/account/account-ui";
import { FormAlert, InputField, SubmitButton } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { pageMeta } from "~/utils/page-title";
import { formConstraint } from "~/utils/form-constraint";
import { endpoints } from "#contract/endpoints/index";

/** docs/product.md §2: the site-entry warning is not shown on the password reset pages. */
export const handle = { hideEntryWarning: true };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const settings = await getSettings(request, context);
  return {
    title: fixedT(locale, "account")("resetPassword.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "resetPassword"),
    sent: new URL(request.url).searchParams.get("sent") === "1",
    constraint: formConstraint(passwordResetRequestSchema(fixedT(locale, "account"))),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const submission = parseWithZod(await request.formData(), { schema: passwordResetRequestSchema(fixedT(locale, "account")) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await apiFor(request, context).call(endpoints.requestPasswordReset, { body: submission.value });
  if (!result.ok) {
    // email_not_found, too_many_reset_mails: the texts of docs/product.md §8 (errors.* in common).
    return data(submission.reply({ formErrors: [apiErrorMessage(fixedT(locale), result.error)] }), { status: result.status });
  }
  // Redirect, so a reload does not send another mail.
  throw redirect(`/reset-password?sent=1`);
}

const schema = () => import("~/features/account/account-forms").then((m) => m.passwordResetRequestSchema);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function ResetPassword() {
  const { t } = useTranslation("account");
  const { sent, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { form, fields, formProps, validation } = useValidatedForm({ id: "password-reset-request", schema, constraint, lastResult, t });
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";

  if (sent) {
    return (
      <AccessCard title={t("resetPassword.sentTitle")}>
        <div className="mt-4 space-y-4">
          <Notice testId="reset-mail-sent">{t("resetPassword.sent")}</Notice>
          <p className="text-sm text-gray-600">
            {t("resetPassword.notReceived")}{" "}
            <Link to="/reset-password" className="font-semibold">
              {t("resetPassword.sendAgain")}
            </Link>
          </p>
          <Link to="/login" className="inline-block font-semibold">
            {t("resetPassword.backToLogin")}
          </Link>
        </div>
      </AccessCard>
    );
  }

  return (
    <AccessCard title={t("resetPassword.title")}>
      <p className="mt-1 text-gray-600">{t("resetPassword.lead")}</p>
      <Form method="post" className="mt-6 space-y-4" {...formProps}>
        {validation}
        {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
        <InputField field={fields.email} label={t("fields.email")} type="email" autoComplete="email" />
        <SubmitButton busy={busy} busyText={t("resetPassword.submitting")}>
          {t("resetPassword.submit")}
        </SubmitButton>
        <p className="text-center text-sm">
          <Link to="/login" className="font-semibold">
            {t("resetPassword.backToLogin")}
          </Link>
        </p>
      </Form>
    </AccessCard>
  );
}
