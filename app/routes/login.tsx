import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useEffect, useRef } from "react";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { loginSchema } from "~/features/account/login-form";
import { safeRedirectPath } from "~/utils/paths";
import { getSettings, getUser } from "~/utils/session.server";
import { Notice } from "~/components/ui/notice";
import { pageMeta } from "~/utils/page-title";
import { FormAlert, InputField, SubmitButton } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { formConstraint } from "~/utils/form-constraint";
import { endpoints } from "#contract/endpoints/index";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await getUser(request, context);
  if (user) throw redirect("/members");
  const settings = await getSettings(request, context);
  return {
    title: fixedT(locale)("login.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "login", { site: settings.name }),
    constraint: formConstraint(loginSchema(fixedT(locale))),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const t = fixedT(locale);
  const submission = parseWithZod(await request.formData(), { schema: loginSchema(t) });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  const { email, password, redirectTo } = submission.value;
  const result = await apiFor(request, context).call(endpoints.login, { body: { email, password } });
  if (!result.ok) {
    // docs/staff.md: a suspended or banned member is shown /pages/ban with the reason and the end date.
    if (result.error.error === "account_suspended") {
      const params = new URLSearchParams({ reason: String(result.error.params?.reason ?? "other"), until: String(result.error.params?.until ?? "") });
      throw redirect(`/pages/ban?${params}`);
    }
    return data(submission.reply({ formErrors: [apiErrorMessage(t, result.error)], hideFields: ["password"] }), { status: result.status });
  }
  throw redirect(safeRedirectPath(redirectTo, "/members"));
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

const schema = () => import("~/features/account/login-form").then((m) => m.loginSchema);

export default function Login() {
  const { t } = useTranslation();
  const { constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const { form, fields, formProps, validation } = useValidatedForm({ id: "login", schema, constraint, lastResult, t });
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // hideFields empties the password on a full page load; after a client-side submit, empty it here
  // (in the DOM only: a conform update would revalidate and drop the server's error).
  const passwordRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (lastResult?.status === "error" && passwordRef.current) passwordRef.current.value = "";
  }, [lastResult]);
  return (
    <section className="container flex justify-center py-12">
      <div className="w-full max-w-sm rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100">
        <h1 className="text-2xl font-bold text-gray-900">{t("login.title")}</h1>
        <Form method="post" className="mt-6 space-y-4" {...formProps}>
          {validation}
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
          {searchParams.get("reset") === "done" && !form.errors ? <Notice testId="password-reset-done">{t("account:login.passwordChanged")}</Notice> : null}
          {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
          <InputField field={fields.email} label={t("login.email")} type="email" autoComplete="email" />
          <InputField
            field={fields.password}
            label={t("login.password")}
            type="password"
            autoComplete="current-password"
            inputRef={passwordRef}
            hint={
              <Link to="/reset-password" className="mt-1 inline-block text-sm">
                {t("account:login.forgotPassword")}
              </Link>
            }
          />
          <SubmitButton busy={busy} busyText={t("login.submitting")}>
            {t("login.submit")}
          </SubmitButton>
        </Form>
      </div>
    </section>
  );
}
