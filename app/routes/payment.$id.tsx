import { useEffect } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {  SandboxDebitRequest } from "#contract/payments";
import { finalFailures, paymentMethodNames, sandboxDebitOutcomes } from "#contract/payment-methods";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { routeId } from "~/features/payments/payments.server";
import { formatMoney } from "~/features/payments/money";
import { callWithMember, requireUser } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { useLocale, useRootData } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";
import { endpoints } from "#contract/endpoints/index";

/** How often a pending payment's page looks again (seconds). */
const refreshSeconds = 2;

/**
 * The payment result page (docs/product.md §4 Payment states): processing while pending, refreshing itself (a meta
 * refresh without JavaScript, a revalidation with it) until the provider's notification makes it final.
 * The browser's return changes nothing: this page only reads the payment.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const id = routeId(params.id);
  const early = callWithMember(request, context, endpoints.payment, { id });
  await requireUser(request, context);
  const result = (await early) ?? (await apiFor(request, context).call(endpoints.payment, { query: { id } }));
  if (!result.ok) throw data(null, { status: result.status === 400 ? 404 : result.status });
  return { payment: result.data.payment, retryMethods: result.data.retry_methods, title: fixedT(locale, "payments")("title.result"), description: metaDescription(locale, "payment") };
}

/** The sandbox's bank (a TEST panel on a pending direct debit): collects, refuses or returns it, then shows the page again. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = routeId(params.id);
  await requireUser(request, context);
  const form = await request.formData();
  const body = SandboxDebitRequest.safeParse({ payment_id: id, outcome: form.get("outcome") });
  if (!body.success) throw data(null, { status: 400 });
  const result = await apiFor(request, context).call(endpoints.sandboxDebit, { body: body.data });
  if (!result.ok) throw data(null, { status: result.status });
  return redirect(`/payment/${id}`);
}

/** A checkout's outcome comes within seconds: the page looks again. A direct debit takes the bank days: it does not. */
const refreshes = (payment: { status: string; mandate: boolean } | undefined) => payment?.status === "pending" && !payment.mandate;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const tags = pageMeta(data, matches);
  return refreshes(data?.payment) ? [...tags, { httpEquiv: "refresh", content: String(refreshSeconds) }] : tags;
};

export default function PaymentResult() {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const root = useRootData();
  const { payment, retryMethods } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const pending = payment.status === "pending";
  const refreshing = refreshes(payment);
  useEffect(() => {
    if (!refreshing) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, refreshSeconds * 1000);
    return () => window.clearInterval(timer);
  }, [refreshing, revalidator]);
  const amount = formatMoney(payment.amount, payment.currency, locale);
  const failed = finalFailures.includes(payment.status);
  const cardFailed = failed && payment.stored_card && payment.method === "cards";
  return (
    <section className="container max-w-2xl py-8" data-testid="payment-result" data-status={payment.status}>
      <h1 className="text-2xl font-bold text-gray-900">{t("title.result")}</h1>
      <p className="mt-2 text-gray-700">
        {t("methods.for", { credits: payment.credits, amount })} · {paymentMethodNames[payment.method]}
      </p>
      {pending && payment.mandate ? (
        <div className="mt-6 rounded-xl bg-white p-4 text-gray-800 ring-1 ring-gray-200" role="status" data-testid="payment-processing">
          <p>{t("result.debitPending", { credits: payment.credits })}</p>
          {payment.sandbox ? (
            <Form method="post" className="mt-4 rounded-lg border-2 border-dashed border-amber-400 bg-amber-50 p-3" data-testid="test-bank">
              <p className="text-sm font-bold text-amber-900">{t("result.testBank")}</p>
              <div className="mt-2 flex flex-wrap gap-2">
                {sandboxDebitOutcomes.map((outcome) => (
                  <button key={outcome} type="submit" name="outcome" value={outcome} className="rounded-full bg-white px-3 py-1.5 text-sm font-semibold ring-1 ring-amber-400" data-testid={`test-bank-${outcome}`}>
                    {t(`result.testBankOutcome.${outcome}`)}
                  </button>
                ))}
              </div>
            </Form>
          ) : null}
        </div>
      ) : pending ? (
        <p className="mt-6 flex items-center gap-3 rounded-xl bg-white p-4 text-gray-800 ring-1 ring-gray-200" role="status" data-testid="payment-processing">
          <span className="h-4 w-4 animate-spin rounded-full border-2 border-primary border-t-transparent" aria-hidden="true" />
          {t("result.processing")}
        </p>
      ) : null}
      {payment.status === "paid" ? (
        <div className="mt-6 rounded-xl bg-green-50 p-4 text-green-900 ring-1 ring-green-200" role="status" data-testid="payment-completed">
          <p className="font-semibold">{t("result.completed", { credits: payment.credits })}</p>
          {root?.user ? <p className="mt-1">{t("result.balance", { credits: root.user.credits })}</p> : null}
          <p className="mt-3">
            <Link to="/members">{t("result.toMembers")}</Link>
          </p>
        </div>
      ) : null}
      {payment.status === "refunded" ? <p className="mt-6 rounded-xl bg-white p-4 ring-1 ring-gray-200">{t("result.refunded")}</p> : null}
      {failed ? (
        <div className="mt-6 rounded-xl bg-red-50 p-4 ring-1 ring-red-200" role="alert" data-testid="payment-failed">
          <p className="font-semibold text-danger">{cardFailed ? t("result.cardFailed") : t("result.failed")}</p>
          {cardFailed ? (
            <div className="mt-3 flex flex-wrap gap-3">
              <Form method="post" action="/credits/repeat-order">
                <Button size="md" data-testid="retry-card">
                  {t("result.retryCard")}
                </Button>
              </Form>
              {/* The other methods the site really routes for this country (the api's retry_methods), each one button. */}
              {payment.package_id
                ? retryMethods.map((method) => (
                    <Form key={method} method="post" action={`/credits/${payment.package_id}/${method}`}>
                      <button type="submit" className="rounded-full bg-white px-4 py-2 font-semibold text-gray-900 ring-1 ring-gray-300 hover:ring-primary" data-testid={`retry-${method}`}>
                        {t("result.payWith", { method: paymentMethodNames[method] })}
                      </button>
                    </Form>
                  ))
                : null}
            </div>
          ) : payment.package_id ? (
            <p className="mt-3">
              <Link to={`/credits/${payment.package_id}`} className="font-semibold" data-testid="retry-other-method">
                {t("result.retry")}
              </Link>
            </p>
          ) : null}
        </div>
      ) : null}
      <p className="mt-8 text-sm">
        <Link to="/transactions">{t("title.transactions")}</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
