import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DebitConfirmRequest, DebitRequestResponse, DirectDebitRequest } from "#contract/direct-debit";
import { CreatePaymentResponse, DiscountRefusal } from "#contract/payments";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { loadPackages, routeId } from "~/features/payments/payments.server";
import { formatMoney } from "~/features/payments/money";
import { refusalText } from "~/features/payments/offers";
import { requireUser } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { useLocale, useRootData } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";

/**
 * docs/product.md §2 /directdebit: a direct debit in two steps that work without JavaScript. First the
 * account holder, IBAN, address and phone (?package=, with a typed ?code=); the api sends a code by SMS.
 * Then the code (?request=): the right one creates the sdd payment, pending until the bank collects it.
 */
const fields = ["account_holder", "iban", "street", "house_number", "zip", "city", "phone"] as const;
type Field = (typeof fields)[number];
type Values = Partial<Record<Field, string>>;
type Failure = { message: string; fieldErrors: Partial<Record<Field, string>>; values: Values; expired: boolean };
const fail = (status: number, message: string, extra: Partial<Failure> = {}) => data<Failure>({ message, fieldErrors: {}, values: {}, expired: false, ...extra }, { status });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const url = new URL(request.url);
  const t = fixedT(locale, "payments");
  const requestId = url.searchParams.get("request");
  if (requestId !== null) {
    const id = routeId(requestId);
    await requireUser(request, context);
    const result = await apiFor(request, context).get("/api/directdebit.php", DebitRequestResponse, { request: id });
    if (!result.ok) throw data(null, { status: result.status === 400 ? 404 : result.status });
    if (result.data.payment_id) throw redirect(`/payment/${result.data.payment_id}`);
    return { step: "code" as const, debit: result.data, resent: url.searchParams.has("resent"), title: t("directDebit.title"), description: metaDescription(locale, "directDebit") };
  }
  const packageId = routeId(url.searchParams.get("package") ?? undefined);
  const packages = await loadPackages(request, context, locale, { member: true, packageId });
  const pkg = packages.packages.find((p) => p.id === packageId);
  if (!pkg || !packages.methods.some((m) => m.id === "sdd" && m.mandate_form)) throw data(null, { status: 404 });
  return { step: "details" as const, pkg, discountError: packages.discount_error, typedCode: packages.typedCode, title: t("directDebit.title"), description: metaDescription(locale, "directDebit") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const t = fixedT(locale, "payments");
  const errorsT = fixedT(locale);
  const form = await request.formData();
  const api = apiFor(request, context);
  const intent = form.get("intent");
  if (intent === "resend" || intent === "confirm") {
    const requestId = routeId(String(form.get("request_id") ?? ""));
    if (intent === "resend") {
      const sent = await api.post("/api/directdebit-code.php", DebitRequestResponse, { request_id: requestId });
      if (!sent.ok) return fail(sent.status, apiErrorMessage(errorsT, sent.error));
      return redirect(`/directdebit?request=${requestId}&resent=1`);
    }
    const body = DebitConfirmRequest.safeParse({ request_id: requestId, otp: form.get("otp") ?? "" });
    if (!body.success) return fail(400, t("directDebit.errors.otp.format"));
    const confirmed = await api.post("/api/directdebit-confirm.php", CreatePaymentResponse.pick({ payment_id: true }), body.data);
    if (confirmed.ok) return redirect(`/payment/${confirmed.data.payment_id}`);
    const error = confirmed.error;
    if (error.error === "code_invalid") {
      const left = Number(error.params?.tries_left ?? 0);
      return fail(400, `${apiErrorMessage(errorsT, error)}. ${t("directDebit.triesLeft", { count: left })}`);
    }
    return fail(confirmed.status, apiErrorMessage(errorsT, error), { expired: error.error === "code_expired" });
  }

  const values: Values = Object.fromEntries(fields.map((f) => [f, String(form.get(f) ?? "").slice(0, 100)]));
  const packageId = routeId(String(form.get("package_id") ?? ""));
  const typed = String(form.get("discount_code") ?? "").trim();
  const parsed = DirectDebitRequest.safeParse({ ...values, package_id: packageId, ...(typed ? { discount_code: typed } : {}) });
  const fieldErrors: Partial<Record<Field, string>> = {};
  const messageOf = (key: string) => {
    const translated = t(`directDebit.errors.${key}`, { defaultValue: "" });
    return translated || t("directDebit.errors.invalid");
  };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path[0] as Field;
      if (fields.includes(name) && !fieldErrors[name]) fieldErrors[name] = messageOf(issue.message);
    }
    return fail(400, t("directDebit.errors.check"), { fieldErrors, values });
  }
  const sent = await api.post("/api/directdebit.php", DebitRequestResponse, parsed.data);
  if (sent.ok) return redirect(`/directdebit?request=${sent.data.request_id}`);
  const error = sent.error;
  const refusal = DiscountRefusal.safeParse(error.params);
  if (refusal.success) return fail(sent.status, refusalText(t, refusal.data, locale), { values });
  for (const [name, messages] of Object.entries(error.fields ?? {})) if (fields.includes(name as Field)) fieldErrors[name as Field] = messageOf(messages[0] ?? "");
  const hint = error.error === "debit_limit" ? ` ${t("directDebit.limitHint")}` : error.error === "debit_blocked" ? ` ${t("directDebit.blockedHint")}` : "";
  return fail(sent.status, apiErrorMessage(errorsT, error) + hint, { fieldErrors, values });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

