import type { TFunction } from "i18next";
import { instanceFor } from "~/utils/i18n.server";

/** The staff namespace for loaders and actions (the whole of locales/en/staff.json). */
export function staffT(): TFunction {
  return instanceFor("en").getFixedT("en", "staff");
}
