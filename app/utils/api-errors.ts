import type { TFunction } from "i18next";
import type { ApiError } from "#contract/errors";

/** The member-facing text of an api error, in the page's language (errors.* keys mirror contract error codes). */
export function apiErrorMessage(t: TFunction, error: ApiError): string {
  return t(`errors.${error.error}`, { ...error.params, defaultValue: t("errors.generic") });
}
