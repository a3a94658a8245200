import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { UserResponse } from "#contract/user";
import { apiFor } from "~/api.server";
import { apiErrorMessage } from "~/api-errors";
import { fixedT } from "~/i18n.server";
import { urlLocale } from "~/locale.server";
import { localizePath } from "~/paths";
import { getSettings, getUser } from "~/session.server";
import { signupSchema } from "~/signup";
import { nextSignupPath } from "~/signup-steps";
import { keptTracking } from "~/tracking.server";
import { signupGate } from "~/signup-gate.server";
import { SignupForm, type SignupActionData } from "~/components/signup-form";
import { useHref } from "~/components/root-data";
import { pageTitle } from "~/page-title";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  if (await getUser(request, context)) throw redirect(localizePath(locale, "/members"));
  const settings = await getSettings(request, context);
  const invitation = new URL(request.url).searchParams.get("invitation") ?? "";
  return {
    title: fixedT(locale)("signup.metaTitle", { site: settings.name }),
    gate: signupGate(settings, request),
    invitation,
    minAge: settings.min_age,
    askMessage: settings.ask_signup_message,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
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
  if (result.ok) throw redirect(localizePath(locale, nextSignupPath(0, settings)));

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

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [{ title: pageTitle(data?.title, matches) }];

export default function Signup() {
  const { t } = useTranslation();
  const href = useHref();
  const { gate, invitation, minAge, askMessage } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <section className="container flex justify-center py-10">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100">
        <h1 className="text-2xl font-bold text-gray-900">{t("signup.title")}</h1>
        {gate === "closed" || gate === "closed_trafficsource" ? (
          <p className="mt-4 text-gray-700" data-testid="signup-closed">
            {t(gate === "closed" ? "signup.closed" : "signup.closedTrafficsource")}
          </p>
        ) : gate === "invitation" && !invitation ? (
          <InvitationForm />
        ) : (
          <>
            <p className="mt-1 text-gray-600">{t("signup.lead")}</p>
            <SignupForm action={href("/signup")} lastResult={actionData} busy={busy} minAge={minAge} askMessage={askMessage} invitation={invitation} />
          </>
        )}
      </div>
    </section>
  );
}

/** Invite-only sites: the code comes from the invitation link, or is typed here. */
function InvitationForm() {
  const { t } = useTranslation();
  return (
    <form method="get" className="mt-4 space-y-4" data-testid="invitation-form">
      <p className="text-gray-700">{t("signup.inviteOnly")}</p>
      <div>
        <label htmlFor="invitation" className="block text-sm font-medium text-gray-700">
          {t("signup.invitationCode")}
        </label>
        <input id="invitation" name="invitation" required maxLength={64} className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2" />
      </div>
      <button type="submit" className="w-full rounded-full bg-primary px-4 py-2.5 font-semibold text-white hover:bg-primary-dark">
        {t("signup.invitationSubmit")}
      </button>
    </form>
  );
}
