import type { Logger } from "pino";
import type { Locale } from "#contract/locales";

/** One per request, handed to every loader and action, and to entry.server. */
export type UpstreamTiming = { method: string; path: string; status: number | "network_error"; ms: number; attempt: number };

export type WebLoadContext = {
  requestId: string;
  cspNonce: string;
  logger: Logger;
  /** The api instance this request asks (picked in turn from API_URL's). */
  apiUrl: string;
  /** An instance refused a connection: another one to ask now, or null (server/api-instances.ts); absent in tests. */
  apiFailed?: (url: string) => string | null;
  clientIp: string;
  /** Upstream calls of this request, for the request's log line. */
  upstream: UpstreamTiming[];
  /** Passes a Set-Cookie of the api on to the browser unchanged. */
  forwardSetCookie: (cookie: string) => void;
  /** Passes the api's Retry-After of a 429 on to the browser (absent in tests that build a context by hand). */
  forwardRetryAfter?: (seconds: string) => void;
  /** Memo of per-request reads (settings, current user) shared by the loaders of one request. */
  memo: Map<string, Promise<unknown>>;
  /** The logged-in member's user id, once known, for the request's log line. */
  memberId?: number;
  /** The locale the root loader decided on, read by entry.server. */
  locale?: Locale;
  settingsCacheSeconds: number;
  /** USER_REFETCH_SECONDS: overrides the polling fallback's interval (tests). */
  userRefetchSeconds?: number;
  /** Set when server/request-guard.ts refused the request; the refused route renders it. */
  refusal?: { status: number; reason: string };
};

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends WebLoadContext {}
}
