import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import { StaffResponse } from "#contract/staff";
import { apiFor } from "~/utils/api.server";
import { formConstraint } from "~/utils/form-constraint";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { staffLoginSchema } from "~/features/staff/staff-forms";
import { FormAlert, InputField, SubmitButton } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { useEmptyPasswordsAfterError } from "~/features/account/account-ui";

export const handle = { layout: "staff", hideEntryWarning: true };

/** Staff log in with their password and the code of their authenticator app (or a recovery code). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const texts = staffTexts();
  // Logged in already: on to the dashboard.
  const me = await apiFor(request, context).get("/api/staff/me.php", StaffResponse, undefined, { sessionOptional: true });
  if (me.ok) throw redirect("/staff");
  return { title: texts.login.metaTitle, description: texts.login.metaDescription, texts: { brand: texts.brand, login: texts.login }, constraint: formConstraint(staffLoginSchema(texts.login)) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const texts = staffTexts().login;
  const submission = parseWithZod(await request.formData(), { schema: staffLoginSchema(texts) });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password", "code"] }), { status: 400 });
  const result = await apiFor(request, context).post("/api/staff/login.php", StaffResponse, submission.value);
  // After a recovery code, the dashboard says how many are left.
  if (result.ok) throw redirect(typeof result.data.recovery_codes_left === "number" ? `/staff?recovery_left=${result.data.recovery_codes_left}` : "/staff");
  const message =
    result.error.error === "login_blocked"
      ? texts.blocked.replace("{{minutes}}", String(result.error.params?.minutes ?? 15))
      : result.error.error === "too_many_requests"
        ? texts.tooMany
        : result.error.error === "validation_failed"
          ? texts.codeInvalid
          : texts.failed;
  return data(submission.reply({ formErrors: [message], hideFields: ["password", "code"] }), { status: result.status });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffLogin() {
  const { texts, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const schema = useMemo(() => () => import("~/features/staff/staff-forms").then((m) => () => m.staffLoginSchema(texts.login)), [texts]);
  const { form, fields, formProps, validation } = useValidatedForm({ id: "staff-login", schema, constraint, lastResult });
  // After a refused login the password and the code are empty again, as after a full page load (hideFields).
  useEmptyPasswordsAfterError(form.id, lastResult, ["code"]);
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-gray-50 px-4 py-12">
      <div className="w-full max-w-sm rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200">
        <p className="text-sm font-semibold text-gray-700">{texts.brand}</p>
        <h1 className="mt-1 text-2xl font-bold text-gray-900">{texts.login.title}</h1>
        <p className="mt-1 text-sm text-gray-600">{texts.login.lead}</p>
        <Form method="post" className="mt-6 space-y-4" {...formProps}>
          {validation}
          {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
          <InputField field={fields.email} label={texts.login.email} type="email" autoComplete="username" />
          <InputField field={fields.password} label={texts.login.password} type="password" autoComplete="current-password" />
          <InputField field={fields.code} label={texts.login.code} type="text" autoComplete="one-time-code" hint={<p className="mt-1 text-xs text-gray-600">{texts.login.codeHint}</p>} />
          <SubmitButton busy={busy} busyText={texts.login.submitting}>
            {texts.login.submit}
          </SubmitButton>
        </Form>
      </div>
    </main>
  );
}
