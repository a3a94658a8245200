import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Full browsers: the only ones with web push (PushManager and Notification), which tests/e2e/push-step.spec.ts needs. */
const fullBrowsers = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];
/**
 * Debian's chromium-headless-shell first: the headless-only build Playwright itself uses for headless runs. The
 * browser tests took 28% less time with it than with the full browser in headless mode (docs/testing.md).
 */
const candidates = ["/usr/bin/chromium-headless-shell", ...fullBrowsers];
/** Debian's packages of both. */
const packages = ["chromium-headless-shell", "chromium"];

/** The flags every test browser starts with. */
export const chromiumArgs = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A full Chromium (one that can subscribe to push), or null: CHROMIUM_FULL_PATH, else a system one. */
export function findFullChromium(): string | null {
  const given = process.env.CHROMIUM_FULL_PATH;
  if (given) return existsSync(given) ? given : null;
  return fullBrowsers.find((file) => existsSync(file)) ?? null;
}

/**
 * A Chromium for the browser tests: CHROMIUM_PATH, else a system one. Test tools cannot download
 * browsers here, so with `install` and root on Debian it installs Debian's chromium-headless-shell and chromium
 * packages (the push tests need the full browser).
 */
export function findChromium(options: { install?: boolean } = {}): string | null {
  const given = process.env.CHROMIUM_PATH;
  if (given) return existsSync(given) ? given : null;
  const found = candidates.find((file) => existsSync(file));
  if ((found && findFullChromium()) || !options.install) return found ?? null;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !existsSync("/usr/bin/apt-get")) return null;
  console.log(`\nNo Chromium found: installing Debian's packages (apt-get install -y ${packages.join(" ")})...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  spawnSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: "inherit", env });
  return candidates.find((file) => existsSync(file)) ?? null;
}
