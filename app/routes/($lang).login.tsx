import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useEffect, useRef } from "react";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { UserResponse } from "#contract/user";
import { apiFor } from "~/api.server";
import { apiErrorMessage } from "~/api-errors";
import { fixedT } from "~/i18n.server";
import { urlLocale } from "~/locale.server";
import { localizePath, safeRedirectPath } from "~/paths";
import { getSettings, getUser } from "~/session.server";
import { Notice } from "~/components/account-ui";
import { useHref } from "~/components/root-data";
import { useValidatedForm } from "~/components/validated-form";
import { pageTitle } from "~/page-title";

export function loginSchema(t: TFunction) {
  return z.object({
    email: z.email({ error: (issue) => (issue.input === undefined ? t("login.emailRequired") : t("login.emailInvalid")) }).max(254),
    password: z.string({ error: t("login.passwordRequired") }).max(200),
    redirectTo: z.string().optional(),
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await getUser(request, context);
  if (user) throw redirect(localizePath(locale, "/members"));
  const settings = await getSettings(request, context);
  return { title: fixedT(locale)("login.metaTitle", { site: settings.name }) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const t = fixedT(locale);
  const submission = parseWithZod(await request.formData(), { schema: loginSchema(t) });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  const { email, password, redirectTo } = submission.value;
  const result = await apiFor(request, context).post("/api/user.php", UserResponse, { email, password });
  if (!result.ok) {
    return data(submission.reply({ formErrors: [apiErrorMessage(t, result.error)], hideFields: ["password"] }), { status: result.status });
  }
  throw redirect(safeRedirectPath(redirectTo, localizePath(locale, "/members")));
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [{ title: pageTitle(data?.title, matches) }];

export default function Login() {
  const { t } = useTranslation();
  const href = useHref();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const schema = loginSchema(t);
  const [form, fields] = useValidatedForm("login", schema, lastResult);
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
        <Form method="post" className="mt-6 space-y-4" {...getFormProps(form)}>
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
          {searchParams.get("reset") === "done" && !form.errors ? <Notice testId="password-reset-done">{t("account:login.passwordChanged")}</Notice> : null}
          {form.errors ? (
            <div id={form.errorId} role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-danger" data-testid="form-error">
              {form.errors.join(" ")}
            </div>
          ) : null}
          <div>
            <label htmlFor={fields.email.id} className="block text-sm font-medium text-gray-700">
              {t("login.email")}
            </label>
            <input
              {...getInputProps(fields.email, { type: "email" })}
              autoComplete="email"
              className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 aria-[invalid]:border-danger"
            />
            {fields.email.errors ? (
              <p id={fields.email.errorId} className="mt-1 text-sm text-danger">
                {fields.email.errors.join(" ")}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor={fields.password.id} className="block text-sm font-medium text-gray-700">
              {t("login.password")}
            </label>
            <input
              {...getInputProps(fields.password, { type: "password" })}
              ref={passwordRef}
              autoComplete="current-password"
              className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 aria-[invalid]:border-danger"
            />
            {fields.password.errors ? (
              <p id={fields.password.errorId} className="mt-1 text-sm text-danger">
                {fields.password.errors.join(" ")}
              </p>
            ) : null}
            <Link to={href("/reset-password")} className="mt-1 inline-block text-sm">
              {t("account:login.forgotPassword")}
            </Link>
          </div>
          <button type="submit" disabled={busy} className="w-full rounded-full bg-primary px-4 py-2.5 font-semibold text-white hover:bg-primary-dark disabled:opacity-60">
            {busy ? t("login.submitting") : t("login.submit")}
          </button>
        </Form>
      </div>
    </section>
  );
}
