import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

/**
 * A Chromium for the browser tests: CHROMIUM_PATH, else a system one. Test tools cannot download
 * browsers here, so with `install` and root on Debian it installs Debian's chromium package.
 */
export function findChromium(options: { install?: boolean } = {}): string | null {
  const given = process.env.CHROMIUM_PATH;
  if (given) return existsSync(given) ? given : null;
  const found = candidates.find((file) => existsSync(file));
  if (found || !options.install) return found ?? null;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !existsSync("/usr/bin/apt-get")) return null;
  console.log("\nNo Chromium found: installing Debian's chromium package (apt-get install -y chromium)...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  return candidates.find((file) => existsSync(file)) ?? null;
}
