import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { deleteAccountSchema } from "~/features/account/account-forms";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, requireUser } from "~/utils/session.server";
import { useEmptyPasswordsAfterError } from "~/features/account/account-ui";
import { FormAlert, InputField, SubmitButton, TextareaField } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { pageMeta } from "~/utils/page-title";
import { formConstraint } from "~/utils/form-constraint";
import { endpoints } from "#contract/endpoints/index";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const settings = await getSettings(request, context);
  return {
    title: fixedT(locale, "account")("deleteAccount.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "deleteAccount"),
    deleteDiscount: settings.delete_discount,
    constraint: formConstraint(deleteAccountSchema(fixedT(locale, "account"))),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const common = fixedT(locale);
  const submission = parseWithZod(await request.formData(), { schema: deleteAccountSchema(fixedT(locale, "account")) });
  const hideFields = ["password"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const { password, reason } = submission.value;
  // The api ends the session (its Set-Cookie is passed on) and mails the reactivation link.
  const result = await apiFor(request, context).call(endpoints.deleteAccount, { body: { password, reason: reason || undefined } });
  if (result.ok) throw redirect("/account-deleted");
  const reply =
    result.error.error === "password_wrong"
      ? submission.reply({ fieldErrors: { password: [common("errors.password_wrong")] }, hideFields })
      : submission.reply({ formErrors: [apiErrorMessage(common, result.error)], hideFields });
  return data(reply, { status: result.status });
}

const schema = () => import("~/features/account/account-forms").then((m) => m.deleteAccountSchema);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

/** docs/product.md §2 "Account-deletion flow with alternatives": first what could be done instead, then the form. */
export default function DeleteAccount() {
  const { t } = useTranslation("account");
  const { deleteDiscount, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { form, fields, formProps, validation } = useValidatedForm({ id: "delete-account", schema, constraint, lastResult, t });
  useEmptyPasswordsAfterError(form.id, lastResult);
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <section className="container max-w-2xl py-10">
      <h1 className="text-2xl font-bold text-gray-900">{t("deleteAccount.title")}</h1>
      <h2 className="mt-6 text-lg font-semibold text-gray-900">{t("deleteAccount.alternativesTitle")}</h2>
      <p className="mt-1 text-gray-600">{t("deleteAccount.alternativesLead")}</p>
      <ul className="mt-4 space-y-3" data-testid="deletion-alternatives">
        {deleteDiscount ? (
          <Alternative title={t("deleteAccount.discount.title", { percent: deleteDiscount })} to="/credits" linkText={t("deleteAccount.discount.link")} testId="alternative-discount" highlight>
            {t("deleteAccount.discount.body")}
          </Alternative>
        ) : null}
        <Alternative title={t("deleteAccount.pauseNotifications.title")} to="/notifications" linkText={t("deleteAccount.pauseNotifications.link")} testId="alternative-notifications">
          {t("deleteAccount.pauseNotifications.body")}
        </Alternative>
        <Alternative title={t("deleteAccount.invisible.title")} to="/profile" linkText={t("deleteAccount.invisible.link")} testId="alternative-invisible">
          {t("deleteAccount.invisible.body")}
        </Alternative>
      </ul>

      <div className="mt-10 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100">
        <h2 className="text-lg font-semibold text-gray-900">{t("deleteAccount.formTitle")}</h2>
        <p className="mt-1 text-sm text-gray-600">{t("deleteAccount.formLead")}</p>
        <Form method="post" className="mt-4 space-y-4" {...formProps}>
          {validation}
          {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
          <InputField field={fields.password} label={t("fields.currentPassword")} type="password" autoComplete="current-password" />
          <TextareaField field={fields.reason} label={t("deleteAccount.reason")} rows={3} />
          <SubmitButton busy={busy} busyText={t("deleteAccount.submitting")}>
            {t("deleteAccount.submit")}
          </SubmitButton>
        </Form>
        <p className="mt-4 text-center text-sm">
          <Link to="/profile/account" className="font-semibold">
            {t("deleteAccount.keep")}
          </Link>
        </p>
      </div>
    </section>
  );
}

function Alternative({ title, to, linkText, testId, highlight = false, children }: { title: string; to: string; linkText: string; testId: string; highlight?: boolean; children: ReactNode }) {
  return (
    <li className={`rounded-xl p-4 ring-1 ${highlight ? "bg-primary-light ring-primary/30" : "bg-white ring-gray-100"}`} data-testid={testId}>
      <p className="font-semibold text-gray-900">{title}</p>
      <p className="mt-1 text-sm text-gray-600">{children}</p>
      <Link to={to} className="mt-2 inline-block font-semibold">
        {linkText}
      </Link>
    </li>
  );
}
