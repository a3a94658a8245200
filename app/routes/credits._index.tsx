import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { paymentMethodNames } from "#contract/payment-methods";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { loadPackages } from "~/features/payments/payments.server";
import { formatMoney } from "~/features/payments/money";
import { CountrySelect, DiscountCode, PackageList } from "~/features/payments/packages";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { useLocale } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";

/** docs/product.md §2 /credits: the purchase page (packages of the payment country, and the last order to repeat). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const packages = await loadPackages(request, context, locale, { member: true });
  return { ...packages, title: fixedT(locale, "payments")("title.credits"), description: metaDescription(locale, "credits") };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Credits() {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const { packages, country, countries, last_order: last, discount, discount_error: discountError, typedCode } = useLoaderData<typeof loader>();
  const withCode = (path: string) => (typedCode ? `${path}?code=${encodeURIComponent(typedCode)}` : path);
  return (
    <section className="container py-8" data-testid="credits-page">
      <h1 className="text-2xl font-bold text-gray-900">{t("title.credits")}</h1>
      <p className="mt-2 text-gray-700">{t("packages.oneOff")}</p>
      {last ? (
        <p className="mt-4 rounded-xl bg-primary-light p-4 text-gray-800">
          {t("repeat.intro", { credits: last.credits, amount: formatMoney(last.amount, last.currency, locale), method: paymentMethodNames[last.method] })}{" "}
          <Link to="/credits/repeat-order" className="font-semibold" data-testid="repeat-order-link">
            {t("repeat.link")}
          </Link>
        </p>
      ) : null}
      <DiscountCode discount={discount} error={discountError} country={country} />
      <CountrySelect country={country} countries={countries} code={typedCode} />
      <PackageList packages={packages} linkTo={(pkg) => withCode(`/credits/${pkg.id}`)} />
      <p className="mt-8 text-sm">
        <Link to="/transactions">{t("title.transactions")}</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
