import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { UserResponse } from "#contract/user";
import { apiFor } from "~/api.server";
import { apiErrorMessage } from "~/api-errors";
import { fixedT } from "~/i18n.server";
import { urlLocale } from "~/locale.server";
import { getSettings } from "~/session.server";
import { signupSchema } from "~/signup";
import { nextSignupPath } from "~/signup-steps";
import { keptTracking } from "~/tracking.server";
import type { SignupActionData } from "~/types";

/**
 * Step 0 of the signup (docs/product.md §2) for every page with the signup form: /signup and the funnels (issue 17).
 * The account is created with the kept tracking values; then the member goes to `next` (a local path the
 * page chose, e.g. the funnel member's chat) or, by default, the next signup step. Errors come back as
 * SignupActionData for the form, with the status the api gave.
 */
export async function signupAction({ request, context }: ActionFunctionArgs, options: { next?: string } = {}) {
  const locale = urlLocale(request);
  const t = fixedT(locale);
  const settings = await getSettings(request, context);
  const schema = signupSchema(t, { minAge: settings.min_age, askMessage: settings.ask_signup_message });
  const formData = await request.formData();
  // "Yes, use <suggestion>" without JavaScript: the suggested address replaces the typed one.
  const suggested = formData.get("email_suggestion");
  if (typeof suggested === "string" && suggested) formData.set("email", suggested);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return data<SignupActionData>({ result: submission.reply({ hideFields: ["password"] }), problem: null }, { status: 400 });
  }
  const { keep_email: _keep, invitation, ...values } = submission.value;
  const result = await apiFor(request, context).post("/api/signup.php", UserResponse, {
    ...values,
    language: locale,
    tracking: keptTracking(request) ?? undefined,
    invitation: invitation || undefined,
  });
  if (result.ok) throw redirect(options.next ?? nextSignupPath(0, settings));

  const { error } = result;
  if (error.error === "invalid_date_of_birth") {
    return data<SignupActionData>({ result: submission.reply({ fieldErrors: { date_of_birth: [t("errors.invalid_date_of_birth")] }, hideFields: ["password"] }), problem: null }, { status: 400 });
  }
  if (error.error === "validation_failed" && error.fields) {
    return data<SignupActionData>({ result: submission.reply({ fieldErrors: error.fields, hideFields: ["password"] }), problem: null }, { status: 400 });
  }
  const problem = error.error === "account_exists" || error.error === "account_pending_deletion" ? error.error : null;
  return data<SignupActionData>({ result: submission.reply({ formErrors: [apiErrorMessage(t, error)], hideFields: ["password"] }), problem }, { status: result.status });
}
