import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getUser } from "~/utils/session.server";
import { ResendActivationForm } from "~/features/signup/activation-reminder";
import { pageMeta } from "~/utils/page-title";
import { ButtonLink } from "~/components/ui/button";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await getUser(request, context);
  return { title: fixedT(locale)("errors.activationFailed"), description: metaDescription(locale, "activateError"), canResend: user?.status === "not_confirmed" };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function ActivationError() {
  const { t } = useTranslation();
  const { canResend } = useLoaderData<typeof loader>();
  return (
    <section className="container max-w-md py-12 text-center" data-testid="activation-error">
      <h1 className="text-2xl font-bold text-gray-900">{t("errors.activationFailed")}</h1>
      <p className="mt-3 text-gray-700">{t(canResend ? "activate.errorResend" : "activate.errorLogin")}</p>
      {canResend ? (
        <ResendActivationForm />
      ) : (
        <ButtonLink to="/login" size="xl" className="mt-6">
          {t("nav.login")}
        </ButtonLink>
      )}
    </section>
  );
}
