import type { TFunction } from "i18next";
import { useMemo } from "react";
import { BrowserI18n } from "~/utils/i18n-browser";

/**
 * The staff texts (locales/en/staff.json, the parts a page's loader sends) through the app's translator, so a page
 * writes `t("members.detail.booked", { count, name })` with i18next's interpolation and plurals, as member pages do.
 * It is the browser's small stand-in for i18next (app/utils/i18n-browser.ts, held to i18next's output by its test;
 * typed as i18next's `t`, as the member pages' is), on the server too, so a staff page's JavaScript carries no
 * i18next. The staff side is English only, and the browser gets only the texts its page shows.
 */
export function staffTranslator(texts: object): TFunction {
  return new BrowserI18n("en", { staff: texts as Record<string, unknown> }).getFixedT("en", "staff") as unknown as TFunction;
}

/** staffTranslator for a page component, made once per set of texts. */
export function useStaffT(texts: object): TFunction {
  return useMemo(() => staffTranslator(texts), [texts]);
}
