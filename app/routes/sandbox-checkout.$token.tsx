import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LinkToken } from "#contract/input";
import {   SandboxOutcome } from "#contract/payments";
import { paymentMethodNames, sandboxCards, sandboxOutcomes } from "#contract/payment-methods";
import { apiFor } from "~/utils/api.server";
import { metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { formatMoney } from "~/features/payments/money";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { MethodLogo } from "~/features/payments/packages";
import { useLocale } from "~/utils/root-data";
import { endpoints } from "#contract/endpoints/index";

/**
 * The sandbox provider's hosted checkout (a TEST page of a demo, docs/payments.md): the payer picks the outcome a
 * real provider's test mode would give. The token is the only key, as at a provider; then back to our
 * result page, which waits for the sandbox's notification.
 */
function tokenOf(value: string | undefined): string {
  const parsed = LinkToken.safeParse(value);
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const token = tokenOf(params.token);
  const result = await apiFor(request, context).call(endpoints.sandboxCheckout, { query: { token }, ...{ sessionOptional: true } });
  if (!result.ok) throw data(null, { status: result.status === 400 ? 404 : result.status });
  return { checkout: result.data, description: metaDescription(urlLocale(request), "sandboxCheckout") };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const token = tokenOf(params.token);
  const form = await request.formData();
  const outcome = SandboxOutcome.safeParse(form.get("outcome"));
  if (!outcome.success) throw data(null, { status: 400 });
  const card = sandboxCards.find((c) => c === form.get("card"));
  const body = { token, outcome: outcome.data, ...(card ? { card } : {}) };
  const result = await apiFor(request, context).call(endpoints.completeSandboxCheckout, { body: body });
  if (!result.ok) throw data(null, { status: result.status === 400 ? 400 : 404 });
  throw redirect(`/payment/${result.data.payment_id}`);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "TEST - Sandbox checkout" },
  { name: "description", content: data?.description },
  { name: "robots", content: "noindex" },
];

export default function SandboxCheckout() {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const { checkout } = useLoaderData<typeof loader>();
  return (
    <section className="container max-w-xl py-8" data-testid="sandbox-checkout">
      <div className="rounded-xl border-4 border-dashed border-warning bg-yellow-50 p-4">
        <p className="text-2xl font-black tracking-widest text-gray-900">{t("sandbox.title")}</p>
        {/* The sandbox exists only in demo mode (api/config.ts refuses it in production), so this page always says so. */}
        <p className="mt-1 font-medium text-gray-900" data-testid="sandbox-demo-notice">
          {t("sandbox.notice")}
        </p>
      </div>
      <div className="mt-6 rounded-xl bg-white p-5 shadow-sm ring-1 ring-gray-200">
        <p className="text-sm text-gray-500">{checkout.site_name}</p>
        <p className="text-lg font-semibold text-gray-900">{t("packages.credits", { credits: checkout.description.split(" ")[0] })}</p>
        <p className="text-2xl font-bold text-gray-900" data-testid="sandbox-amount">
          {formatMoney(checkout.amount, checkout.currency, locale)}
        </p>
        <p className="mt-2 flex items-center gap-2 text-gray-800">
          <MethodLogo method={checkout.method} name={paymentMethodNames[checkout.method]} />
          {paymentMethodNames[checkout.method]}
        </p>
        {checkout.decided ? (
          <p className="mt-4 text-gray-700">{t("sandbox.decided")}</p>
        ) : (
          <Form method="post" className="mt-4 space-y-3">
            <fieldset>
              <legend className="font-medium text-gray-900">{t("sandbox.choose")}</legend>
              {sandboxOutcomes.map((outcome, i) => (
                <label key={outcome} className="mt-2 flex items-center gap-2">
                  <input type="radio" name="outcome" value={outcome} defaultChecked={i === 0} data-testid={`outcome-${outcome}`} />
                  {t(`sandbox.outcome.${outcome}`)}
                </label>
              ))}
            </fieldset>
            {checkout.method === "cards" ? (
              <label className="block font-medium text-gray-900">
                {t("sandbox.card")}
                <select name="card" className="ml-2 rounded-md border border-gray-300 px-2 py-1.5" data-testid="sandbox-card">
                  <option value="ok">{t("sandbox.cardOk")}</option>
                  <option value="declines_later">{t("sandbox.cardDeclines")}</option>
                </select>
              </label>
            ) : null}
            <button type="submit" className="rounded-full bg-gray-900 px-6 py-2.5 font-semibold text-white hover:bg-gray-700" data-testid="sandbox-submit">
              {t("sandbox.submit")}
            </button>
          </Form>
        )}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
