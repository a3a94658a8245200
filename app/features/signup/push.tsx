import { useState } from "react";
import { useBrowserValue } from "~/utils/hydrated";
import { useTranslation } from "react-i18next";
import { Button, ButtonLink } from "~/components/ui/button";
import { pushCapable, subscribe } from "~/features/push/push-browser";
import type { PushState } from "~/features/push/push-state";

/** Signup step 1: turn on notifications, or go on without them. `next` is the following step. */
export function PushStep({ publicKey, next }: { publicKey: string; next: string }) {
  const { t } = useTranslation();
  // What the browser can do, known only in the browser; then the outcome of pressing the button.
  const initial = useBrowserValue((): PushState => (!pushCapable() ? "not_capable" : Notification.permission === "denied" ? "denied" : "capable"), "unknown");
  const [outcome, setState] = useState<PushState | null>(null);
  const state = outcome ?? initial;

  async function turnOn() {
    setState("subscribing");
    try {
      setState(await subscribe(publicKey));
    } catch {
      setState("failed");
    }
  }

  return (
    <div className="mt-4 space-y-4" data-testid="push-step" data-state={state}>
      <p className="text-gray-700">{t("steps.push.body")}</p>
      {state === "capable" || state === "subscribing" ? (
        <Button
          type="button"
          onClick={() => void turnOn()}
          disabled={state === "subscribing"}
          size="xl" block
        >
          {state === "subscribing" ? t("steps.push.turningOn") : t("steps.push.turnOn")}
        </Button>
      ) : null}
      {state === "unknown" ? <p className="text-sm text-gray-600">{t("steps.push.needsJavaScript")}</p> : null}
      {state === "not_capable" ? <p className="text-sm text-gray-600">{t("steps.push.notCapable")}</p> : null}
      {state === "denied" ? <p role="alert" className="text-sm text-gray-700">{t("steps.push.denied")}</p> : null}
      {state === "failed" ? <p role="alert" className="text-sm text-red-700">{t("steps.push.failed")}</p> : null}
      {state === "subscribed" ? (
        <>
          <p role="status" className="font-semibold text-green-700">{t("steps.push.subscribed")}</p>
          <ButtonLink to={next} size="xl" block>
            {t("steps.push.continue")}
          </ButtonLink>
        </>
      ) : null}
    </div>
  );
}