const inputClass = "mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 aria-[invalid=true]:border-danger";

export default function DirectDebit() {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const root = useRootData();
  const page = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="container max-w-xl py-8" data-testid="direct-debit" data-step={page.step}>
      <h1 className="text-2xl font-bold text-gray-900">{t("directDebit.title")}</h1>
      {page.step === "details" ? (
        <p className="mt-2 text-lg text-gray-800" data-testid="order-summary">
          {t("methods.for", { credits: page.pkg.credits, amount: formatMoney(page.pkg.discounted_amount ?? page.pkg.amount, page.pkg.currency, locale) })}
        </p>
      ) : (
        <p className="mt-2 text-lg text-gray-800" data-testid="order-summary">
          {t("methods.for", { credits: page.debit.credits, amount: formatMoney(page.debit.amount, page.debit.currency, locale) })}
        </p>
      )}
      {failed?.message ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-danger" data-testid="direct-debit-error">
          {failed.message}
        </p>
      ) : null}
      {page.step === "details" ? (
        <Form method="post" className="mt-6 space-y-4" noValidate>
          <input type="hidden" name="package_id" value={page.pkg.id} />
          {page.typedCode ? <input type="hidden" name="discount_code" value={page.typedCode} /> : null}
          <p className="text-gray-700">{t("directDebit.intro")}</p>
          {fields.map((name) => (
            <label key={name} className="block text-sm font-medium text-gray-700">
              {t(`directDebit.fields.${name}`)}
              <input
                name={name}
                defaultValue={failed?.values?.[name] ?? ""}
                required
                aria-invalid={failed?.fieldErrors?.[name] ? true : undefined}
                aria-describedby={failed?.fieldErrors?.[name] ? `${name}-error` : undefined}
                autoComplete={autoCompleteOf[name]}
                inputMode={name === "phone" ? "tel" : undefined}
                type={name === "phone" ? "tel" : "text"}
                className={inputClass}
                data-testid={`dd-${name}`}
              />
              {failed?.fieldErrors?.[name] ? (
                <span id={`${name}-error`} className="mt-1 block text-sm text-danger" data-testid={`dd-${name}-error`}>
                  {failed.fieldErrors[name]}
                </span>
              ) : null}
            </label>
          ))}
          <Button name="intent" value="details" disabled={busy} data-testid="dd-send">
            {t("directDebit.send")}
          </Button>
          <p>
            <Link to={`/credits/${page.pkg.id}`}>{t("methods.other")}</Link>
          </p>
        </Form>
      ) : (
        <>
          {page.resent ? (
            <p role="status" className="mt-4 rounded-md bg-green-50 p-3 text-green-900" data-testid="dd-resent">
              {t("directDebit.resent")}
            </p>
          ) : null}
          <Form method="post" className="mt-6 space-y-4">
            <input type="hidden" name="request_id" value={page.debit.request_id} />
            <p className="text-gray-700">{t("directDebit.codeSent", { phone: page.debit.phone_masked })}</p>
            <p className="text-sm text-gray-600" data-testid="dd-mandate">
              {t("directDebit.mandate", { site: root?.site.name ?? "", amount: formatMoney(page.debit.amount, page.debit.currency, locale), iban: page.debit.iban_masked })}
            </p>
            <label className="block text-sm font-medium text-gray-700">
              {t("directDebit.fields.otp")}
              <input name="otp" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} className={`${inputClass} w-40 font-mono tracking-widest`} data-testid="dd-otp" />
            </label>
            <div className="flex flex-wrap items-center gap-3">
              <Button name="intent" value="confirm" disabled={busy} data-testid="dd-confirm">
                {t("directDebit.confirm")}
              </Button>
              <button type="submit" name="intent" value="resend" formNoValidate disabled={busy} className={`rounded-full px-4 py-2 text-sm font-semibold ring-1 ring-gray-300 hover:bg-gray-50 ${failed?.expired ? "bg-white text-primary" : "text-gray-700"}`} data-testid="dd-resend">
                {t("directDebit.resend")}
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

const autoCompleteOf: Record<Field, string> = {
  account_holder: "name",
  iban: "off",
  street: "address-line1",
  house_number: "address-line2",
  zip: "postal-code",
  city: "address-level2",
  phone: "tel",
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
