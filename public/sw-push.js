/*
 * Push service worker (spec 7: "A push service worker at /sw-push.js handles push. A pushed message
 * triggers reloading of chats and likes"). A push carries JSON {title, body, url, tag} (api/jobs/push.ts,
 * docs/push.md). Open pages of the site get postMessage({type: "reload"}) so they reload their chats and
 * likes; a notification shows unless a page of the site is focused (the member is looking at it then).
 * A click on the notification focuses a window of the site and takes it to the url, or opens one.
 */
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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
