import { useSyncExternalStore } from "react";

/** For values the browser reads once and never announces changes of. */
export const noSubscription = () => () => undefined;

/** Whether React runs in the browser yet: false while rendering on the server and hydrating, true after (until then, forms are plain HTML posts). */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
