/**
 * Vite config of the bench's `bare Remix` ceiling (bench/bare-remix): the same Remix plugin and
 * future flags as the app's vite.config.ts, without Tailwind, rooted in this folder. Built by
 * bench/run.ts with `npx remix vite:build bench/bare-remix` (the CLI's root argument; with only
 * --config it would take the repository's app/) into node_modules/.cache/bench-bare-remix (paths.ts).
 */
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { bareRemixBuild, bareRemixRoot } from "./paths";

export default defineConfig({
  root: bareRemixRoot,
  logLevel: "warn",
  build: { emptyOutDir: true },
  plugins: [
    remix({
      appDirectory: "app",
      buildDirectory: bareRemixBuild,
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: true,
      },
    }),
  ],
});
