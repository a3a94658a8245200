import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import { afterHydration } from "~/utils/when-shown";

// Push needs JavaScript, and whether this browser can push (or has subscribed already) is known only after hydration.
const PushAlert = afterHydration(() => import("~/features/push/push-alert").then((m) => m.PushAlert));

/** The dismissible banners of app/features/members/member-alerts.server.ts; "Hide" works as a plain form and hides at once with JavaScript. */
export function MemberAlerts() {
  const root = useRootData();
  const alerts = root?.alerts ?? [];
  if (alerts.length === 0) return null;
  return (
    <>
      {alerts.map((alert) =>
        alert.key === "hide-push-notification-alert" ? (
          <PushAlert key={alert.key} publicKey={alert.publicKey} />
        ) : (
          <MemberAlertBanner key={alert.key} dismissKey={alert.key}>
            {alert.key === "hide-disabled-notifications-alert" ? <DisabledNotifications reasons={alert.reasons} /> : <Enrich />}
          </MemberAlertBanner>
        ),
      )}
    </>
  );
}

/**
 * One dismissible banner. `floating`: a card fixed at the bottom of the window, for a banner that appears only after
 * hydration (the push alert): in the page's flow it would push the page down once it is read (layout shift).
 */
export function MemberAlertBanner({ dismissKey, floating = false, children }: { dismissKey: string; floating?: boolean; children: React.ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const fetcher = useFetcher();
  if (fetcher.state !== "idle" || fetcher.data !== undefined) return null;
  return (
    // A landmark, not role="alert": a standing banner should not be announced again on every page.
    <aside
      aria-label={t("alerts.label")}
      className={floating ? "fixed inset-x-0 bottom-0 z-30 border-t border-sky-200 bg-sky-50 shadow-lg sm:inset-x-auto sm:right-4 sm:bottom-4 sm:w-96 sm:rounded-2xl sm:border" : "border-b border-sky-200 bg-sky-50"}
      data-testid={`alert-${dismissKey}`}
    >
      <div className={floating ? "flex items-start justify-between gap-4 p-4" : "container flex items-start justify-between gap-4 py-3"}>
        <div className="min-w-0 text-sm text-gray-800">{children}</div>
        <fetcher.Form method="post" action="/dismiss">
          <input type="hidden" name="key" value={dismissKey} />
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <button type="submit" className="shrink-0 rounded-full px-3 py-1 text-sm font-semibold text-gray-700 ring-1 ring-gray-300 hover:bg-white">
            {t("alerts.hide")}
          </button>
        </fetcher.Form>
      </div>
    </aside>
  );
}

/** Why we stopped e-mailing (docs/product.md §3 reasons) and the way back: a new address after a bounce, else turning e-mails on again. */
function DisabledNotifications({ reasons }: { reasons: readonly ("fbl" | "bounce" | "listunsubscribe")[] }) {
  const { t } = useTranslation();
  const bounced = reasons.includes("bounce");
  const stopped = reasons.some((reason) => reason !== "bounce");
  return (
    <>
      <p className="font-semibold text-gray-900">{t("alerts.disabledNotifications.title")}</p>
      {reasons.map((reason) => (
        <p key={reason} className="mt-1" data-testid={`disabled-reason-${reason}`}>
          {t(`alerts.disabledNotifications.${reason}`)}
        </p>
      ))}
      {bounced ? (
        <p className="mt-1">
          {t("alerts.disabledNotifications.bounceFix")}{" "}
          <Link to="/profile/account" className="font-semibold text-primary underline">
            {t("alerts.disabledNotifications.bounceLink")}
          </Link>
        </p>
      ) : null}
      {stopped ? (
        <p className="mt-1">
          {t("alerts.disabledNotifications.resumeFix")}{" "}
          <Link to="/notifications" className="font-semibold text-primary underline">
            {t("alerts.disabledNotifications.resumeLink")}
          </Link>
        </p>
      ) : null}
    </>
  );
}

function Enrich() {
  const { t } = useTranslation();
  return (
    <>
      <p className="font-semibold text-gray-900">{t("alerts.enrich.title")}</p>
      <p className="mt-1">
        {t("alerts.enrich.body")}{" "}
        <Link to="/profile/photos" className="font-semibold text-primary underline">
          {t("alerts.enrich.link")}
        </Link>
      </p>
    </>
  );
}
