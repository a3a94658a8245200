/*
 * Push service worker (docs/product.md §7: "A push service worker at /sw-push.js handles push. A pushed message
 * triggers reloading of chats and likes"). A push carries JSON {title, body, url, tag} (api/jobs/push.ts,
 * docs/push.md). Open pages of the site get postMessage({type: "reload"}) so they reload their chats and
 * likes; a notification shows unless a page of the site is focused (the member is looking at it then).
 * A click on the notification focuses a window of the site and takes it to the url, or opens one.
 */

/*
 * Offline page (docs/product.md §1 installable app mode): cached at install in every language (app/routes/($lang).offline.tsx;
 * "/offline" is in the member's own language, by cookie), shown for a navigation the network cannot answer.
 * The languages are contract/locales.ts's; English has no prefix.
 */
const offlineCache = "offline-v1";
const prefixedLocales = ["nl", "de", "it", "fr", "es", "pl", "da", "fi", "nb", "sv"];
const offlinePages = ["/offline", ...prefixedLocales.map((lng) => `/${lng}/offline`)];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(offlineCache)
      .then((cache) => cache.addAll(offlinePages.map((url) => new Request(url, { credentials: "same-origin", cache: "reload" }))))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("offline-") && key !== offlineCache).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate" || event.request.method !== "GET") return;
  event.respondWith(
    fetch(event.request).catch(async () => {
      const lng = new URL(event.request.url).pathname.split("/")[1];
      const page = prefixedLocales.includes(lng) ? `/${lng}/offline` : "/offline";
      return (await caches.match(page)) || (await caches.match("/offline")) || Response.error();
    }),
  );
});

function readPush(data) {
  if (!data) return {};
  try {
    const message = data.json();
    return message && typeof message === "object" ? message : {};
  } catch {
    return { body: data.text() };
  }
}

/** Only a page of this site: a url from the push can never send the member elsewhere. */
function sameOriginUrl(value) {
  try {
    const url = new URL(typeof value === "string" && value ? value : "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + "/";
  } catch {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  const message = readPush(event.data);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) client.postMessage({ type: "reload", message });
      if (windows.some((client) => client.focused)) return undefined;
      const options = {
        body: typeof message.body === "string" ? message.body : "",
        icon: "/icon-32.png",
        data: { url: sameOriginUrl(message.url) },
      };
      if (typeof message.tag === "string" && message.tag) {
        // One notification per conversation (or for likes): a newer push replaces it, and still alerts.
        options.tag = message.tag;
        options.renotify = true;
      }
      return self.registration.showNotification(typeof message.title === "string" && message.title ? message.title : self.location.hostname, options);
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (windows) => {
      const site = windows.filter((client) => new URL(client.url).origin === self.location.origin);
      const there = site.find((client) => client.url === url);
      if (there) return there.focus();
      const open = site.find((client) => client.focused) || site[0];
      if (open) {
        try {
          const focused = await open.focus();
          // navigate() works on pages this worker controls; an uncontrolled one gets a new window instead.
          if (typeof focused.navigate === "function") return await focused.navigate(url);
        } catch {
          // fall through to a new window
        }
      }
      return self.clients.openWindow(url);
    }),
  );
});
