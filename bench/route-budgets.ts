import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSize } from "./http";

/** docs/performance-history.md: every member page's first-load JavaScript, gzip, at most this. */
export const firstLoadBudgetBytes = 100 * 1024;

/**
 * ADR 031: the staff console's pages (desktops on office connections: forms, dialogs, charts) may load up to this,
 * and the member profile page, over the member budget since its forms grew, up to its measured size until its
 * location fields load lazily. Every other page keeps firstLoadBudgetBytes.
 */
export function firstLoadBudgetOf(route: string): number {
  if (route === "routes/staff" || route.startsWith("routes/staff.") || route.startsWith("routes/staff_")) return 110 * 1024;
  if (route === "routes/profile") return Math.round(100.5 * 1024);
  return firstLoadBudgetBytes;
}

type Manifest = { entry: { module: string; imports?: string[] }; routes: Record<string, { module: string; imports?: string[]; hasLoader?: boolean }> };
export type RouteFirstLoad = { route: string; files: number; gzip: number };

/**
 * The first-load JavaScript of every route of a production build, from its Remix manifest: the entry, the root and
 * the route, each with its static imports (what a page of the route preloads; the manifest itself is inline in the
 * page). Measured as `npm run bench` measures served pages (gzip -9), without serving them: so every route, also those
 * the bench does not load.
 */
export function routeFirstLoads(root: string): RouteFirstLoad[] {
  const dir = path.join(root, "build/client/assets");
  const manifestFile = readdirSync(dir).find((file) => file.startsWith("manifest-") && file.endsWith(".js"));
  if (!manifestFile) throw new Error(`no Remix manifest in ${dir}: build first (npx remix vite:build)`);
  const manifest = JSON.parse(readFileSync(path.join(dir, manifestFile), "utf8").replace(/^window.__remixManifest=/, "").replace(/;\s*$/, "")) as Manifest;
  const sizes = new Map<string, number>();
  const gzip = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) sizes.set(file, (size = gzipSize(readFileSync(path.join(root, "build/client", file)))));
    return size;
  };
  return Object.keys(manifest.routes)
    .filter((id) => id !== "root")
    .map((id) => {
      const files = new Set([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
      for (const route of ["root", id]) {
        files.add(manifest.routes[route]!.module);
        for (const file of manifest.routes[route]!.imports ?? []) files.add(file);
      }
      return { route: id, files: files.size, gzip: [...files].reduce((sum, file) => sum + gzip(file), 0) };
    })
    .sort((a, b) => b.gzip - a.gzip);
}
