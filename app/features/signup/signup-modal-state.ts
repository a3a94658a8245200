import { useSyncExternalStore } from "react";

/*
 * Whether the signup modal is open (with JavaScript; without it, signup links go to /signup). A flag that signup
 * links in the navigation set and the modal reads, on every visitor's page: kept here rather than in a jotai atom so
 * that jotai (4 kB gzip) loads only with the pages and parts that use its atoms (the live state, the offers), not
 * with every page (docs/performance-history.md). Only the browser ever sets it: the server always renders it closed.
 */
let open = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setSignupModalOpen(value: boolean): void {
  if (open === value) return;
  open = value;
  for (const listener of listeners) listener();
}

export function useSignupModalOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => false,
  );
}
