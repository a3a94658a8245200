import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { isLocale, type Locale } from "#contract/locales";
import type { RootData } from "~/root";

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}

/** The page's locale: the root loader's, or the rendering i18n instance's when the root loader failed. */
export function useLocale(): Locale {
  const root = useRootData();
  const { i18n } = useTranslation();
  return root?.locale ?? (isLocale(i18n.language) ? i18n.language : "en");
}

/** The badge of a site-run profile: the site's own name for one (settings fictional_singular), else the translated one. */
export function useFictionalBadge(): string {
  const { t } = useTranslation();
  return useRootData()?.site.fictional.singular || t("member:fictional.badge");
}
