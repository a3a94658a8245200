import { lazy, Suspense, useState } from "react";
import { useLocation } from "@remix-run/react";
import { useHydrated } from "./hydrated";

const Modal = lazy(() => import("./like-modal").then((module) => ({ default: module.LikeModal })));

/**
 * The like modal's code loads only where it can act: in the browser, on a URL with ?t= (the auto-like
 * delay) or ?lb (page-bounce logging). It renders nothing on the server either way. Once loaded it
 * stays mounted across navigations, as it was before it loaded lazily (it asks for an auto-like once).
 */
export function LikeModal() {
  const hydrated = useHydrated();
  const params = new URLSearchParams(useLocation().search);
  const [needed, setNeeded] = useState(false);
  if (!needed && hydrated && (params.has("t") || params.has("lb"))) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Modal />
    </Suspense>
  );
}
