import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { plausibleToken } from "~/features/account/account-forms";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { AccessCard, Notice } from "~/features/account/account-ui";
import { FormAlert, SubmitButton } from "~/components/ui/form-fields";
import { pageMeta } from "~/utils/page-title";
import { endpoints } from "#contract/endpoints/index";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const settings = await getSettings(request, context);
  const token = new URL(request.url).searchParams.get("token");
  return {
    title: fixedT(locale, "account")("accountDeleted.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "accountDeleted"),
    // The reactivation link of the mail carries a token; without one this is the page after deleting.
    reactivation: token === null ? null : { token: plausibleToken(token) ? token : null },
  };
}

/** Reactivation happens on POST only: mail scanners open (GET) the links in mails. */
export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const common = fixedT(locale);
  const token = (await request.formData()).get("token");
  if (typeof token !== "string" || !plausibleToken(token)) return data({ error: common("errors.link_invalid"), linkInvalid: true }, { status: 400 });
  // On success the api's Set-Cookie logs the member in.
  const result = await apiFor(request, context).call(endpoints.reactivate, { body: { token } });
  if (result.ok) throw redirect("/members");
  return data({ error: apiErrorMessage(common, result.error), linkInvalid: result.error.error === "link_invalid" }, { status: result.status });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function AccountDeleted() {
  const { t } = useTranslation("account");
  const { reactivation } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";

  if (!reactivation) {
    return (
      <AccessCard title={t("accountDeleted.title")}>
        <div className="mt-4">
          <Notice testId="account-deleted">{t("accountDeleted.body")}</Notice>
        </div>
      </AccessCard>
    );
  }

  if (!reactivation.token || actionData?.linkInvalid) {
    return (
      <AccessCard title={t("accountDeleted.reactivateTitle")}>
        <div className="mt-4 space-y-3">
          <FormAlert>{t("common:errors.link_invalid")}</FormAlert>
          <p className="text-sm text-gray-600" data-testid="reactivation-hint">
            {t("accountDeleted.invalidHint")}
          </p>
          <Link to="/login" className="inline-block font-semibold">
            {t("accountDeleted.toLogin")}
          </Link>
        </div>
      </AccessCard>
    );
  }

  return (
    <AccessCard title={t("accountDeleted.reactivateTitle")}>
      <p className="mt-2 text-gray-600">{t("accountDeleted.reactivateLead")}</p>
      <Form method="post" className="mt-6 space-y-4">
        <input type="hidden" name="token" value={reactivation.token} />
        {actionData?.error ? <FormAlert>{actionData.error}</FormAlert> : null}
        <SubmitButton busy={busy} busyText={t("accountDeleted.reactivating")}>
          {t("accountDeleted.reactivate")}
        </SubmitButton>
      </Form>
    </AccessCard>
  );
}
