import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { isLocale, type Locale } from "#contract/locales";
import type { RootData } from "~/root";
import { localizePath } from "~/paths";

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}

/** The page's locale: the root loader's, or the rendering i18n instance's when the root loader failed. */
export function useLocale(): Locale {
  const root = useRootData();
  const { i18n } = useTranslation();
  return root?.locale ?? (isLocale(i18n.language) ? i18n.language : "en");
}

/** Builds links in the page's language: `href("/members")` is "/nl/members" on a Dutch page. */
export function useHref(): (path: string) => string {
  const locale = useLocale();
  return (path: string) => localizePath(locale, path);
}
