import i18next, { type TFunction } from "i18next";
import { useMemo } from "react";

/**
 * The staff texts (locales/en/staff.json, the parts a page's loader sends) through i18next, so a page writes
 * `t("members.detail.booked", { count, name })` with i18next's interpolation and plurals, as member pages do. The staff
 * side is English only, and the browser gets only the texts its page shows rather than the whole namespace.
 */
export function staffTranslator(texts: object): TFunction {
  const instance = i18next.createInstance();
  void instance.init({ lng: "en", fallbackLng: false, ns: ["staff"], defaultNS: "staff", resources: { en: { staff: texts as Record<string, unknown> } }, initImmediate: false, interpolation: { escapeValue: false } });
  return instance.getFixedT("en", "staff");
}

/** staffTranslator for a page component, made once per set of texts. */
export function useStaffT(texts: object): TFunction {
  return useMemo(() => staffTranslator(texts), [texts]);
}
