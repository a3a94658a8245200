import { useBrowserValue } from "~/utils/hydrated";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { CreditPackage, PaymentMethod } from "#contract/payments";
import { transactionCostsFor } from "#contract/payment-methods";
import { formatMoney, formatPerCredit, methodLogo } from "~/features/payments/money";
import { refusalText, type Offer, type Refusal } from "~/features/payments/offers";
import { useLocale } from "~/utils/root-data";
import { whenShown } from "~/utils/when-shown";

// A member's time bonus runs in their first days only: the countdown's code (jotai's atoms) loads where it shows.
const TimeBonusCountdown = whenShown("TimeBonusCountdown", () => import("./time-bonus-countdown").then((m) => m.TimeBonusCountdown));
import { ButtonLink } from "~/components/ui/button";
import { dateTimeFormat, regionNames } from "~/utils/intl";

/** docs/product.md §2 /pricing, /premium, /credits: the packages with price, price per credit and the two marks. */
export function PackageList({ packages, linkTo }: { packages: CreditPackage[]; linkTo: (pkg: CreditPackage) => string }) {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  if (!packages.length) return <p className="mt-6 text-gray-600">{t("packages.empty")}</p>;
  return (
    <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="packages">
      {packages.map((pkg) => (
        <li key={pkg.id} className={`relative flex flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ${pkg.mark ? "ring-2 ring-primary" : "ring-gray-100"}`} data-testid="package" data-package-id={pkg.id}>
          {pkg.mark ? (
            <span className="absolute -top-3 left-4 rounded-full bg-primary px-3 py-0.5 text-xs font-semibold text-white" data-testid="package-mark">
              {t(pkg.mark === "most_chosen" ? "packages.mostChosen" : "packages.bestValue")}
            </span>
          ) : null}
          <p className="text-2xl font-bold text-gray-900">{t("packages.credits", { credits: pkg.credits })}</p>
          {pkg.discounted_amount !== null ? (
            <p className="mt-1 flex flex-wrap items-baseline gap-2">
              <span className="text-xl font-semibold text-primary" data-testid="package-price">
                {formatMoney(pkg.discounted_amount, pkg.currency, locale)}
              </span>
              <s className="text-sm text-gray-500" data-testid="package-full-price">
                <span className="sr-only">{t("discount.was")} </span>
                {formatMoney(pkg.amount, pkg.currency, locale)}
              </s>
            </p>
          ) : (
            <p className="mt-1 text-xl font-semibold text-primary" data-testid="package-price">
              {formatMoney(pkg.amount, pkg.currency, locale)}
            </p>
          )}
          <p className="mt-1 text-sm text-gray-500">{t("packages.perCredit", { price: formatPerCredit(pkg.price_per_credit, pkg.currency, locale) })}</p>
          <ButtonLink to={linkTo(pkg)} size="md" className="mt-4" data-testid="package-choose">
            {t("packages.choose")}
          </ButtonLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * docs/product.md §2 "Discount-code input": a GET form on /credits and the package page, so it works
 * without JavaScript; the prices then show the code (or why it does not apply) and carry it to the payment.
 * Above it, the discount the prices show: the typed code, the time bonus with its countdown, or the welcome discount.
 */
export function DiscountCode({ discount, error, country }: { discount: Offer | null; error: Refusal | null; country: string }) {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  return (
    <div className="mt-4 space-y-2" data-testid="discount">
      {discount ? (
        <p className="rounded-xl bg-amber-50 px-4 py-2 text-gray-900 ring-1 ring-amber-200" data-testid="discount-applied">
          {discount.kind === "code"
            ? t("discount.applied", { code: discount.code, percentage: discount.value_percentage })
            : t(discount.kind === "timebonus" ? "discount.timeBonus" : "discount.welcome", { percentage: discount.value_percentage })}
          {discount.kind === "timebonus" && discount.expires ? (
            <>
              {" "}
              {t("discount.timeLeft")} <TimeBonusCountdown expires={discount.expires} />
            </>
          ) : discount.expires ? (
            <> {t("discount.until", { date: dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(discount.expires)) })}</>
          ) : null}
        </p>
      ) : null}
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="country" value={country} />
        <label className="text-sm font-medium text-gray-700">
          {t("discount.label")}
          <input
            name="code"
            defaultValue={error?.code ?? (discount?.kind === "code" ? discount.code : "")}
            maxLength={40}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "discount-error" : undefined}
            className="ml-2 w-40 rounded-md border border-gray-300 px-2 py-1.5 uppercase"
            data-testid="discount-code"
          />
        </label>
        <button type="submit" className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50" data-testid="discount-apply">
          {t("discount.apply")}
        </button>
      </Form>
      {error ? (
        <p id="discount-error" role="alert" className="text-sm text-danger" data-testid="discount-error">
          {refusalText(t, error, locale)}
        </p>
      ) : null}
    </div>
  );
}

/** docs/product.md §3 paymentCountry: a GET form, so it works without JavaScript; with it, choosing submits. */
export function CountrySelect({ country, countries, code }: { country: string; countries: string[]; code?: string | null }) {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const names = regionNames(locale);
  const sorted = [...countries].sort((a, b) => (names.of(a) ?? a).localeCompare(names.of(b) ?? b, locale));
  return (
    <Form method="get" className="mt-4 flex flex-wrap items-end gap-2" data-testid="payment-country">
      {code ? <input type="hidden" name="code" value={code} /> : null}
      <label className="text-sm font-medium text-gray-700">
        {t("packages.country")}
        <select
          name="country"
          defaultValue={country}
          className="ml-2 rounded-md border border-gray-300 px-2 py-1.5"
          onChange={(event) => event.currentTarget.form?.requestSubmit()}
        >
          {sorted.map((code) => (
            <option key={code} value={code}>
              {names.of(code) ?? code}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50">
        {t("packages.change")}
      </button>
    </Form>
  );
}

export function MethodLogo({ method, name }: { method: string; name: string }) {
  return <img src={methodLogo(method)} alt="" width={48} height={30} className="h-[30px] w-12 shrink-0" aria-hidden="true" data-name={name} />;
}

type ApplePayWindow = Window & { ApplePaySession?: { canMakePayments?: () => boolean } };

function applePayUsable(): boolean {
  try {
    return Boolean((window as ApplePayWindow).ApplePaySession?.canMakePayments?.());
  } catch {
    return false;
  }
}

/** Apple Pay is offered only where the browser says it can pay with it; the server (and a page without JavaScript) shows none. */
function useBrowserSupports(method: PaymentMethod): boolean {
  const usable = useBrowserValue(applePayUsable, false);
  return !method.needs_browser_support || usable;
}

/** docs/product.md §3: a method's transaction costs on this price, beside its name before paying (nothing when it has none). */
function MethodCosts({ method, price, currency }: { method: PaymentMethod; price: number; currency: string }) {
  const { t } = useTranslation("payments");
  const locale = useLocale();
  const costs = transactionCostsFor(method.transaction_costs, price);
  if (costs === 0) return null;
  return (
    <span className="ml-auto text-sm font-normal text-gray-600" data-testid="method-costs">
      {t("methods.costs", { amount: formatMoney(costs, currency, locale) })}
    </span>
  );
}

/** One method as a submit button of a plain POST form to /credits/{id}/{method}. */
function MethodButton({ packageId, method, discountCode, price, currency }: { packageId: number; method: PaymentMethod; discountCode?: string | null; price: number; currency: string }) {
  const supported = useBrowserSupports(method);
  const action = `/credits/${packageId}/${method.id}`;
  // docs/product.md §4 "loading": with JavaScript the chosen method shows it is on its way (and cannot be sent twice).
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  if (!supported) return null;
  if (method.mandate_form) {
    // Direct debit: our own form (account, address, a code by SMS) instead of a provider's checkout.
    const query = new URLSearchParams({ package: String(packageId), ...(discountCode ? { code: discountCode } : {}) });
    return (
      <li>
        <Link
          to={`/directdebit?${query}`}
          className="flex w-full items-center gap-3 rounded-xl bg-white px-4 py-3 text-left font-medium text-gray-900 shadow-sm ring-1 ring-gray-200 hover:text-gray-900 hover:ring-primary"
          data-testid={`method-${method.id}`}
        >
          <MethodLogo method={method.id} name={method.name} />
          <span>{method.name}</span>
          <MethodCosts method={method} price={price} currency={currency} />
        </Link>
      </li>
    );
  }
  return (
    <li>
      <Form method="post" action={action}>
        {discountCode ? <input type="hidden" name="discount_code" value={discountCode} /> : null}
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy}
          className="flex w-full items-center gap-3 rounded-xl bg-white px-4 py-3 text-left font-medium text-gray-900 shadow-sm ring-1 ring-gray-200 hover:ring-primary disabled:opacity-60"
          data-testid={`method-${method.id}`}
        >
          <MethodLogo method={method.id} name={method.name} />
          <span>{method.name}</span>
          <MethodCosts method={method} price={price} currency={currency} />
        </button>
      </Form>
    </li>
  );
}

/** The methods for a package; `price` (minor units, after any discount) and `currency` give each method's transaction costs. */
export function MethodList({ packageId, methods, exclude, discountCode, price, currency }: { packageId: number; methods: PaymentMethod[]; exclude?: string; discountCode?: string | null; price: number; currency: string }) {
  return (
    <ul className="mt-4 grid gap-2 sm:grid-cols-2" data-testid="methods">
      {methods
        .filter((m) => m.id !== exclude)
        .map((method) => (
          <MethodButton key={method.id} packageId={packageId} method={method} discountCode={discountCode} price={price} currency={currency} />
        ))}
    </ul>
  );
}
