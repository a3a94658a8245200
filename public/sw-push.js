/*
 * Push service worker (spec 7: "A push service worker at /sw-push.js handles push. A pushed message
 * triggers reloading of chats and likes"). A push carries JSON {title, body, url}; the open pages
 * are told to reload their chats and likes, and a notification shows unless a page of the site is
 * focused.
 */
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) client.postMessage({ type: "push", message });
      if (windows.some((client) => client.focused)) return undefined;
      return self.registration.showNotification(message.title || self.location.hostname, {
        body: message.body || "",
        icon: "/icon-32.png",
        data: { url: message.url || "/" },
      });
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
