import { useEffect, useState } from "react";
import { readBrowserPush, subscribe, unsubscribe } from "./push-browser";
import { browserPushState, type PushState } from "./push-state";

export type PushSwitchTexts = { label: string; on: string; off: string; notCapable: string; denied: string; failed: string };

/**
 * The /notifications push switch (docs/product.md §4 Push): whether this browser gets push notifications, and the
 * switch that subscribes it (as the signup push step does) or unsubscribes it. Mounted after hydration only (the
 * page says push needs JavaScript without it); the texts come from the page's loader (the notifications namespace
 * stays on the server).
 */
export function PushSwitch({ publicKey, texts }: { publicKey: string; texts: PushSwitchTexts }) {
  const [state, setState] = useState<PushState>("unknown");
  // Whether this browser holds a subscription, and whether the last change failed.
  const [on, setOn] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    void readBrowserPush().then((browser) => {
      if (!live) return;
      const initial = browserPushState(browser);
      setState(initial);
      setOn(initial === "subscribed");
    });
    return () => {
      live = false;
    };
  }, []);

  async function change(turnOn: boolean) {
    setState("subscribing");
    setFailed(false);
    let result: PushState;
    try {
      result = turnOn ? await subscribe(publicKey) : await unsubscribe();
    } catch {
      result = "failed";
    }
    if (result === "failed") {
      // Nothing changed: the switch goes back to where it was.
      setFailed(true);
      setState(on ? "subscribed" : "capable");
      return;
    }
    setOn(result === "subscribed");
    setState(result);
  }

  if (state === "unknown") return null;
  if (state === "not_capable") return <p className="text-gray-700">{texts.notCapable}</p>;
  if (state === "denied") {
    return (
      <p className="text-gray-700" data-testid="push-switch-denied">
        {texts.denied}
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <label className="flex items-center justify-between gap-4">
        <span className="text-gray-900">{texts.label}</span>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={state === "subscribing"}
          onChange={(event) => void change(event.currentTarget.checked)}
          className="h-5 w-5 accent-primary"
          data-testid="push-switch"
        />
      </label>
      <p role="status" className="text-sm text-gray-600" data-testid="push-switch-state">
        {state === "subscribing" ? null : on ? texts.on : texts.off}
      </p>
      {failed ? (
        <p role="alert" className="text-sm text-red-700">
          {texts.failed}
        </p>
      ) : null}
    </div>
  );
}
