import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import { apiFor } from "~/utils/api.server";
import { formConstraint } from "~/utils/form-constraint";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffPasswordSchema } from "~/features/staff/setup-forms";
import { FormAlert, InputField, SubmitButton } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { useValidatedForm } from "~/components/ui/validated-form";
import { useEmptyPasswordsAfterError } from "~/features/account/account-ui";
import { endpoints } from "#contract/endpoints/index";

/** A staff member changes their password; every other session of the account ends, this one goes on. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().password;
  return { title: texts.metaTitle, description: texts.lead, texts, constraint: formConstraint(staffPasswordSchema(texts)) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Asked before the change ends this session: the frame's and the page's loaders after this action (a form posted
  // without JavaScript) reuse the answer instead of asking again with the old cookie (the api sets the new one).
  await requireStaff(request, context);
  const texts = staffTexts().password;
  const submission = parseWithZod(await request.formData(), { schema: staffPasswordSchema(texts) });
  const hidden = { hideFields: ["current_password", "password", "password_repeat"] };
  if (submission.status !== "success") return data({ reply: submission.reply(hidden), done: false }, { status: 400 });
  const { current_password, password } = submission.value;
  const result = await apiFor(request, context).call(endpoints.changeStaffPassword, { body: { current_password, password } });
  if (result.ok) return { reply: submission.reply({ resetForm: true }), done: true };
  const error = result.error;
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  if (error.error === "old_password_wrong") fieldErrors.current_password = [texts.currentWrong];
  // The form already refuses a new password equal to the current one: what the api still refuses is a character.
  else if (error.error === "validation_failed" && error.fields?.password) fieldErrors.password = [texts.passwordInvalid];
  else if (error.error === "too_many_requests") formErrors.push(texts.tooMany);
  else throw new Response(null, { status: result.status });
  return data({ reply: submission.reply({ ...hidden, fieldErrors, formErrors }), done: false }, { status: result.status });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffPassword() {
  const { texts, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.reply;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const schema = useMemo(() => () => import("~/features/staff/setup-forms").then((m) => () => m.staffPasswordSchema(texts)), [texts]);
  const { form, fields, formProps, validation } = useValidatedForm({ id: "staff-password", schema, constraint, lastResult });
  useEmptyPasswordsAfterError(form.id, lastResult);
  return (
    <div className="max-w-md">
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 text-sm text-gray-600">{texts.lead}</p>
      {actionData?.done ? (
        <>
          <div className="mt-6">
            <Notice testId="staff-password-done">{texts.done}</Notice>
          </div>
          <p className="mt-4">
            <Link to="/staff" className="font-medium text-primary underline">
              {texts.back}
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" className="mt-6 space-y-4 rounded-xl bg-white p-6 ring-1 ring-gray-200" {...formProps}>
          {validation}
          {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
          <InputField field={fields.current_password} label={texts.current} type="password" autoComplete="current-password" />
          <InputField
            field={fields.password}
            label={texts.password}
            type="password"
            autoComplete="new-password"
            hint={<p className="mt-1 text-xs text-gray-600">{texts.passwordHint}</p>}
          />
          <InputField field={fields.password_repeat} label={texts.repeat} type="password" autoComplete="new-password" />
          <SubmitButton busy={busy} busyText={texts.submitting}>
            {texts.submit}
          </SubmitButton>
        </Form>
      )}
    </div>
  );
}
