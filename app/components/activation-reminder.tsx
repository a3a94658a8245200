import { useFetcher, useLocation, useMatches, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHref, useRootData } from "./root-data";

const notices = ["sent", "throttled", "failed"] as const;

/** The outcome of the last resend: the action redirects back with ?activation=... (a fetcher's redirect navigates too). */
function useNotice(): (typeof notices)[number] | null {
  const [params] = useSearchParams();
  const value = params.get("activation");
  return notices.find((n) => n === value) ?? null;
}

/** Sends the activation mail again: a plain form (back to this page) that a fetcher speeds up with JavaScript. */
export function ResendActivationForm() {
  const { t } = useTranslation();
  const href = useHref();
  const location = useLocation();
  const fetcher = useFetcher();
  const notice = useNotice();
  return (
    <fetcher.Form method="post" action={href("/activation-mail")} className="mt-3 flex flex-wrap items-center gap-3">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search.replace(/[?&]activation=\w+/, "")} />
      <button type="submit" disabled={fetcher.state !== "idle"} className="rounded-full bg-white px-4 py-1.5 text-sm font-semibold text-primary ring-1 ring-primary hover:bg-primary-light disabled:opacity-60">
        {t("reminder.resend")}
      </button>
      {notice ? (
        <span role="status" className="text-sm text-gray-700" data-testid="activation-notice">
          {t(`reminder.${notice}`)}
        </span>
      ) : null}
    </fetcher.Form>
  );
}

/**
 * docs/product.md §4 activation reminder: when the user is not_confirmed, the profile disabled and no
 * notifications are disabled. A modal on a smartphone arriving with api_signup_complete, else an alert.
 */
export function ActivationReminder() {
  const { t } = useTranslation();
  const root = useRootData();
  const matches = useMatches();
  const [params] = useSearchParams();
  if (!root?.activationReminder.show) return null;
  if (matches.some((m) => (m.handle as { hideActivationReminder?: boolean } | undefined)?.hideActivationReminder)) return null;
  const asModal = params.has("api_signup_complete") && root.activationReminder.smartphone;
  const body = (
    <>
      <p className="font-semibold text-gray-900">{t("reminder.title")}</p>
      <p className="mt-1 text-sm text-gray-700">{t("reminder.body")}</p>
      <ResendActivationForm />
    </>
  );
  if (asModal) {
    return (
      <div className="fixed inset-0 z-40 flex items-end justify-center bg-gray-900/60 p-4 sm:items-center" data-testid="activation-reminder-modal">
        <div role="dialog" aria-modal="true" className="w-full max-w-sm rounded-2xl bg-white p-5 shadow-xl">
          {body}
        </div>
      </div>
    );
  }
  return (
    <div role="alert" className="border-b border-amber-200 bg-amber-50" data-testid="activation-reminder">
      <div className="container py-3">{body}</div>
    </div>
  );
}
