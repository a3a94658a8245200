import { startTransition, useEffect, useState } from "react";

/**
 * Whether React runs in the browser yet: false while rendering on the server and hydrating, true after
 * (until then, forms are plain HTML posts). The switch is a transition: a sync update would reach
 * Suspense boundaries still waiting for their code and make React throw away their server HTML
 * (React error #421). A component mounted later (a client navigation) renders once as on the server,
 * then switches, so hydrating a lazy boundary never differs from the server's HTML.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    startTransition(() => setHydrated(true));
  }, []);
  return hydrated;
}

/** A value only the browser knows (`read`), `serverValue` on the server and until hydration is over. */
export function useBrowserValue<T>(read: () => T, serverValue: T): T {
  return useHydrated() ? read() : serverValue;
}
