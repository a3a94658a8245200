/**
 * docs/product.md §8 ChunkLoadError: a lazy chunk that fails to load (a deploy replaced it, the network dropped) reloads
 * the page once, unless the page was reloaded for that within the last 60 seconds (then the error shows).
 * Browser code, no dependencies: the entry, whenShown components and the root error boundary call it.
 */
export const chunkReloadWindowMs = 60_000;
const storageKey = "chunk-reload-at";

/** Chromium, Firefox and Safari words for a failed dynamic import, and webpack-style ChunkLoadError. */
const chunkFailure = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading (CSS )?chunk \S+ failed/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return typeof error === "string" && chunkFailure.test(error);
  return error.name === "ChunkLoadError" || chunkFailure.test(error.message);
}

/** Reload unless the last reload (ms since the epoch) was less than the window ago. */
export function shouldReload(lastReloadAt: number | null, now: number): boolean {
  if (lastReloadAt === null || !Number.isFinite(lastReloadAt)) return true;
  const since = now - lastReloadAt;
  return since < 0 || since >= chunkReloadWindowMs;
}

/** Reloads the page for a chunk error under the rule above; true when it does. */
export function reloadForChunkError(error: unknown): boolean {
  if (typeof window === "undefined" || !isChunkLoadError(error)) return false;
  let last: number | null = null;
  try {
    const stored = window.sessionStorage.getItem(storageKey);
    last = stored === null ? null : Number(stored);
  } catch {
    // storage refused (privacy mode): reload at most as Remix would, once per error
  }
  const now = Date.now();
  if (!shouldReload(last, now)) {
    console.warn(`A part of the page failed to load again less than ${chunkReloadWindowMs / 1000} s after the last reload: not reloading again.`);
    return false;
  }
  try {
    window.sessionStorage.setItem(storageKey, String(now));
  } catch {
    return false; // without a record of it a reload could repeat forever
  }
  window.location.reload();
  return true;
}

/** Dynamic imports outside React (a rejected import() nobody caught). */
export function watchChunkErrors(): void {
  window.addEventListener("unhandledrejection", (event) => {
    if (reloadForChunkError(event.reason)) event.preventDefault();
  });
  window.addEventListener("error", (event) => {
    reloadForChunkError(event.error ?? event.message);
  });
}
