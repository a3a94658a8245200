import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's folder: the nearest folder above this module that holds package.json. The same from the source
 * (api/project-files.ts, run through tsx or Vitest) and from the compiled services (build/services/*.js,
 * scripts/build-services.mjs), which bundle this module into a file at another depth: the api's data files (the
 * migrations, the locales' mail texts, the GIF catalogue in public/) are read from the project, not next to the code.
 */
function findProjectRoot(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}: the api cannot find its migrations and locales`);
  }
}

const projectRoot = findProjectRoot();

/** A path inside the project, e.g. projectPath("locales") or projectPath("api", "db", "migrations"). */
export function projectPath(...segments: string[]): string {
  return path.join(projectRoot, ...segments);
}
