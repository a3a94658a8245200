import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { visitorMaySearch } from "#contract/members";
import { requestHasTrafficSource } from "~/utils/api.server";
import { getSettings, getUser } from "~/utils/session.server";
import { fixedT } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { SignupLink } from "~/features/signup/signup-modal";
import { pageMeta } from "~/utils/page-title";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [settings, user] = await Promise.all([getSettings(request, context), getUser(request, context)]);
  const t = fixedT(urlLocale(request));
  return {
    loggedIn: user !== null,
    // docs/product.md §3 settings: the site's index_title and description are the home page's (the translated texts when a site leaves them empty).
    title: settings.index_title || t("home.metaTitle", { site: settings.name }),
    description: settings.description || t("home.metaDescription", { site: settings.name }),
    site: settings.name,
    canSearch: user !== null || visitorMaySearch(settings, requestHasTrafficSource(request)),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

const features = ["search", "chat", "match"] as const;

export default function Home() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <section className="bg-gradient-to-br from-primary to-secondary text-white">
        <div className="container py-16 md:py-24">
          <h1 className="max-w-2xl text-3xl font-bold leading-tight md:text-5xl">{t("home.headline")}</h1>
          <p className="mt-4 max-w-xl text-lg text-white/90">{t("home.lead", { site: data.site })}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            {data.loggedIn ? (
              <Link to="/members" className="rounded-full bg-white px-6 py-3 font-semibold text-primary hover:text-primary-dark">
                {t("home.toMembers")}
              </Link>
            ) : (
              <>
                <SignupLink className="rounded-full bg-white px-6 py-3 font-semibold text-primary hover:text-primary-dark">{t("nav.signup")}</SignupLink>
                <Link to="/login" className="rounded-full px-6 py-3 font-semibold text-white ring-2 ring-white/70 hover:bg-white/10 hover:text-white">
                  {t("nav.login")}
                </Link>
              </>
            )}
          </div>
        </div>
      </section>
      <section className="container grid gap-6 py-12 md:grid-cols-3" aria-label={t("home.featuresLabel")}>
        {features.map((feature) => (
          <div key={feature} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-gray-100">
            <h2 className="text-lg font-semibold text-gray-900">{t(`home.features.${feature}.title`)}</h2>
            <p className="mt-2 text-gray-600">{t(`home.features.${feature}.body`)}</p>
          </div>
        ))}
      </section>
    </>
  );
}
