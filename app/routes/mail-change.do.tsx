import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ErrorCode } from "#contract/errors";
import { apiFor } from "~/utils/api.server";
import { plausibleToken } from "~/features/account/account-forms";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { AccessCard, Notice } from "~/features/account/account-ui";
import { FormAlert } from "~/components/ui/form-fields";
import { useRootData } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";
import { endpoints } from "#contract/endpoints/index";

/**
 * The confirmation link mailed to the new address. Opening it confirms (a one-time link); the
 * redirect to ?changed=1 keeps a reload from answering "link expired" for a change that worked.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const settings = await getSettings(request, context);
  const title = fixedT(locale, "account")("mailChange.metaTitle", { site: settings.name });
  const description = metaDescription(locale, "mailChange");
  const url = new URL(request.url);
  if (url.searchParams.get("changed") === "1") return { title, description, error: null };
  const token = url.searchParams.get("token");
  if (!plausibleToken(token)) return { title, description, error: "link_invalid" satisfies ErrorCode };
  const result = await apiFor(request, context).call(endpoints.changeMail, { body: { token } });
  if (result.ok) throw redirect(`/mail-change/do?changed=1`);
  // link_invalid or email_taken (another account took the address meanwhile).
  const error: ErrorCode = result.error.error;
  return { title, description, error };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function MailChangeDo() {
  const { t } = useTranslation("account");
  const { error } = useLoaderData<typeof loader>();
  const loggedIn = Boolean(useRootData()?.user);
  return (
    <AccessCard title={t("mailChange.title")}>
      <div className="mt-4 space-y-4">
        {error ? (
          <FormAlert>{t(`common:errors.${error}`, { defaultValue: t("common:errors.generic") })}</FormAlert>
        ) : (
          <Notice testId="mail-changed">{t("mailChange.done")}</Notice>
        )}
        <Link to={loggedIn ? "/profile/account" : "/login"} className="inline-block font-semibold">
          {t(loggedIn ? "mailChange.toAccount" : "mailChange.toLogin")}
        </Link>
      </div>
    </AccessCard>
  );
}
