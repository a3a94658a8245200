import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getUser } from "~/utils/session.server";
import { pageMeta } from "~/utils/page-title";
import { ButtonLink } from "~/components/ui/button";
import { endpoints } from "#contract/endpoints/index";

/** The activation link of the mail lands here with its token; the token is used once, then the address is clean. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const token = new URL(request.url).searchParams.get("token");
  if (token) {
    const result = await apiFor(request, context).call(endpoints.activate, { body: { token } });
    throw redirect(result.ok ? "/activate/done" : "/activate/error");
  }
  const user = await getUser(request, context);
  return { title: fixedT(locale)("activate.doneTitle"), description: metaDescription(locale, "activateDone"), loggedIn: user !== null };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function ActivationDone() {
  const { t } = useTranslation();
  const { loggedIn } = useLoaderData<typeof loader>();
  return (
    <section className="container max-w-md py-12 text-center" data-testid="activation-done">
      <h1 className="text-2xl font-bold text-gray-900">{t("activate.doneTitle")}</h1>
      <p className="mt-3 text-gray-700">{t("activate.doneBody")}</p>
      <ButtonLink to={loggedIn ? "/members" : "/login"} size="xl" className="mt-6">
        {t(loggedIn ? "activate.toMembers" : "nav.login")}
      </ButtonLink>
    </section>
  );
}
