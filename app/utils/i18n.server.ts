import i18next, { type i18n as I18n, type Resource, type TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { locales, type Locale } from "#contract/locales";
import { clientNamespaces, i18nConfig } from "./i18n";

const files = import.meta.glob<{ default: Record<string, unknown> }>("../../locales/*/*.json", { eager: true });

export const resources: Resource = {};
for (const [file, module] of Object.entries(files)) {
  const match = /locales\/([a-z]{2})\/([\w-]+)\.json$/.exec(file);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  (resources[lng] ??= {})[ns] = module.default;
}
export const namespaces = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

/** One instance holding every locale; per request we clone it (shared store, no re-init). */
const shared: I18n = i18next.createInstance();
void shared.init({ ...i18nConfig, ns: namespaces, resources, initImmediate: false });

/** remix-i18next collects the namespaces the matched routes declare in `handle.i18n`. */
export const remixI18n = new RemixI18Next({
  detection: { supportedLanguages: [...locales], fallbackLanguage: "en" },
  i18next: { ...i18nConfig, resources },
});

/**
 * One clone per locale, made on first use and kept: a render only reads from it (nothing on the server changes its
 * language or adds resources), so concurrent requests share it. A clone per request cost web about 0.3 ms a page.
 */
const perLocale = new Map<Locale, I18n>();

export function instanceFor(locale: Locale): I18n {
  let instance = perLocale.get(locale);
  if (!instance) {
    instance = shared.cloneInstance({ lng: locale, initImmediate: false });
    rememberPlainTexts(instance, locale);
    perLocale.set(locale, instance);
  }
  return instance;
}

/** The most texts a locale's instance remembers (keys come from the code, but a key may be built from a value). */
const rememberedTextsPerLocale = 5000;

/**
 * A locale's texts without values to put in (no count, context or interpolation) are the same on every render, and
 * i18next looks each up again on every call: a logged-in `/members` page made enough calls for i18next to take 0.7 ms
 * of web's CPU a page under bench/profile.ts. Such a call is answered from a map after its first time. Every
 * option other than the namespace and this locale (a count, a context, a value, a default value, a key prefix, other
 * languages) goes to i18next as before, and so does a key that is no string or an answer that is no string.
 */
function rememberPlainTexts(instance: I18n, locale: Locale): void {
  const translate = instance.t.bind(instance) as (key: unknown, options?: unknown) => unknown;
  const remembered = new Map<string, string>();
  const rememberAs = (key: unknown, options: unknown): string | null => {
    if (typeof key !== "string") return null;
    if (options === undefined) return `\u0000${key}`;
    if (typeof options !== "object" || options === null) return null;
    let ns = "";
    for (const [name, value] of Object.entries(options)) {
      if (value === undefined || value === null) continue;
      if (name === "lng" && value === locale) continue;
      if (name !== "ns") return null;
      if (typeof value === "string") ns = value;
      else if (Array.isArray(value) && value.every((n) => typeof n === "string")) ns = value.join(",");
      else return null;
    }
    return `${ns}\u0000${key}`;
  };
  instance.t = ((key: unknown, options?: unknown) => {
    const as = rememberAs(key, options);
    if (as === null) return translate(key, options);
    const known = remembered.get(as);
    if (known !== undefined) return known;
    const text = translate(key, options);
    if (typeof text === "string" && remembered.size < rememberedTextsPerLocale) remembered.set(as, text);
    return text;
  }) as I18n["t"];
}

export function fixedT(locale: Locale, ns: string | string[] = "common"): TFunction {
  return shared.getFixedT(locale, ns);
}

/** What the browser needs to render in `locale`: its client namespaces only. */
export function clientResources(locale: Locale): Record<string, unknown> {
  return Object.fromEntries(clientNamespaces.map((ns) => [ns, resources[locale]?.[ns] ?? {}]));
}

/**
 * A page's meta description (every page has one, in its language), from the server-only namespace
 * locales/<lng>/meta.json. The route's loader returns it as `description`; its meta puts it in the head (pageMeta).
 */
export function metaDescription(locale: Locale, key: string, values?: Record<string, string | number>): string {
  return fixedT(locale, "meta")(`description.${key}`, values ?? {});
}
