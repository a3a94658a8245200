import { useMatches } from "@remix-run/react";
import type { LayoutName } from "~/components/layout/layouts";
import { useRootData } from "~/utils/root-data";

/** docs/product.md §2: chat and lander layouts warn only visitors from NL and DE. */
const strictCountries = ["NL", "DE"];

export function useEntryWarningVisible(layout: LayoutName): boolean {
  const root = useRootData();
  const matches = useMatches();
  if (!root?.entryWarning.eligible || layout === "empty" || layout === "staff") return false;
  if (layout === "chat" || layout === "lander") return strictCountries.includes(root.entryWarning.country ?? "");
  // complete-signup, reset-password and reset-password/do opt out with handle.hideEntryWarning.
  return !matches.some((m) => (m.handle as { hideEntryWarning?: boolean } | undefined)?.hideEntryWarning);
}

