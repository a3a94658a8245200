import { browserPaths } from "#contract/endpoints/paths";
import type { BrowserPush, PushState } from "./push-state";

/*
 * The browser's side of web push (docs/push.md "Subscribe"): one copy for the signup push step, the members area's
 * push alert and the /notifications switch. Browser only: call from handlers and effects.
 */

const endpoint = `${browserPaths.user}?push=1`;

export function pushCapable(): boolean {
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

/** This browser's subscription for the site, if any (the service worker is registered on every page by entry.client.tsx). */
async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Where this browser stands: its permission for the site and whether it holds a subscription. Never throws. */
export async function readBrowserPush(): Promise<BrowserPush> {
  if (!pushCapable()) return { capable: false, permission: "default", subscribed: false };
  const permission = Notification.permission;
  let subscribed = false;
  if (permission === "granted") {
    try {
      subscribed = (await currentSubscription()) !== null;
    } catch {
      // A browser without a push service (a private window) cannot hold one.
    }
  }
  return { capable: true, permission, subscribed };
}

/** How long the browser's service worker may take to answer before a subscribe counts as failed (the switch frees itself). */
const workerWaitMs = 15_000;

/** The browser's answer, or a rejection once `ms` have passed without one. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The site's service worker, registered by entry.client.tsx on every page: the existing registration when there is
 * one. A second register() of the same script while the page's own is under way could hang in Chromium (seen in the
 * push tests), leaving the switch disabled for good.
 */
async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration("/");
  if (!existing) await navigator.serviceWorker.register("/sw-push.js");
  return navigator.serviceWorker.ready;
}

/** Asks for permission, subscribes through /sw-push.js and hands the subscription to the api (docs/product.md §7). */
export async function subscribe(publicKey: string): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "denied";
  const registration = await within(activeRegistration(), workerWaitMs);
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) });
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ subscription: subscription.toJSON() }),
  });
  return response.ok ? "subscribed" : "failed";
}

/**
 * Stops push in this browser: the api forgets the subscription first (contract/push.ts, `subscription: null`), then the
 * browser drops it. If the api cannot be told, the subscription stays as it was and the answer is "failed".
 */
export async function unsubscribe(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (!subscription) return "capable";
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ subscription: null, endpoint: subscription.endpoint }),
  });
  if (!response.ok) return "failed";
  await subscription.unsubscribe();
  return "capable";
}
