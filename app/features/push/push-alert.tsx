import { useEffect, useState } from "react";
import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { MemberAlertBanner } from "~/features/members/member-alerts";
import { readBrowserPush, subscribe } from "./push-browser";
import { browserPushState, pushAlertShows, type PushState } from "./push-state";

/**
 * docs/product.md §4 hide-push-notification-alert: push offered outside the signup (a member who skipped the push
 * step, or signed up in another browser). The root decides who may get it (app/features/members/member-alerts.server.ts);
 * the browser decides whether it applies here (pushAlertShows): it can push and holds no subscription, or the
 * permission was denied, which the alert says how to undo. Mounted after hydration only (afterHydration in
 * member-alerts.tsx): without JavaScript there is no push and no button to show. "Hide" stores the dismissal.
 */
export function PushAlert({ publicKey }: { publicKey: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [initial, setInitial] = useState<PushState>("unknown");
  const [outcome, setOutcome] = useState<PushState | null>(null);
  // The page where notifications were turned on: the alert says so there, and is gone on the next page.
  const [turnedOnAt, setTurnedOnAt] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void readBrowserPush().then((browser) => {
      if (live) setInitial(browserPushState(browser));
    });
    return () => {
      live = false;
    };
  }, []);

  if (!pushAlertShows(initial)) return null;
  if (turnedOnAt !== null && turnedOnAt !== pathname) return null;
  const state = outcome ?? initial;

  async function turnOn() {
    setOutcome("subscribing");
    let result: PushState;
    try {
      result = await subscribe(publicKey);
    } catch {
      result = "failed";
    }
    setOutcome(result);
    if (result === "subscribed") setTurnedOnAt(pathname);
  }

  return (
    <MemberAlertBanner dismissKey="hide-push-notification-alert" floating>
      <p className="font-semibold text-gray-900">{t("alerts.push.title")}</p>
      {state === "denied" ? (
        // Announced when it is the answer to pressing the button; a standing banner is not announced again.
        <p role={outcome === "denied" ? "alert" : undefined} className="mt-1" data-testid="push-alert-denied">
          {t("alerts.push.denied")}
        </p>
      ) : state === "subscribed" ? (
        <p role="status" className="mt-1 font-semibold text-green-700">
          {t("alerts.push.subscribed")}
        </p>
      ) : (
        <>
          <p className="mt-1">{t("alerts.push.body")}</p>
          {state === "failed" ? (
            <p role="alert" className="mt-1 text-red-700">
              {t("alerts.push.failed")}
            </p>
          ) : null}
          <Button type="button" size="sm" className="mt-2" onClick={() => void turnOn()} disabled={state === "subscribing"}>
            {state === "subscribing" ? t("alerts.push.turningOn") : t("alerts.push.turnOn")}
          </Button>
        </>
      )}
    </MemberAlertBanner>
  );
}
