import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { passwordResetSchema, plausibleToken } from "~/features/account/account-forms";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { AccessCard, NewPasswordFields, useEmptyPasswordsAfterError } from "~/features/account/account-ui";
import { FormAlert, SubmitButton } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { pageMeta } from "~/utils/page-title";
import { formConstraint } from "~/utils/form-constraint";
import { endpoints } from "#contract/endpoints/index";

/** docs/product.md §2: the site-entry warning is not shown on the password reset pages. */
export const handle = { hideEntryWarning: true };

type ActionData = { result: SubmissionResult<string[]>; linkInvalid: boolean };
const hideFields = ["password", "password_repeat"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const settings = await getSettings(request, context);
  const token = new URL(request.url).searchParams.get("token");
  return {
    title: fixedT(locale, "account")("resetPasswordDo.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "resetPasswordDo"),
    token: plausibleToken(token) ? token : null,
    constraint: formConstraint(passwordResetSchema(fixedT(locale, "account"))),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const submission = parseWithZod(await request.formData(), { schema: passwordResetSchema(fixedT(locale, "account")) });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply({ hideFields }), linkInvalid: false }, { status: 400 });
  const token = submission.value.token || new URL(request.url).searchParams.get("token");
  if (!plausibleToken(token)) return data<ActionData>({ result: submission.reply({ hideFields }), linkInvalid: true }, { status: 400 });
  const result = await apiFor(request, context).call(endpoints.resetPassword, { body: { token, password: submission.value.password } });
  if (!result.ok) {
    const reply = submission.reply({ formErrors: [apiErrorMessage(fixedT(locale), result.error)], hideFields });
    return data<ActionData>({ result: reply, linkInvalid: result.error.error === "link_invalid" }, { status: result.status });
  }
  // Every session of the member ended with the reset: the login page says the new password works.
  throw redirect(`/login?reset=done`);
}

const schema = () => import("~/features/account/account-forms").then((m) => m.passwordResetSchema);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function ResetPasswordDo() {
  const { t } = useTranslation("account");
  const { token, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { form, fields, formProps, validation } = useValidatedForm({ id: "password-reset", schema, constraint, lastResult: actionData?.result, t });
  useEmptyPasswordsAfterError(form.id, actionData?.result);
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";

  if (!token || actionData?.linkInvalid) {
    return (
      <AccessCard title={t("resetPasswordDo.title")}>
        <div className="mt-4 space-y-4">
          <FormAlert>{t("common:errors.link_invalid")}</FormAlert>
          <Link to="/reset-password" className="inline-block font-semibold" data-testid="request-new-link">
            {t("resetPasswordDo.requestNew")}
          </Link>
        </div>
      </AccessCard>
    );
  }

  return (
    <AccessCard title={t("resetPasswordDo.title")}>
      <Form method="post" className="mt-6 space-y-4" {...formProps}>
        {validation}
        <input type="hidden" name="token" value={token} />
        {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
        <NewPasswordFields password={fields.password} repeat={fields.password_repeat} />
        <SubmitButton busy={busy} busyText={t("resetPasswordDo.submitting")}>
          {t("resetPasswordDo.submit")}
        </SubmitButton>
      </Form>
    </AccessCard>
  );
}
