import path from "node:path";
import type { Plugin } from "vite";

/**
 * The client build's two stand-ins for packages (docs/decisions/027-browser-stand-ins-for-react-i18next-and-jotai.md),
 * the one place that swaps a package for the app's own module; the server build keeps the real packages.
 * - `react-i18next` is app/utils/i18n-browser.ts, a small translator (ADR 005): without it every page's first-load
 *   JavaScript grows by 15.1 KB gzip (react-i18next and i18next), past the 100 KB budget.
 * - `./utils/store-scope` (imported by app/root.tsx alone) is app/utils/store-scope.browser.tsx: jotai's Provider is
 *   one store per server render; the browser's one page uses jotai's default store, so jotai loads only with the parts
 *   that use atoms.
 * tests/unit/patches.test.ts fails when react-i18next or jotai is upgraded, or app/ imports from react-i18next what the
 * stand-in does not export: check the stand-ins against the new version, then move the pinned versions there.
 */
export const standInFor = {
  "react-i18next": "app/utils/i18n-browser.ts",
  "./utils/store-scope": "app/utils/store-scope.browser.tsx",
} as const;

export function browserStandIns(): Plugin {
  const standIns: Record<string, string> = Object.fromEntries(Object.entries(standInFor).map(([source, file]) => [source, path.resolve(file)]));
  return {
    name: "rendezvous-browser-stand-ins",
    enforce: "pre",
    resolveId(source, importer, options) {
      if (options.ssr) return null;
      // A relative stand-in only for the one file that imports it that way (root.tsx).
      if (source.startsWith(".") && importer !== path.resolve("app/root.tsx")) return null;
      return standIns[source] ?? null;
    },
  };
}
