import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { paymentMethodNames } from "#contract/payment-methods";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { formatMoney } from "~/features/payments/money";
import { callWithMember, requireUser } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { useLocale } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";
import { dateTimeFormat } from "~/utils/intl";
import { endpoints } from "#contract/endpoints/index";

/** docs/product.md §2 /transactions: every payment with date, payment_id, package, credits, amount, method, transaction costs and status. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const early = callWithMember(request, context, endpoints.transactions, {});
  await requireUser(request, context);
  const result = (await early) ?? (await apiFor(request, context).call(endpoints.transactions));
  if (!result.ok) throw data(null, { status: result.status });
  return { transactions: result.data.transactions, title: fixedT(locale, "payments")("title.transactions"), description: metaDescription(locale, "transactions") };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Transactions() {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const { transactions } = useLoaderData<typeof loader>();
  const date = dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  return (
    <section className="container py-8" data-testid="transactions-page">
      <h1 className="text-2xl font-bold text-gray-900">{t("title.transactions")}</h1>
      {transactions.length === 0 ? (
        <p className="mt-6 text-gray-700">
          {t("transactions.empty")} <Link to="/credits">{t("title.credits")}</Link>
        </p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-gray-100">
          <table className="w-full text-left text-sm">
            <thead className="bg-gray-50 text-gray-600">
              <tr>
                {(["date", "id", "package", "amount", "method", "costs", "status"] as const).map((key) => (
                  <th key={key} scope="col" className="px-3 py-2 font-medium">
                    {t(`transactions.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {transactions.map((p) => (
                <tr key={p.payment_id} className="border-t border-gray-100" data-testid="transaction" data-status={p.status}>
                  <td className="px-3 py-2 whitespace-nowrap">{date.format(new Date(p.date))}</td>
                  <td className="px-3 py-2">
                    <Link to={`/transactions/${p.payment_id}`} data-testid="transaction-link">
                      {p.payment_id}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{t("packages.credits", { credits: p.credits })}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{formatMoney(p.amount, p.currency, locale)}</td>
                  <td className="px-3 py-2">{paymentMethodNames[p.method]}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{formatMoney(p.transaction_costs, p.currency, locale)}</td>
                  <td className="px-3 py-2">{t(`status.${p.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
