/* global self, fetch */
/*
 * Spolu's service worker: shows the push notifications the server sends (lib/push/service.ts) and opens their page
 * when clicked. A message is JSON: { title, body, url, tag, data }. Only pages of this site are opened.
 */

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function readMessage(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { body: event.data.text() };
  }
}

/** The page to open: a path or URL of this site; anything else (another site, javascript:...) opens the start page. */
function pageUrl(url) {
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  const message = readMessage(event);
  const options = {
    body: typeof message.body === "string" ? message.body : "",
    data: { url: pageUrl(message.url), ...(message.data && typeof message.data === "object" ? message.data : {}) },
  };
  if (typeof message.tag === "string" && message.tag) {
    options.tag = message.tag;
    // A newer message with the same tag replaces the older one and alerts again.
    options.renotify = true;
  }
  const title = typeof message.title === "string" && message.title ? message.title : "Spolu";
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = pageUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url && "focus" in client);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    }),
  );
});

// The browser renewed the subscription (keys or endpoint changed): subscribe again with the same server key and tell
// the server, which stores it for the user signed in on this browser (the session cookie goes along).
self.addEventListener("pushsubscriptionchange", (event) => {
  const previous = event.oldSubscription;
  const key = previous && previous.options && previous.options.applicationServerKey;
  if (!key) return;
  event.waitUntil(
    self.registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: key })
      .then((subscription) =>
        fetch("/api/v1/push/subscriptions", {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(subscription.toJSON()),
        }),
      )
      .catch(() => undefined),
  );
});
