import { useFetcher, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useEntryWarningVisible } from "./entry-warning-visible";
import type { LayoutName } from "./layouts";
import { useHref, useRootData } from "./root-data";

/**
 * The site-entry warning: no footer, no close button, only the way in (which stores the skipped
 * timestamp) or out. A plain form without JavaScript; with it, it hides at once.
 */
export function EntryWarning({ layout }: { layout: LayoutName }) {
  const { t } = useTranslation();
  const href = useHref();
  const location = useLocation();
  const fetcher = useFetcher();
  const root = useRootData();
  const visible = useEntryWarningVisible(layout);
  if (!visible || fetcher.state !== "idle" || fetcher.data !== undefined) return null;
  return (
    <div className="entry-warning fixed inset-0 z-50 flex items-center justify-center bg-gray-900/80 p-4" data-testid="entry-warning">
      <div role="dialog" aria-modal="true" aria-labelledby="entry-warning-title" className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl">
        <h2 id="entry-warning-title" className="text-xl font-bold text-gray-900">
          {t("entryWarning.title")}
        </h2>
        <p className="mt-3 text-gray-700">{t("entryWarning.body", { site: root?.site.name })}</p>
        <p className="mt-2 text-sm text-gray-500">{t("entryWarning.consent")}</p>
        <fetcher.Form method="post" action={href("/site-entry")} className="mt-6 flex flex-col gap-3">
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <button type="submit" autoFocus className="rounded-full bg-primary px-4 py-2.5 font-semibold text-white hover:bg-primary-dark">
            {t("entryWarning.enter")}
          </button>
          <a href="https://www.google.com/" rel="noreferrer" className="text-center text-sm text-gray-500 hover:text-gray-700">
            {t("entryWarning.leave")}
          </a>
        </fetcher.Form>
      </div>
    </div>
  );
}
