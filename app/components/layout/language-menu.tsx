import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { Locale } from "#contract/locales";
import { GlobeIcon } from "../ui/icons";
import { useLocale } from "~/utils/root-data";

/** Each language in its own name: these are names, not translations. */
export const languageNames: Record<Locale, string> = {
  en: "English",
  nl: "Nederlands",
  de: "Deutsch",
  it: "Italiano",
  fr: "Français",
  es: "Español",
  pl: "Polski",
  da: "Dansk",
  fi: "Suomi",
  nb: "Norsk bokmål",
  sv: "Svenska",
};

/** A form of buttons inside <details>: it opens and submits without JavaScript. */
export function LanguageMenu({ options }: { options: readonly Locale[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const location = useLocation();
  const current = location.pathname + location.search;
  const choices = options.includes(locale) ? options : [locale, ...options];
  if (choices.length < 2) return null;
  return (
    <details className="relative" data-testid="language-menu">
      {/* The accessible name ("Language EN") contains the visible text (WCAG 2.5.3, axe label-content-name-mismatch). */}
      <summary className="rounded-md px-2 py-1 text-sm text-gray-700 hover:bg-gray-100">
        <span className="flex items-center gap-1">
          <GlobeIcon className="h-4 w-4 max-sm:hidden" />
          <span className="sr-only">{t("nav.language")} </span>
          {locale.toUpperCase()}
        </span>
      </summary>
      {/* A plain form to the unprefixed address, whose handler has no basename to put before the new language's path. */}
      <form method="post" action="/lang-config" className="absolute right-0 z-30 mt-1 w-44 rounded-md border border-gray-200 bg-white py-1 shadow-lg">
        <input type="hidden" name="redirectTo" value={current} />
        {choices.map((code) => (
          <button
            key={code}
            type="submit"
            name="language"
            value={code}
            lang={code}
            aria-current={code === locale ? "true" : undefined}
            className="menu-item"
          >
            {languageNames[code]}
          </button>
        ))}
      </form>
    </details>
  );
}
