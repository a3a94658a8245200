import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { paymentMethodNames } from "#contract/payment-methods";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { routeId } from "~/features/payments/payments.server";
import { formatMoney } from "~/features/payments/money";
import { callWithMember, requireUser } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { useLocale } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";
import { dateTimeFormat, regionNames } from "~/utils/intl";
import { endpoints } from "#contract/endpoints/index";

/** docs/product.md §2 /transactions/{id}: a receipt with the payment and the company's details (§3 Company info). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const id = routeId(params.id);
  const early = callWithMember(request, context, endpoints.transaction, { id });
  await requireUser(request, context);
  const result = (await early) ?? (await apiFor(request, context).call(endpoints.transaction, { query: { id } }));
  if (!result.ok) throw data(null, { status: result.status === 400 ? 404 : result.status });
  const { me: _me, ...receipt } = result.data;
  return { ...receipt, title: `${fixedT(locale, "payments")("transactions.receipt")} ${id}`, description: metaDescription(locale, "receipt") };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Receipt() {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const { payment: p, company, site_name: siteName, refund_days: refundDays } = useLoaderData<typeof loader>();
  const date = dateTimeFormat(locale, { dateStyle: "long", timeStyle: "short" });
  const country = regionNames(locale).of(company.country) ?? company.country;
  const rows: [string, string][] = [
    [t("transactions.date"), date.format(new Date(p.date))],
    [t("transactions.id"), String(p.payment_id)],
    [t("transactions.package"), t("packages.credits", { credits: p.credits })],
    [t("transactions.method"), paymentMethodNames[p.method]],
    ...(p.discount_code ? ([[t("discount.label"), `${p.discount_code} (−${formatMoney(p.discount_amount, p.currency, locale)})`]] as [string, string][]) : []),
    [t("transactions.costs"), formatMoney(p.transaction_costs, p.currency, locale)],
    [t("transactions.amount"), formatMoney(p.amount, p.currency, locale)],
    [t("transactions.status"), t(`status.${p.status}`)],
  ];
  return (
    <section className="container max-w-2xl py-8" data-testid="receipt">
      <h1 className="text-2xl font-bold text-gray-900">
        {t("transactions.receipt")} {p.payment_id}
      </h1>
      <dl className="mt-6 divide-y divide-gray-100 rounded-xl bg-white shadow-sm ring-1 ring-gray-100">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 px-4 py-2">
            <dt className="text-gray-600">{label}</dt>
            <dd className="text-right font-medium text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>
      <address className="mt-6 not-italic text-sm text-gray-700" data-testid="receipt-company">
        <p className="font-semibold text-gray-900">{t("transactions.seller")}</p>
        <p>{company.name}</p>
        <p>{company.address}</p>
        <p>
          {company.city}, {country}
        </p>
        <p>
          {t("transactions.kvk")}: {company.kvk}
        </p>
        {company.vat_numbers.length ? (
          <p>
            {t("transactions.vat")}: {company.vat_numbers.join(", ")}
          </p>
        ) : null}
        <p>
          {t("transactions.tradenames")}: {[siteName, ...company.tradenames.filter((n) => n !== siteName)].join(", ")}
        </p>
        <p>
          {t("transactions.phone")}: {company.support_phone}
        </p>
      </address>
      <p className="mt-4 text-sm text-gray-600">{t("transactions.refundPolicy", { days: refundDays })}</p>
      <p className="mt-6 text-sm">
        <Link to="/transactions">{t("title.transactions")}</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
