import { useEffect, useState } from "react";
import { useNavigation } from "@remix-run/react";

/** docs/product.md §9: the loading bar's throttle, duration and hide delay. */
export const loadingBar = { throttleMs: 200, durationMs: 5000, hideMs: 500 } as const;

/**
 * docs/product.md §4 loading bar for Remix navigations: not shown for one shorter than the throttle, then its progress runs
 * toward full over the duration (a CSS animation, tailwind.css), fills when the navigation finishes and hides
 * after the hide delay. Without JavaScript the browser shows its own progress.
 */
export function LoadingBar() {
  const busy = useNavigation().state !== "idle";
  // Whether the bar is up: set once a navigation has lasted the throttle, cleared the hide delay after it ends.
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (busy === shown) return undefined;
    const timer = setTimeout(() => setShown(busy), busy ? loadingBar.throttleMs : loadingBar.hideMs);
    return () => clearTimeout(timer);
  }, [busy, shown]);
  if (!shown) return null;
  return <div className="loading-bar" data-state={busy ? "running" : "done"} data-testid="loading-bar" role="progressbar" aria-hidden="true" />;
}
