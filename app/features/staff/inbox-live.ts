import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** The window event the staff frame (app/routes/staff.tsx) fires with each `inbox` event of /staff/events. */
export const inboxEventName = "staff-inbox";

/**
 * Reloads the page's data when the inbox changes (a message arrives, an operator takes or leaves a conversation), as
 * the staff frame's event stream reports it: the queues move without a reload. Without JavaScript: on each load.
 */
export function useInboxLive(onChange?: () => void): void {
  const { revalidate, state } = useRevalidator();
  const last = useRef<string | null>(null);
  // A page whose load has effects (a conversation's load claims it) reads the change its own way instead.
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });
  useEffect(() => {
    const onInbox = (event: Event) => {
      const version = String((event as CustomEvent<string>).detail);
      // The first event describes what the page was loaded with.
      if (last.current !== null && last.current !== version && state === "idle") (changed.current ?? revalidate)();
      last.current = version;
    };
    window.addEventListener(inboxEventName, onInbox);
    return () => window.removeEventListener(inboxEventName, onInbox);
  }, [revalidate, state]);
}
