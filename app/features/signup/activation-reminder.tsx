import { useFetcher, useLocation, useMatches, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import { Button } from "~/components/ui/button";
import { whenShown } from "~/utils/when-shown";

// The modal (a smartphone arriving from signup) loads its code, and the Modal's, only where it shows.
const ActivationReminderModal = whenShown("ActivationReminderModal", () => import("./activation-reminder-modal").then((m) => m.ActivationReminderModal));

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
  const location = useLocation();
  const fetcher = useFetcher();
  const notice = useNotice();
  return (
    <fetcher.Form method="post" action="/activation-mail" className="mt-3 flex flex-wrap items-center gap-3">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search.replace(/[?&]activation=\w+/, "")} />
      <Button disabled={fetcher.state !== "idle"} variant="secondary" size="sm">
        {t("reminder.resend")}
      </Button>
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
 * `modalOnly`: the modal or nothing (the chat layout, where the composer carries the reminder).
 */
export function ActivationReminder({ modalOnly = false }: { modalOnly?: boolean }) {
  const { t } = useTranslation();
  const root = useRootData();
  const matches = useMatches();
  const [params] = useSearchParams();
  const location = useLocation();
  if (!root?.activationReminder.show) return null;
  if (matches.some((m) => (m.handle as { hideActivationReminder?: boolean } | undefined)?.hideActivationReminder)) return null;
  const asModal = params.has("api_signup_complete") && root.activationReminder.smartphone;
  const body = (
    <>
      <p className="mt-1 text-sm text-gray-700">{t("reminder.body")}</p>
      <ResendActivationForm />
    </>
  );
  if (asModal) {
    // Closing leaves the page without api_signup_complete, where the reminder is the alert below.
    const rest = new URLSearchParams(params);
    rest.delete("api_signup_complete");
    return <ActivationReminderModal closeHref={location.pathname + (rest.size ? `?${rest}` : "")} />;
  }
  if (modalOnly) return null;
  return (
    <div role="alert" className="border-b border-amber-200 bg-amber-50" data-testid="activation-reminder">
      <div className="container py-3">
        <p className="font-semibold text-gray-900">{t("reminder.title")}</p>
        {body}
      </div>
    </div>
  );
}
