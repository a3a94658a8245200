// Quick first-load JS (gzip) of the main routes from the production build's Remix manifest: entry, root and the route with their imports.
// `node bench/first-load.mjs` after `npx remix vite:build`; the bench (`npm run bench`) measures the same from served pages.
import fs from "node:fs";
import zlib from "node:zlib";

const dir = "build/client/assets/";
const manifestFile = fs.readdirSync(dir).find((f) => f.startsWith("manifest-"));
const manifest = JSON.parse(fs.readFileSync(dir + manifestFile, "utf8").replace(/^window.__remixManifest=/, "").replace(/;\s*$/, ""));
const gzip = (file) => zlib.gzipSync(fs.readFileSync("build/client" + file)).length;
for (const id of ["routes/_index", "routes/login", "routes/members._index", "routes/members.$id", "routes/chats", "routes/chats_.$id", "routes/members_.$id.chat"]) {
  // The manifest itself is inline in the page (v3_lazyRouteDiscovery), not a script of its own.
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of ["root", id]) {
    files.add(manifest.routes[route].module);
    for (const file of manifest.routes[route].imports ?? []) files.add(file);
  }
  const sizes = [...files].map((file) => [file.replace("/assets/", ""), gzip(file)]);
  const total = sizes.reduce((sum, [, bytes]) => sum + bytes, 0);
  console.log(`${id}: ${(total / 1024).toFixed(1)} KiB gzip  ${sizes.map(([f, b]) => `${f} ${(b / 1024).toFixed(1)}`).join(", ")}`);
}
