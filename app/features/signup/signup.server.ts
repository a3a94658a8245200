import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { UserResponse } from "#contract/user";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { signupSchema } from "~/features/signup/signup";
import { suggestEmail } from "~/features/signup/email-suggestion";
import { formConstraint } from "~/utils/form-constraint";
import type { Constraint } from "~/components/ui/form-view";
import type { Settings } from "#contract/settings";
import { nextSignupPath } from "~/features/signup/signup-steps";
import { keptLander, keptTracking } from "~/features/landers/tracking.server";
import type { SignupActionData } from "~/types";

/**
 * Step 0 of the signup (docs/product.md §2) for every page with the signup form: /signup and the funnels.
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
  // The page shows the suggestion for the address it gets back (the browser checks it again as the visitor types).
  const email = formData.get("email");
  const suggestion = formData.get("keep_email") || typeof email !== "string" ? null : suggestEmail(email);
  const answer = (result: SignupActionData["result"], problem: SignupActionData["problem"], status: number) => data<SignupActionData>({ result, problem, suggestion }, { status });
  if (submission.status !== "success") return answer(submission.reply({ hideFields: ["password"] }), null, 400);
  const { keep_email: _keep, invitation, ...values } = submission.value;
  const result = await apiFor(request, context).post("/api/signup.php", UserResponse, {
    ...values,
    language: locale,
    tracking: keptTracking(request) ?? undefined,
    lander: keptLander(request) ?? undefined,
    invitation: invitation || undefined,
  });
  if (result.ok) throw redirect(options.next ?? nextSignupPath(0, settings));

  const { error } = result;
  if (error.error === "invalid_date_of_birth") {
    return answer(submission.reply({ fieldErrors: { date_of_birth: [t("errors.invalid_date_of_birth")] }, hideFields: ["password"] }), null, 400);
  }
  if (error.error === "validation_failed" && error.fields) {
    return answer(submission.reply({ fieldErrors: error.fields, hideFields: ["password"] }), null, 400);
  }
  const problem = error.error === "account_exists" || error.error === "account_pending_deletion" ? error.error : null;
  return answer(submission.reply({ formErrors: [apiErrorMessage(t, error)], hideFields: ["password"] }), problem, result.status);
}

const constraints = new Map<string, Record<string, Constraint>>();

/**
 * The signup form's constraint attributes for a site (they depend on its minimum age and whether it asks for a first
 * message, not on the language): in the root's data for visitors, so every signup form renders them before conform.
 */
export function signupConstraint(settings: Pick<Settings, "min_age" | "ask_signup_message">): Record<string, Constraint> {
  const key = `${settings.min_age} ${settings.ask_signup_message}`;
  let constraint = constraints.get(key);
  if (!constraint) {
    constraint = formConstraint(signupSchema(fixedT("en"), { minAge: settings.min_age, askMessage: settings.ask_signup_message }));
    constraints.set(key, constraint);
  }
  return constraint;
}
