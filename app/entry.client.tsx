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
void hydrate();
// docs/product.md §1 installable app mode: one service worker for push and the offline page (public/sw-push.js), scope "/".
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw-push.js").catch(() => undefined);
  });
}
