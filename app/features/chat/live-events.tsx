import { useEffect, useRef } from "react";
import { useRevalidator } from "@remix-run/react";
import { useSetAtom } from "jotai";
import { liveConnectedAtom, typingAfterMessage, typingAtom } from "~/features/chat/live-state";
import { useRootData } from "~/utils/root-data";

/**
 * Mounted once for a logged-in member (every layout): starts the live stream after hydration (its code
 * loads then, outside the first-load JavaScript), and keeps the device's app badge at unread messages
 * plus new likes (docs/product.md §4), cleared at 0.
 */
export function LiveEvents() {
  const root = useRootData();
  const userId = root?.user?.id ?? null;
  const refetchSeconds = root?.refetchSeconds ?? null;
  const badge = root?.user ? root.user.unreadMessages + root.user.newLikes : 0;
  const revalidator = useRevalidator();
  const reload = useRef(revalidator.revalidate);
  useEffect(() => {
    reload.current = revalidator.revalidate;
  });
  const setTyping = useSetAtom(typingAtom);
  const setConnected = useSetAtom(liveConnectedAtom);

  useEffect(() => {
    if (userId === null) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("~/features/chat/live-client").then(({ startLive }) => {
      if (cancelled) return;
      stop = startLive({
        reload: () => reload.current(),
        typing: (event, until) => {
          setTyping((all) => ({ ...all, [event.conversation_id]: { fromId: event.from.id, name: event.from.name, until } }));
          // Shown for 5 s after the last signal: a later signal moves `until`, so only the last timer clears it.
          setTimeout(
            () =>
              setTyping((all) => {
                if (all[event.conversation_id]?.until !== until) return all;
                const { [event.conversation_id]: _gone, ...rest } = all;
                return rest;
              }),
            until - Date.now(),
          );
        },
        message: (event) => setTyping((all) => typingAfterMessage(all, event)),
        connected: setConnected,
        refetchSeconds,
        pushSubscribed: () => typeof Notification !== "undefined" && Notification.permission === "granted",
      });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId, refetchSeconds, setTyping, setConnected]);

  useEffect(() => {
    const nav = navigator as Navigator & { setAppBadge?: (n: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    if (!nav.setAppBadge) return;
    void (badge > 0 ? nav.setAppBadge(badge) : nav.clearAppBadge?.())?.catch(() => undefined);
  }, [badge]);

  return null;
}
