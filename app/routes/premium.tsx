import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { loadPackages } from "~/features/payments/payments.server";
import { CountrySelect, PackageList } from "~/features/payments/packages";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { useRootData } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";

/** docs/product.md §6: what premium gives (any package makes a member premium). */
const premiumPhotoSlots = 25;

/** docs/product.md §2 /premium (members area): premium's benefits and the packages. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const packages = await loadPackages(request, context, locale, { member: true });
  return { ...packages, title: fixedT(locale, "payments")("title.premium"), description: metaDescription(locale, "premium") };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Premium() {
  const { t } = useTranslation("payments");
  const root = useRootData();
  const { packages, country, countries } = useLoaderData<typeof loader>();
  const benefits = [t("premium.allPhotos"), t("premium.photoSlots", { limit: premiumPhotoSlots }), t("premium.noLimit"), t("premium.keep")];
  return (
    <section className="container py-8" data-testid="premium-page">
      <h1 className="text-2xl font-bold text-gray-900">{t("title.premium")}</h1>
      {root?.user?.paidUser ? (
        <p className="mt-2 font-medium text-secondary" data-testid="premium-already">
          {t("premium.already")}
        </p>
      ) : null}
      <p className="mt-4 text-gray-700">{t("premium.intro")}</p>
      <ul className="mt-3 space-y-2" data-testid="premium-benefits">
        {benefits.map((text) => (
          <li key={text} className="flex gap-2 text-gray-800">
            <span aria-hidden="true" className="text-primary">
              ✓
            </span>
            {text}
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-gray-600">{t("packages.oneOff")}</p>
      <CountrySelect country={country} countries={countries} />
      <PackageList packages={packages} linkTo={(pkg) => `/credits/${pkg.id}`} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
