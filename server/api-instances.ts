/**
 * The api instances web talks to (API_URL: one URL, or several separated by commas): the first one that is not left
 * out, so each web keeps to its own api (the first listed; typically the one beside it) and the others are its
 * fallbacks. An instance that refused a connection is left out for a few seconds, so a stopped or restarting api
 * costs its requests one quick retry elsewhere instead of an error page (docs/operations.md, Scaling out). A
 * refused connection never reached the api, so even a POST may go to another instance.
 */
export class ApiInstances {
  /** Until when (ms since the epoch) an instance is left out after a refused connection. */
  private readonly downUntil = new Map<string, number>();

  constructor(
    readonly urls: readonly string[],
    private readonly downMs = 5000,
    private readonly now: () => number = Date.now,
  ) {
    if (urls.length === 0) throw new Error("ApiInstances: no api URL");
  }

  /** The first instance not left out; when all are, the first (it may be back). */
  pick(): string {
    const time = this.now();
    return this.urls.find((url) => (this.downUntil.get(url) ?? 0) <= time) ?? this.urls[0]!;
  }

  /** `url` refused a connection: leave it out for a while, and name an instance not left out to try now (null: none). */
  failed(url: string): string | null {
    if (!this.urls.includes(url)) return null;
    const time = this.now();
    this.downUntil.set(url, time + this.downMs);
    const other = this.urls.find((u) => (this.downUntil.get(u) ?? 0) <= time);
    return other ?? null;
  }
}

/** API_URL as a list: "http://a:3001, http://b:3001" → two origins (web asks the api at absolute paths); each must be http(s). */
export function parseApiUrls(value: string): string[] {
  const urls = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (urls.length === 0) throw new Error("no URL given");
  return urls.map((url) => {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") throw new Error(`${url} is not an http(s) URL`);
    return parsed.origin;
  });
}

/** Whether a failed fetch or proxy request never reached the server (nothing was sent: safe to send elsewhere). */
export function connectionRefused(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === "ECONNREFUSED" || code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "UND_ERR_CONNECT_TIMEOUT") return true;
  }
  return false;
}
