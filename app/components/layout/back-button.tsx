import { useSyncExternalStore } from "react";
import { useLocation, useNavigate } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ChevronLeftIcon } from "../ui/icons";

/** docs/product.md §2: the pages that get a back button in standalone (installed app) mode, where the browser shows none. */
const backPages = [/^\/members\/\d+$/, /^\/likes\/[^/]+$/, /^\/likes\/m\/\d+$/, /^\/credits$/, /^\/credits\/[^/]+(\/[^/]+)?$/];

export function hasBackButton(path: string): boolean {
  return backPages.some((pattern) => pattern.test(path));
}

const standaloneQuery = "(display-mode: standalone)";

function subscribeDisplayMode(onChange: () => void): () => void {
  const query = window.matchMedia(standaloneQuery);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * Shown only in standalone mode, when there is history to go back to, on the pages above. Only the
 * browser knows the display mode and the history, so the server renders nothing.
 */
export function BackButton() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  // Read again on every render (each navigation renders, and lengthens the history); the server says no.
  const standalone = useSyncExternalStore(subscribeDisplayMode, () => window.matchMedia(standaloneQuery).matches && window.history.length > 1, () => false);
  if (!standalone || !hasBackButton(location.pathname)) return null;
  return (
    <button type="button" onClick={() => navigate(-1)} className="-ml-1 rounded-md p-1.5 text-gray-700 hover:bg-gray-100" data-testid="back-button">
      <ChevronLeftIcon />
      <span className="sr-only">{t("nav.back")}</span>
    </button>
  );
}
