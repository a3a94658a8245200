import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, getUser } from "~/utils/session.server";
import { signupGate } from "~/features/signup/signup-gate.server";
import { SignupForm } from "~/features/signup/signup-form";
import { pageMeta } from "~/utils/page-title";
import { signupAction } from "~/features/signup/signup.server";
import { Button } from "~/components/ui/button";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  if (await getUser(request, context)) throw redirect("/members");
  const settings = await getSettings(request, context);
  const invitation = new URL(request.url).searchParams.get("invitation") ?? "";
  return {
    title: fixedT(locale)("signup.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "signup", { site: settings.name }),
    gate: signupGate(settings, request),
    invitation,
    minAge: settings.min_age,
    askMessage: settings.ask_signup_message,
  };
}

export const action = (args: ActionFunctionArgs) => signupAction(args);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Signup() {
  const { t } = useTranslation();
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
            <SignupForm action="/signup" lastResult={actionData} busy={busy} minAge={minAge} askMessage={askMessage} invitation={invitation} />
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
      <Button block>
        {t("signup.invitationSubmit")}
      </Button>
    </form>
  );
}
