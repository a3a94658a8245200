import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { BrowserI18n, I18nextProvider } from "./utils/i18n-browser";
import { loadTranslations } from "./utils/translations";
import { watchChunkErrors } from "./utils/chunk-reload";
import { preloadShownComponents } from "./utils/when-shown";

async function hydrate() {
  // The server decided the language and rendered every text; the browser never detects (ADR 003) and
  // fetches the active locale's client namespaces, which the page preloads (ADR 005).
  const lng = document.documentElement.lang || "en";
  // The code of the parts the server's HTML shows loads meanwhile (app/utils/when-shown.tsx).
  const [resources] = await Promise.all([loadTranslations(), preloadShownComponents()]);
  // Without its texts the page stays as the server rendered it: links and forms work as without JavaScript.
  if (!resources) {
    console.error("translations unavailable: the page is not hydrated");
    return;
  }
  const i18n = new BrowserI18n(lng, resources);
  // RemixBrowser's first render waits (suspends) for the page's data, which single fetch decodes from the page's stream.
  // A click or a key on the page before React has committed the document makes React hydrate it synchronously, and a
  // synchronous render that suspends at the root throws React error #345 ("Root did not complete"; remix-run/remix#10214).
  // Called here, outside React, RemixBrowser starts that decoding and throws its promise before it uses any hook: once
  // the promise is settled, its render in hydrateRoot does not wait (a decoding error it throws there again).
  try {
    RemixBrowser({});
  } catch (decoding) {
    await decoding;
  }
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

watchChunkErrors();
// The code of a part the server's HTML shows failed to load (preloadShownComponents): the page stays as the server
// rendered it, links and forms working as without JavaScript.
hydrate().catch(console.error);
// docs/product.md §1 installable app mode: one service worker for push and the offline page (public/sw-push.js), scope "/".
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw-push.js").catch(() => undefined);
  });
}
