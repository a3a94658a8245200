import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { UserResponse } from "#contract/user";
import { apiFor } from "~/api.server";
import { apiErrorMessage } from "~/api-errors";
import { fixedT, metaDescription } from "~/i18n.server";
import { urlLocale } from "~/locale.server";
import { loginSchema } from "~/login-form";
import { safeRedirectPath } from "~/paths";
import { getSettings, getUser } from "~/session.server";
import { Notice } from "~/components/notice";
import type { LoginFieldName, LoginFormView } from "~/components/login-validation";
import { pageMeta } from "~/page-title";
import { Button } from "~/components/ui/button";

// conform and zod (~40 KB gzip) load on the form's first focus; until then the page shows the action's reply.
const LoginValidation = lazy(() => import("~/components/login-validation").then((module) => ({ default: module.LoginValidation })));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await getUser(request, context);
  if (user) throw redirect("/members");
  const settings = await getSettings(request, context);
  return { title: fixedT(locale)("login.metaTitle", { site: settings.name }), description: metaDescription(locale, "login", { site: settings.name }) };
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
  throw redirect(safeRedirectPath(redirectTo, "/members"));
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

/**
 * The form as conform renders it from the action's reply alone (ids, `required` from the schema, aria attributes,
 * the kept e-mail): what the server sends and what the browser shows until conform has loaded.
 */
function replyView(lastResult: SubmissionResult<string[]> | undefined): LoginFormView {
  const error = lastResult?.error ?? {};
  const formErrors = error[""] ?? undefined;
  const field = (name: LoginFieldName) => {
    const errors = error[name] ?? undefined;
    const initial = lastResult?.initialValue?.[name];
    const props = {
      required: true,
      id: `login-${name}`,
      name,
      form: "login",
      "aria-invalid": errors ? true : undefined,
      "aria-describedby": errors ? `login-${name}-error` : undefined,
      type: name,
      defaultValue: typeof initial === "string" ? initial : undefined,
    };
    return { props, errors };
  };
  return {
    form: { id: "login", noValidate: true, "aria-describedby": formErrors ? "login-error" : undefined },
    formErrors,
    fields: { email: field("email"), password: field("password") },
  };
}

const sameView = (a: LoginFormView | null, b: LoginFormView) => a !== null && JSON.stringify(a) === JSON.stringify(b);

export default function Login() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const [validation, setValidation] = useState<"idle" | "wanted">("idle");
  const [conformView, setConformView] = useState<LoginFormView | null>(null);
  const conformSubmit = useRef<((event: FormEvent<HTMLFormElement>) => void) | null>(null);
  const blurred = useRef<LoginFieldName[]>([]);
  const onView = useCallback((view: LoginFormView, onSubmit: (event: FormEvent<HTMLFormElement>) => void) => {
    conformSubmit.current = onSubmit;
    setConformView((current) => (sameView(current, view) ? current : view));
  }, []);
  const { form, formErrors, fields } = conformView ?? replyView(lastResult);
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
        <Form
          method="post"
          className="mt-6 space-y-4"
          {...form}
          // Before conform has loaded, a submit goes to the action, which answers with the same texts.
          onSubmit={(event) => conformSubmit.current?.(event)}
          onFocus={() => setValidation("wanted")}
          onBlur={(event) => {
            const name = event.target.getAttribute("name");
            if (!conformView && (name === "email" || name === "password") && !blurred.current.includes(name)) blurred.current.push(name);
          }}
        >
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
          {searchParams.get("reset") === "done" && !formErrors ? <Notice testId="password-reset-done">{t("account:login.passwordChanged")}</Notice> : null}
          {formErrors ? (
            <div id="login-error" role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-danger" data-testid="form-error">
              {formErrors.join(" ")}
            </div>
          ) : null}
          <div>
            <label htmlFor={fields.email.props.id} className="block text-sm font-medium text-gray-700">
              {t("login.email")}
            </label>
            <input
              {...fields.email.props}
              autoComplete="email"
              className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 aria-[invalid]:border-danger"
            />
            {fields.email.errors ? (
              <p id="login-email-error" className="mt-1 text-sm text-danger">
                {fields.email.errors.join(" ")}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor={fields.password.props.id} className="block text-sm font-medium text-gray-700">
              {t("login.password")}
            </label>
            <input
              {...fields.password.props}
              ref={passwordRef}
              autoComplete="current-password"
              className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 aria-[invalid]:border-danger"
            />
            {fields.password.errors ? (
              <p id="login-password-error" className="mt-1 text-sm text-danger">
                {fields.password.errors.join(" ")}
              </p>
            ) : null}
            <Link to="/reset-password" className="mt-1 inline-block text-sm">
              {t("account:login.forgotPassword")}
            </Link>
          </div>
          <Button disabled={busy} block>
            {busy ? t("login.submitting") : t("login.submit")}
          </Button>
        </Form>
        {validation === "wanted" ? (
          <Suspense fallback={null}>
            <LoginValidation lastResult={lastResult} blurred={blurred} onView={onView} />
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}
