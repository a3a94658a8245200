import { browserPaths } from "#contract/endpoints/paths";
import type { EndEvent, MessageEvent as LiveMessageEvent, TypingEvent } from "#contract/events";
import { typingShowSeconds } from "#contract/live";

/*
 * The browser's end of the live state, loaded after hydration: one EventSource per tab on
 * /api/events.php, reconnecting with backoff and resuming from the last event id; when the stream cannot
 * be used (no EventSource, or it keeps failing) the page's data is reloaded every 60 s, or 300 s with
 * push, starting 5 s after load (docs/product.md §9). While the page is hidden nothing reloads: the api is told
 * (page-hidden beacon) and counts the member as away; on return the page reloads once and says so.
 */

export type LiveOptions = {
  /** Re-read the page's data (the loaders): a message, like, match, read mark or count changed. */
  reload: () => void;
  typing: (event: TypingEvent, until: number) => void;
  /** A message arrived in one of the member's conversations (the page's data is reloaded as well). */
  message: (event: LiveMessageEvent) => void;
  connected: (connected: boolean) => void;
  /** Operator override of the polling interval (seconds), else the one of docs/product.md §9. */
  refetchSeconds: number | null;
  pushSubscribed: () => boolean;
};

const failuresBeforePolling = 5;
const changeKinds = ["message", "like", "match", "read", "counts"] as const;

export function startLive(options: LiveOptions): () => void {
  let source: EventSource | null = null;
  let lastId: string | null = null;
  let failures = 0;
  let stopped = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let reloadTimer: ReturnType<typeof setTimeout> | undefined;
  let missed = false;

  const reload = () => {
    if (document.visibilityState === "hidden") {
      missed = true;
      return;
    }
    clearTimeout(reloadTimer);
    // Several events in a burst (a message and its read mark) make one reload.
    reloadTimer = setTimeout(options.reload, 150);
  };

  const poll = () => {
    if (stopped) return;
    const seconds = options.refetchSeconds ?? (options.pushSubscribed() ? 300 : 60);
    reload();
    pollTimer = setTimeout(poll, seconds * 1000);
  };
  const startPolling = () => {
    options.connected(false);
    if (pollTimer === undefined) pollTimer = setTimeout(poll, 5000);
  };

  const connect = () => {
    if (stopped) return;
    const url = lastId ? `${browserPaths.events}?last_event_id=${encodeURIComponent(lastId)}` : browserPaths.events;
    const es = new EventSource(url);
    source = es;
    es.addEventListener("open", () => {
      failures = 0;
      options.connected(true);
      clearTimeout(pollTimer);
      pollTimer = undefined;
    });
    const remember = (event: MessageEvent) => {
      if (event.lastEventId) lastId = event.lastEventId;
    };
    es.addEventListener("ready", remember);
    for (const kind of changeKinds) {
      es.addEventListener(kind, (event) => {
        remember(event);
        reload();
        if (kind !== "message") return;
        try {
          options.message(JSON.parse(event.data as string) as LiveMessageEvent);
        } catch {
          // A malformed event only misses the typing hint's early end; the reload above still shows the message.
        }
      });
    }
    es.addEventListener("typing", (event) => {
      remember(event);
      try {
        options.typing(JSON.parse(event.data) as TypingEvent, Date.now() + typingShowSeconds * 1000);
      } catch {
        // A malformed event is skipped; the next one counts.
      }
    });
    es.addEventListener("end", (event) => {
      // Logged out or the session was revoked: no reconnect. Ended for a newer stream (too many tabs): no
      // reconnect either, or the tabs would take each other's place for ever; this tab polls instead.
      es.close();
      options.connected(false);
      if (endReason(event) === "too_many_streams") startPolling();
    });
    es.addEventListener("error", () => {
      es.close();
      options.connected(false);
      failures++;
      if (failures >= failuresBeforePolling) startPolling();
      // Back off: 1 s, 2 s, 4 s ... at most 30 s; the stream resumes after the last event it delivered.
      reconnectTimer = setTimeout(connect, Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)));
    });
  };

  const endReason = (event: MessageEvent): EndEvent["reason"] => {
    try {
      return (JSON.parse(event.data as string) as EndEvent).reason;
    } catch {
      return undefined;
    }
  };

  const onVisibility = () => {
    if (document.visibilityState === "hidden") {
      const body = new Blob(["{}"], { type: "application/json" });
      if (!navigator.sendBeacon?.(browserPaths.pageHidden, body)) {
        void fetch(browserPaths.pageHidden, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" }, keepalive: true }).catch(() => undefined);
      }
      return;
    }
    void fetch(browserPaths.pageVisible, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } }).catch(() => undefined);
    if (missed) {
      missed = false;
      reload();
    }
  };
  // The push service worker asks open pages to reload chats and likes when a push arrives.
  const onWorkerMessage = (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type === "reload") reload();
  };

  document.addEventListener("visibilitychange", onVisibility);
  navigator.serviceWorker?.addEventListener("message", onWorkerMessage);
  if (typeof EventSource === "undefined") startPolling();
  else connect();

  return () => {
    stopped = true;
    source?.close();
    clearTimeout(reconnectTimer);
    clearTimeout(pollTimer);
    clearTimeout(reloadTimer);
    document.removeEventListener("visibilitychange", onVisibility);
    navigator.serviceWorker?.removeEventListener("message", onWorkerMessage);
  };
}
