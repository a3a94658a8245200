import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { paymentMethodNames } from "#contract/payment-methods";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { safeRedirectPath } from "~/utils/paths";
import { loadPackages } from "~/features/payments/payments.server";
import { formatMoney } from "~/features/payments/money";
import { requireUser } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { MethodLogo } from "~/features/payments/packages";
import { useLocale } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";
import { endpoints } from "#contract/endpoints/index";

/** docs/product.md §2 /credits/repeat-order: the last package again with the stored method (a stored card is charged at once). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const packages = await loadPackages(request, context, locale, { member: true });
  return { last: packages.last_order, title: fixedT(locale, "payments")("title.repeat"), description: metaDescription(locale, "repeatOrder") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const result = await apiFor(request, context).call(endpoints.repeatOrder, { body: {} });
  if (!result.ok) {
    if (result.status === 404) throw redirect("/credits");
    return data({ message: apiErrorMessage(fixedT(locale), result.error) }, { status: result.status });
  }
  const target = result.data.redirect_url;
  if (/^https:\/\//.test(target) || (process.env.NODE_ENV !== "production" && /^http:\/\//.test(target))) throw redirect(target);
  throw redirect(safeRedirectPath(target, `/payment/${result.data.payment_id}`));
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function RepeatOrder() {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const { last } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <section className="container max-w-2xl py-8" data-testid="repeat-order-page">
      <h1 className="text-2xl font-bold text-gray-900">{t("title.repeat")}</h1>
      {failed ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-danger">
          {failed.message}
        </p>
      ) : null}
      {last ? (
        <Form method="post" className="mt-4 space-y-4">
          <p className="flex items-center gap-3 text-lg text-gray-800">
            <MethodLogo method={last.method} name={paymentMethodNames[last.method]} />
            {t("repeat.intro", { credits: last.credits, amount: formatMoney(last.amount, last.currency, locale), method: paymentMethodNames[last.method] })}
          </p>
          {last.stored_card && last.method === "cards" ? <p className="text-sm text-gray-600">{t("repeat.storedCard")}</p> : null}
          <Button data-testid="repeat-order">
            {t("repeat.buy")}
          </Button>
        </Form>
      ) : (
        <p className="mt-4 text-gray-700">
          {t("repeat.none")} <Link to="/credits">{t("title.credits")}</Link>
        </p>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
