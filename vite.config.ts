import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { locales } from "./contract/locales";
import { clientNamespaces } from "./app/utils/i18n";
import { browserStandIns } from "./server/patches/browser-stand-ins";

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

type ModuleInfoOf = (id: string) => { importedIds: readonly string[] } | null;
let rootGraph: Set<string> | null = null;

/**
 * Client build: the modules app/root.tsx and app/entry.client.tsx import statically, directly or not,
 * load on every page. Two chunks for them, packages ("vendor", changing with an upgrade) and the app's
 * own ("shell", changing with a deploy), compress better than a dozen small ones.
 */
function rootChunk(id: string, getModuleInfo: ModuleInfoOf): string | undefined {
  if (!rootGraph) {
    const seen = new Set<string>();
    const visit = (module: string) => {
      if (seen.has(module)) return;
      seen.add(module);
      for (const next of getModuleInfo(module)?.importedIds ?? []) visit(next);
    };
    visit(path.resolve("app/root.tsx"));
    visit(path.resolve("app/entry.client.tsx"));
    rootGraph = seen;
  }
  if (!rootGraph.has(id) || id.includes("?") || id.startsWith(path.resolve("app/routes") + path.sep)) return undefined;
  const own = id.startsWith(path.resolve("app") + path.sep) || id.startsWith(path.resolve("contract") + path.sep);
  return own ? "shell" : "vendor";
}

export default defineConfig(({ isSsrBuild }) => ({
  server: { hmr: false },
  build: {
    rollupOptions: {
      output: {
        manualChunks(id, { getModuleInfo }) {
          return isSsrBuild ? undefined : rootChunk(id, getModuleInfo);
        },
      },
    },
  },
  plugins: [
    tailwindcss(),
    translationAssets(),
    browserStandIns(),
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
}));
