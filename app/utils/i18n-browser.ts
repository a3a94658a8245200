import { createContext, createElement, useContext, type ReactNode } from "react";

/**
 * The browser's stand-in for i18next and react-i18next (ADR 005). vite.config.ts points the client
 * build's `react-i18next` here; the server keeps the real libraries. It does what this app's
 * components ask of them, no more: `useTranslation(ns)` with `t(key, { count, ns, ...values })`,
 * "ns:key" prefixes, nested keys, `{{value}}` interpolation, plural suffixes (`_zero` for 0, then
 * Intl.PluralRules), and `i18n.language`. A unit test holds its output to i18next's for every key of
 * every locale, so the server's HTML and the browser's first render agree.
 */

type Bundle = Record<string, unknown>;
export type Resources = Record<string, Bundle>;
type Options = { count?: unknown; ns?: string | readonly string[] } & Record<string, unknown>;
export type BrowserT = (key: string, options?: Options) => string;

export class BrowserI18n {
  readonly language: string;
  private readonly resources: Resources;
  private readonly plurals: Intl.PluralRules;
  private readonly fixed = new Map<string, BrowserT>();

  constructor(language: string, resources: Resources) {
    this.language = language;
    this.resources = resources;
    this.plurals = new Intl.PluralRules(language);
  }

  getResourceBundle(_lng: string, ns: string): Bundle | undefined {
    return this.resources[ns];
  }

  /** One `t` per namespace, the same function on every render. */
  getFixedT(_lng: string | null, ns: string): BrowserT {
    let t = this.fixed.get(ns);
    if (!t) {
      t = (key, options) => this.t(key, options, ns);
      this.fixed.set(ns, t);
    }
    return t;
  }

  t(key: string, options: Options = {}, defaultNs = "common"): string {
    let ns = typeof options.ns === "string" ? options.ns : (options.ns?.[0] ?? defaultNs);
    let path = key;
    const colon = key.indexOf(":");
    if (colon > 0) {
      ns = key.slice(0, colon);
      path = key.slice(colon + 1);
    }
    const count = options.count;
    let value: unknown;
    if (typeof count === "number") {
      if (count === 0) value = this.lookup(ns, `${path}_zero`);
      value ??= this.lookup(ns, `${path}_${this.plurals.select(count)}`);
    }
    value ??= this.lookup(ns, path);
    if (typeof value !== "string") return path;
    return value.replace(/\{\{(.+?)\}\}/g, (match, name: string) => {
      let found: unknown = options;
      for (const part of name.trim().replace(/^-\s*/, "").split(".")) found = (found as Record<string, unknown> | undefined)?.[part];
      return found === undefined ? match : found === null ? "" : String(found as string);
    });
  }

  private lookup(ns: string, path: string): unknown {
    let node: unknown = this.resources[ns];
    for (const part of path.split(".")) {
      if (node === null || typeof node !== "object") return undefined;
      node = (node as Bundle)[part];
    }
    return node ?? (this.resources[ns]?.[path] as unknown);
  }
}

let initialised: BrowserI18n | null = null;
const Context = createContext<BrowserI18n | null>(null);

export function I18nextProvider({ i18n, children }: { i18n: BrowserI18n; children?: ReactNode }) {
  initialised ??= i18n;
  return createElement(Context.Provider, { value: i18n }, children);
}

export const initReactI18next = {
  type: "3rdParty" as const,
  init(i18n: BrowserI18n) {
    initialised = i18n;
  },
};

export function useTranslation(ns?: string | readonly string[]) {
  const i18n = useContext(Context) ?? initialised;
  if (!i18n) throw new Error("useTranslation before the translations were loaded");
  const first = (typeof ns === "string" ? ns : ns?.[0]) ?? "common";
  return { t: i18n.getFixedT(null, first), i18n, ready: true };
}
