import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { loadPackages } from "~/features/payments/payments.server";
import { getSettings } from "~/utils/session.server";
import { CountrySelect, PackageList } from "~/features/payments/packages";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { pageMeta } from "~/utils/page-title";

/** docs/product.md §2 /pricing: public prices of the packages for a payment country. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const [packages, settings] = await Promise.all([loadPackages(request, context, locale, { member: false }), getSettings(request, context)]);
  return { ...packages, title: fixedT(locale, "payments")("title.pricing") + ` - ${settings.name}`, description: metaDescription(locale, "pricing") };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Pricing() {
  const { t } = useTranslation("payments");
  const { packages, country, countries } = useLoaderData<typeof loader>();
  return (
    <section className="container py-8" data-testid="pricing-page">
      <h1 className="text-2xl font-bold text-gray-900">{t("title.pricing")}</h1>
      <p className="mt-2 text-gray-700">{t("packages.oneOff")}</p>
      <CountrySelect country={country} countries={countries} />
      <PackageList packages={packages} linkTo={(pkg) => `/credits/${pkg.id}`} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
