import { useFetcher, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useBrowserValue } from "~/utils/hydrated";
import { useEntryWarningVisible } from "./entry-warning-visible";
import type { LayoutName } from "~/components/layout/layouts";
import { useRootData } from "~/utils/root-data";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";

/**
 * The site-entry warning: no footer, no close button, only the way in (which stores the skipped
 * timestamp) or out. A plain form without JavaScript; with it, it hides at once.
 */
export function EntryWarning({ layout }: { layout: LayoutName }) {
  const { t } = useTranslation();
  const location = useLocation();
  const fetcher = useFetcher();
  const root = useRootData();
  const visible = useEntryWarningVisible(layout);
  // In an installed app the stylesheet hides the server's warning; after hydration it is not made modal at all.
  const standalone = useBrowserValue(() => window.matchMedia("(display-mode: standalone)").matches, false);
  if (!visible || standalone || fetcher.state !== "idle" || fetcher.data !== undefined) return null;
  return (
    // docs/product.md §2: no close button; neither Escape nor a click outside closes it, only passing it.
    <Modal title={t("entryWarning.title")} titleClassName="text-xl font-bold text-gray-900" size="md" backdropClassName="entry-warning bg-gray-900/80" testId="entry-warning">
      <p className="mt-3 text-gray-700">{t("entryWarning.body", { site: root?.site.name })}</p>
      <p className="mt-2 text-sm text-gray-500">{t("entryWarning.consent")}</p>
      <fetcher.Form method="post" action="/site-entry" className="mt-6 flex flex-col gap-3">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <Button type="submit" autoFocus>
          {t("entryWarning.enter")}
        </Button>
        <a href="https://www.google.com/" rel="noreferrer" className="text-center text-sm text-gray-500 hover:text-gray-700">
          {t("entryWarning.leave")}
        </a>
      </fetcher.Form>
    </Modal>
  );
}
