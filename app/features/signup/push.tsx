import { useEffect, useState } from "react";
import { useBrowserValue } from "~/utils/hydrated";
import { useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button, ButtonLink } from "~/components/ui/button";

/*
 * docs/product.md §4 Push: unknown (null) -> capable or not -> subscribed, denied or false (failed).
 * The server renders "unknown"; only a browser running JavaScript can find out more.
 */
export type PushState = "unknown" | "not_capable" | "capable" | "subscribing" | "subscribed" | "denied" | "failed";

function pushCapable(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Asks for permission, subscribes through /sw-push.js and hands the subscription to the api (docs/product.md §7). */
async function subscribe(publicKey: string): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "denied";
  const registration = await navigator.serviceWorker.register("/sw-push.js");
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) });
  const response = await fetch("/api/user.php?push=1", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ subscription: subscription.toJSON() }),
  });
  return response.ok ? "subscribed" : "failed";
}

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

/** A pushed message reloads chats and likes (docs/product.md §7): the service worker tells the open pages, which revalidate. */
export function PushMessages() {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === "push") revalidator.revalidate();
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, [revalidator]);
  return null;
}
