import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { visibleLocales } from "#contract/locales";
import { Locale } from "#contract/user";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { localeCookie, urlLocale } from "~/utils/locale.server";
import { localizePath, safeRedirectPath, splitLocale } from "~/utils/paths";
import { getSettings } from "~/utils/session.server";
import { languageNames } from "~/components/layout/language-menu";
import { pageMeta } from "~/utils/page-title";
import { endpoints } from "#contract/endpoints/index";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const settings = await getSettings(request, context);
  return { title: fixedT(locale)("language.title"), description: metaDescription(locale, "langConfig"), current: locale, options: visibleLocales(settings.geoip_country) };
}

/** Keeps the choice in i18n_redirected for 365 days, saves it for a member, and shows the same page in the new language. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const language = Locale.safeParse(form.get("language"));
  if (!language.success) {
    return data({ error: fixedT(urlLocale(request))("language.invalid") }, { status: 400 });
  }
  const api = apiFor(request, context);
  if (api.hasSession) await api.call(endpoints.updateUser, { body: { language: language.data } });
  const target = new URL(safeRedirectPath(form.get("redirectTo"), "/"), "http://rendezvous.invalid");
  // Re-prefixing can turn /nl//evil.example into //evil.example: the composed path is checked again.
  const location = safeRedirectPath(localizePath(language.data, splitLocale(target.pathname).path) + target.search, localizePath(language.data, "/"));
  const headers = { "Set-Cookie": localeCookie(language.data) };
  // The language menu posts to the unprefixed /lang-config, whose handler has no basename to put in front of the
  // new language's path. Posted under a prefix (/nl/lang-config), Remix would prefix it again: the whole URL goes.
  if (splitLocale(new URL(request.url).pathname).locale) return redirect(new URL(location, request.url).href, { headers });
  return redirect(location, { headers });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function LanguageConfig() {
  const { t } = useTranslation();
  const { current, options } = useLoaderData<typeof loader>();
  return (
    <section className="container max-w-md py-12">
      <h1 className="text-2xl font-bold">{t("language.title")}</h1>
      {/* A plain form to the unprefixed address: see the action. */}
      <form method="post" action="/lang-config" className="mt-6 grid gap-2">
        <input type="hidden" name="redirectTo" value="/" />
        {options.map((code) => (
          <button
            key={code}
            name="language"
            value={code}
            lang={code}
            className="rounded-md border border-gray-200 bg-white px-4 py-3 text-left hover:border-primary aria-[current]:border-primary aria-[current]:font-semibold"
            aria-current={code === current ? "true" : undefined}
          >
            {languageNames[code]}
          </button>
        ))}
      </form>
    </section>
  );
}
