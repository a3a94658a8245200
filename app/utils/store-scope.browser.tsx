import type { ReactNode } from "react";

/** The browser's stand-in for store-scope.tsx (vite.config.ts): jotai's default store serves the one page there is. */
export function StoreScope({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
