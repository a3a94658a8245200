/**
 * The services as JavaScript for `npm start` (plain `node`, no TypeScript compiler at run time): scripts/start.ts,
 * api/main.ts and server/main.ts bundled by esbuild into build/services/ (start.js, api.js, web.js and the chunks they
 * share). Packages stay imports of node_modules (`packages: "external"`), so native and wasm packages (sharp, PGlite)
 * load as they do from the source; the project's own modules (api/, server/, contract/, what server/ takes from app/)
 * are bundled. The api reads its data files (migrations, SQL functions, locales, public/gifs) from the project folder
 * (api/project-files.ts); web reads the Remix build in build/server and build/client as before.
 *
 * `node scripts/build-services.mjs`: build. `--if-stale`: build only when build/services is missing or one of the
 * files it was made from (esbuild's metafile lists them), package.json or package-lock.json is newer than it.
 * A plain .mjs file, so that `npm start` can run it on a fresh clone before anything is compiled.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "build", "services");
const metaFile = path.join(outdir, "meta.json");

/** True when build/services is missing or older than a file it was built from. */
function stale() {
  if (!existsSync(metaFile)) return true;
  const builtAt = statSync(metaFile).mtimeMs;
  const meta = JSON.parse(readFileSync(metaFile, "utf8"));
  const inputs = [...meta.inputs, "package.json", "package-lock.json", "scripts/build-services.mjs"];
  return inputs.some((input) => {
    const file = path.join(root, input);
    return !existsSync(file) || statSync(file).mtimeMs > builtAt;
  });
}

if (process.argv.includes("--if-stale") && !stale()) process.exit(0);

// esbuild (a dev dependency) only when there is something to build: a fresh build runs without it.
const { build } = await import("esbuild");
const started = Date.now();
// No chunk of an earlier build left beside the new ones.
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { start: "scripts/start.ts", api: "api/main.ts", web: "server/main.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // Vite is web's dev server only (server/main.ts imports it in development mode): never in the production bundle.
  external: ["vite"],
  sourcemap: "linked",
  metafile: true,
  logLevel: "warning",
  // Chunks named by content, so a rebuild never mixes an old chunk with a new entry.
  chunkNames: "chunks/[name]-[hash]",
});
writeFileSync(metaFile, JSON.stringify({ inputs: Object.keys(result.metafile.inputs) }));
console.log(`services compiled into build/services (${((Date.now() - started) / 1000).toFixed(1)} s)`);
