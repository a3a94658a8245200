import { translationUrls } from "virtual:i18n-assets";
import type { Locale } from "#contract/locales";

const elementId = "i18n-resources";

/**
 * ADR 005: the active locale's client namespaces are one content-hashed JSON file (cached for good),
 * not inline in every page. The server renders every text; the browser fetches this file while its
 * scripts load and needs it only to hydrate and to navigate.
 */
export function TranslationsPreload({ locale }: { locale: Locale }) {
  return <link id={elementId} rel="preload" as="fetch" crossOrigin="anonymous" href={translationUrls[locale]} />;
}

/** The client namespaces the page preloads, or null when they cannot be had. */
export async function loadTranslations(): Promise<Record<string, Record<string, unknown>> | null> {
  const href = document.getElementById(elementId)?.getAttribute("href");
  if (!href) return null;
  try {
    const response = await fetch(href, { credentials: "same-origin" });
    return response.ok ? ((await response.json()) as Record<string, Record<string, unknown>>) : null;
  } catch {
    return null;
  }
}
