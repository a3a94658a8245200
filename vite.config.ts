import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { locales } from "./contract/locales";
import { clientNamespaces } from "./app/i18n";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * ADR 005: each locale's client namespaces as one content-hashed JSON file under /assets (served
 * immutable), instead of inline in every page. `virtual:i18n-assets` tells both builds its URLs.
 */
function translationAssets(): Plugin {
  const id = "virtual:i18n-assets";
  const files = () =>
    locales.map((lng) => {
      const data = Object.fromEntries(clientNamespaces.map((ns) => [ns, JSON.parse(readFileSync(path.resolve("locales", lng, `${ns}.json`), "utf8")) as unknown]));
      const source = JSON.stringify(data);
      const hash = createHash("sha256").update(source).digest("base64url").slice(0, 10);
      return { lng, source, fileName: `assets/i18n-${lng}-${hash}.json` };
    });
  return {
    name: "rendezvous-translation-assets",
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(moduleId) {
      if (moduleId !== `\0${id}`) return null;
      const all = files();
      for (const file of all) this.addWatchFile(path.resolve("locales", file.lng));
      return `export const translationUrls = ${JSON.stringify(Object.fromEntries(all.map((f) => [f.lng, `/${f.fileName}`])))};`;
    },
    generateBundle() {
      if (this.environment.name !== "client") return;
      for (const file of files()) this.emitFile({ type: "asset", fileName: file.fileName, source: file.source });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const file = files().find((f) => req.url === `/${f.fileName}`);
        if (!file) return next();
        res.setHeader("Content-Type", "application/json");
        res.end(file.source);
      });
    },
  };
}

/** ADR 005: the browser's components get the small translator of app/i18n-browser.ts for react-i18next. */
function browserTranslator(): Plugin {
  const target = path.resolve("app/i18n-browser.ts");
  return {
    name: "rendezvous-browser-translator",
    enforce: "pre",
    resolveId(source, _importer, options) {
      return source === "react-i18next" && !options.ssr ? target : null;
    },
  };
}

export default defineConfig({
  server: { hmr: false },
  plugins: [
    tailwindcss(),
    translationAssets(),
    browserTranslator(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
  ],
});
