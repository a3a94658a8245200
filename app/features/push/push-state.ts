/*
 * docs/product.md §4 Push: unknown (null) -> capable or not -> subscribed, denied or false (failed).
 * The server renders "unknown"; only a browser running JavaScript can find out more. Pure rules, no DOM:
 * tests/unit/rules.test.ts checks them.
 */
export type PushState = "unknown" | "not_capable" | "capable" | "subscribing" | "subscribed" | "denied" | "failed";

/** What a browser says about push for this site: whether it can push at all, its permission, whether it holds a subscription. */
export type BrowserPush = { capable: boolean; permission: NotificationPermission; subscribed: boolean };

/** The state a page starts in: a subscription counts only while the permission is still granted (it can be taken back). */
export function browserPushState(browser: BrowserPush): PushState {
  if (!browser.capable) return "not_capable";
  if (browser.permission === "denied") return "denied";
  if (browser.permission === "granted" && browser.subscribed) return "subscribed";
  return "capable";
}

/**
 * Whether the members area's push alert (docs/product.md §4 hide-push-notification-alert) shows in a browser that
 * starts in `state`: it offers notifications where the browser can push and is not subscribed, and says how to
 * allow them again where the permission was denied. Nothing in a browser that cannot push, or before it is known.
 */
export function pushAlertShows(state: PushState): boolean {
  return state === "capable" || state === "denied";
}
