import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { requireUser } from "~/utils/session.server";
import { ResendActivationForm } from "~/features/signup/activation-reminder";
import { pageMeta } from "~/utils/page-title";
import { ButtonLink } from "~/components/ui/button";

/** docs/product.md §2: no language dropdown and no site-entry warning on complete-signup. */
export const handle = { hideLanguage: true, hideEntryWarning: true, hideActivationReminder: true };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await requireUser(request, context);
  return {
    title: fixedT(locale)("complete.title", { name: user.profile.name }),
    description: metaDescription(locale, "completeSignup"),
    name: user.profile.name, confirmed: user.status === "active" };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function CompleteSignup() {
  const { t } = useTranslation();
  const { name, confirmed } = useLoaderData<typeof loader>();
  return (
    <section className="container flex justify-center py-10">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-gray-100">
        <h1 className="text-2xl font-bold text-gray-900">{t("complete.title", { name })}</h1>
        <p className="mt-3 text-gray-700">{t("complete.ready")}</p>
        {confirmed ? null : (
          <div className="mt-4 rounded-xl bg-primary-light p-4 text-left text-sm text-gray-800" data-testid="confirm-email-notice">
            <p>{t("complete.confirmEmail")}</p>
            <ResendActivationForm />
          </div>
        )}
        <ButtonLink to="/signup-matches" size="xl" className="mt-6">
          {t("complete.toMatches")}
        </ButtonLink>
      </div>
    </section>
  );
}
