import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { urlLocale } from "~/utils/locale.server";
import { getUser } from "~/utils/session.server";
import { pageMeta } from "~/utils/page-title";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { Button } from "~/components/ui/button";
import { endpoints } from "#contract/endpoints/index";

/** Logging out changes state, so only a POST does it (a link or an image on another site cannot). */
export async function action({ request, context }: ActionFunctionArgs) {
  // The api deletes the session and answers the Set-Cookie that clears it; it is passed on as is.
  await apiFor(request, context).call(endpoints.logout);
  return redirect("/");
}

/** GET /logout (an old bookmark, a typed URL): a one-button form that asks first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  if (!(await getUser(request, context))) throw redirect("/");
  return { title: fixedT(locale)("logout.question"), description: metaDescription(locale, "logout") };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Logout() {
  const { t } = useTranslation();
  return (
    <section className="container max-w-md py-16 text-center">
      <h1 className="text-2xl font-semibold text-gray-900">{t("logout.question")}</h1>
      <Form method="post" action="/logout" className="mt-8">
        <Button size="md">
          {t("nav.logout")}
        </Button>
      </Form>
    </section>
  );
}
