import { browserPaths } from "#contract/endpoints/paths";
import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "@remix-run/react";
import { useHydrated } from "~/utils/hydrated";
import { useRootData } from "~/utils/root-data";

const Modal = lazy(() => import("./like-modal").then((module) => ({ default: module.LikeModal })));

/**
 * docs/product.md §4 like modal and page-bounce logging, mounted once in the default layout. ?lb turns on page-bounce
 * logging: a beacon to /api/page-hidden.php whenever the page becomes hidden (a member's pages always send it,
 * see app/features/chat/live-client.ts). The like modal's code loads
 * only where it can act: in the browser, on a URL with ?t= (the auto-like delay). It renders nothing on
 * the server either way. Once loaded it stays mounted across navigations (it asks for an auto-like once).
 */
export function LikeModal() {
  const hydrated = useHydrated();
  const params = new URLSearchParams(useLocation().search);
  // A member's pages send the beacon anyway (the live state counts them away, app/features/chat/live-client.ts): once is enough.
  const member = Boolean(useRootData()?.user);
  const bounceLogging = params.has("lb") && !member;
  const [needed, setNeeded] = useState(false);
  if (!needed && hydrated && params.has("t")) setNeeded(true);

  useEffect(() => {
    if (!bounceLogging) return;
    const onVisibility = () => {
      if (document.visibilityState !== "hidden") return;
      const body = new Blob(["{}"], { type: "application/json" });
      if (!navigator.sendBeacon?.(browserPaths.pageHidden, body)) {
        void fetch(browserPaths.pageHidden, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" }, keepalive: true }).catch(() => undefined);
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [bounceLogging]);

  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Modal />
    </Suspense>
  );
}
