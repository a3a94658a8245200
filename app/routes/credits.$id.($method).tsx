import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {  DiscountCodeInput, DiscountRefusal, PaymentMethodId } from "#contract/payments";
import { paymentMethodNames, transactionCostsFor } from "#contract/payment-methods";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { safeRedirectPath } from "~/utils/paths";
import { loadPackages, routeId } from "~/features/payments/payments.server";
import { formatMoney } from "~/features/payments/money";
import { requireUser } from "~/utils/session.server";
import { DiscountCode, MethodList, MethodLogo } from "~/features/payments/packages";
import { refusalText } from "~/features/payments/offers";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { useLocale } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";
import { endpoints } from "#contract/endpoints/index";

/**
 * docs/product.md §2 /credits/{id}/{paymentmethod?}: without a method, the methods of the package's country (each a
 * POST to its own URL); with one, a page to check and pay. The action starts the payment (the amount is
 * the api's, from the package) and sends the payer to the provider's checkout.
 */
function methodOf(value: string | undefined): PaymentMethodId | null {
  if (value === undefined) return null;
  const parsed = PaymentMethodId.safeParse(value);
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const id = routeId(params.id);
  const method = methodOf(params.method);
  const packages = await loadPackages(request, context, locale, { member: true, packageId: id });
  const pkg = packages.packages.find((p) => p.id === id);
  if (!pkg) throw data(null, { status: 404 });
  if (method && !packages.methods.some((m) => m.id === method)) throw data(null, { status: 404 });
  return {
    pkg,
    method,
    methods: packages.methods,
    country: packages.country,
    discount: packages.discount,
    discountError: packages.discount_error,
    typedCode: packages.typedCode,
    title: fixedT(locale, "payments")(method ? "title.confirm" : "title.method"),
    description: metaDescription(locale, "creditsMethod"),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const id = routeId(params.id);
  const method = methodOf(params.method);
  if (!method) throw data(null, { status: 405 });
  await requireUser(request, context);
  // Package and method come from the URL, the amount from the package; the form carries only a typed discount code.
  const form = await request.formData();
  const typed = form.get("discount_code");
  const code = typeof typed === "string" && typed.trim() ? DiscountCodeInput.safeParse(typed) : null;
  const t = fixedT(locale, "payments");
  if (code && !code.success) return data({ message: refusalText(t, { reason: "not_found", code: "" }, locale) }, { status: 400 });
  const result = await apiFor(request, context).call(endpoints.startPayment, { body: { package_id: id, method, ...(code?.data ? { discount_code: code.data } : {}) } });
  if (!result.ok) {
    if (result.status === 404) throw data(null, { status: 404 });
    const refusal = DiscountRefusal.safeParse(result.error.params);
    if (refusal.success) return data({ message: refusalText(t, refusal.data, locale) }, { status: result.status });
    return data({ message: apiErrorMessage(fixedT(locale), result.error) }, { status: result.status });
  }
  const target = result.data.redirect_url;
  // A provider's checkout is another origin (https); our own pages (the sandbox, the result page) are paths.
  if (/^https:\/\//.test(target) || (process.env.NODE_ENV !== "production" && /^http:\/\//.test(target))) throw redirect(target);
  throw redirect(safeRedirectPath(target, `/payment/${result.data.payment_id}`));
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function ChooseMethod() {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const { pkg, method, methods, country, discount, discountError, typedCode } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const price = pkg.discounted_amount ?? pkg.amount;
  const amount = formatMoney(price, pkg.currency, locale);
  // docs/product.md §3: the chosen method's transaction costs are shown before paying and are part of what is paid.
  const costs = method ? transactionCostsFor(methods.find((m) => m.id === method)?.transaction_costs, price) : 0;
  return (
    <section className="container max-w-2xl py-8" data-testid={method ? "confirm-page" : "method-page"}>
      <h1 className="text-2xl font-bold text-gray-900">{t(method ? "title.confirm" : "title.method")}</h1>
      <p className="mt-2 text-lg text-gray-800" data-testid="order-summary">
        {t("methods.for", { credits: pkg.credits, amount })}
        {pkg.discounted_amount !== null ? (
          <>
            {" "}
            <s className="text-base text-gray-500" data-testid="order-full-price">
              <span className="sr-only">{t("discount.was")} </span>
              {formatMoney(pkg.amount, pkg.currency, locale)}
            </s>
          </>
        ) : null}
      </p>
      {method ? null : <DiscountCode discount={discount} error={discountError} country={country} />}
      {failed ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-danger" data-testid="payment-error">
          {failed.message}
        </p>
      ) : null}
      {method ? (
        <Form method="post" className="mt-6 space-y-4">
          {typedCode ? <input type="hidden" name="discount_code" value={typedCode} /> : null}
          <p className="flex items-center gap-3 font-medium text-gray-900">
            <MethodLogo method={method} name={paymentMethodNames[method]} />
            {paymentMethodNames[method]}
          </p>
          {costs > 0 ? (
            <p className="text-gray-800" data-testid="order-costs">
              {t("methods.costsLine", { amount: formatMoney(costs, pkg.currency, locale) })}
            </p>
          ) : null}
          <p className="text-sm text-gray-600">{t("methods.secure")}</p>
          <Button data-testid="pay">
            {t("methods.pay", { amount: formatMoney(price + costs, pkg.currency, locale) })}
          </Button>
          <p>
            <Link to={`/credits/${pkg.id}` + (typedCode ? `?code=${encodeURIComponent(typedCode)}` : "")}>{t("methods.other")}</Link>
          </p>
        </Form>
      ) : (
        <>
          <MethodList packageId={pkg.id} methods={methods} discountCode={typedCode} price={price} currency={pkg.currency} />
          <p className="mt-6 text-sm text-gray-600">
            {t("methods.otherCountry")} <Link to="/credits">{t("title.credits")}</Link>
          </p>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
