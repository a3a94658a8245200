import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import type { Settings } from "#contract/settings";
import type { UserResponse} from "#contract/user";
import { type User, type UserCounts } from "#contract/user";
import { withUserParam } from "#contract/members";
import { apiFor, expiredSessionCookie, serviceUnavailable, type ApiResult, type CallInput } from "./api.server";
import type { AnswerOf, Endpoint, QueryOf } from "#contract/endpoints/endpoint";
import { countryOfIp } from "./geo.server";
import { routePath } from "./paths";
import { endpoints } from "#contract/endpoints/index";

type CachedSettings = { until: number; value: Promise<Settings>; /** The settings, once they have come. */ site?: Settings };
/**
 * Settings per Host header, bounded: a flood of made-up Host names cannot grow memory. Hosts the api
 * does not know get the default site; they share one entry (by reference) under the site's domain.
 */
const settingsCacheMaxHosts = 500;
const settingsCache = new Map<string, CachedSettings>();

function cacheSettings(host: string, entry: CachedSettings): void {
  settingsCache.delete(host);
  settingsCache.set(host, entry);
  // A Map iterates in insertion order: the first key is the least recently stored.
  while (settingsCache.size > settingsCacheMaxHosts) settingsCache.delete(settingsCache.keys().next().value!);
}

/**
 * Forgets every site's settings: a staff page that changed a site calls it, so this web instance shows the change on
 * the next request; other instances show it within SETTINGS_CACHE_SECONDS.
 */
export function clearSettingsCache(): void {
  settingsCache.clear();
}

/** The number of hosts with cached settings (tests: the bound holds). */
export function settingsCacheSize(): number {
  return settingsCache.size;
}

/** One answer per request for `key`: the root's and a route's loaders (or a frame's and its page's) share it. */
export function memo<T>(context: AppLoadContext, key: string, load: () => Promise<T>): Promise<T> {
  const hit = context.memo.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const value = load();
  context.memo.set(key, value);
  return value;
}

/**
 * The site's settings for the request's domain. The site part is cached per domain for a short
 * time; the fields that depend on the visitor (geoip_country) are filled per request.
 */
export function getSettings(request: Request, context: AppLoadContext): Promise<Settings> {
  return memo(context, "settings", async () => {
    const domain = new URL(request.url).hostname;
    let cached = settingsCache.get(domain);
    if (!cached || cached.until < Date.now()) {
      const value = apiFor(request, context)
        .call(endpoints.settings, { query: { domain } })
        .then((result) => {
          if (!result.ok) throw serviceUnavailable();
          return result.data;
        });
      // The settings this instance had keep answering cachedSiteSettings until the new ones come.
      const entry: CachedSettings = { until: Date.now() + context.settingsCacheSeconds * 1000, value, site: cached?.site };
      cached = entry;
      cacheSettings(domain, entry);
      value.then(
        (site) => {
          entry.site = site;
          if (site.domain === domain) return;
          // An unknown host: keep the default site's entry under its own domain and point this host at it.
          const shared = settingsCache.get(site.domain);
          if (shared && shared.until >= Date.now()) cacheSettings(domain, shared);
          else cacheSettings(site.domain, entry);
        },
        () => settingsCache.delete(domain),
      );
    }
    const site = await cached.value;
    const country = countryOfIp(context.clientIp);
    return {
      ...site,
      geoip_country: country,
      geoip_selected_country: country && site.countries.includes(country) ? country : (site.countries[0] ?? null),
    };
  });
}

/**
 * The site's settings for the request URL's domain as this instance last had them, without waiting (null before they
 * first came): for a loader that must start its api call before its first await (callWithMember) and needs the
 * site's settings to build it. They may be out of date: the loader checks them against getSettings' answer before
 * it relies on what it built from them. The visitor's own fields (geoip_*) are not filled.
 */
export function cachedSiteSettings(url: URL): Settings | null {
  return settingsCache.get(url.hostname)?.site ?? null;
}

/** The logged-in member, or null. Asks the api only when the request carries a session cookie. */
export async function getUser(request: Request, context: AppLoadContext): Promise<User | null> {
  return (await currentMember(request, context)).user;
}

/** Unread messages and new likes for the navigation badges, when the api sends them. */
export async function getUserCounts(request: Request, context: AppLoadContext): Promise<UserCounts | null> {
  return (await currentMember(request, context)).counts ?? null;
}

/** The member's offer (time bonus, else welcome discount), loaded with the member: there on login, gone on logout. */
export async function getUserOffer(request: Request, context: AppLoadContext): Promise<NonNullable<UserResponse["discount"]> | null> {
  return (await currentMember(request, context)).discount ?? null;
}

function currentMember(request: Request, context: AppLoadContext): Promise<UserResponse> {
  return memo(context, "user", async () => {
    const api = apiFor(request, context);
    if (!api.hasSession) return { user: null };
    const result = await api.call(endpoints.user);
    return knownMember(context, result.ok ? result.data : { user: null });
  });
}

function knownMember(context: AppLoadContext, member: UserResponse): UserResponse {
  if (member.user) context.memberId = member.user.id;
  // A session the api no longer knows (expired, logged out elsewhere): drop the dead cookie too.
  else context.forwardSetCookie(expiredSessionCookie);
  return member;
}

/**
 * A page's own api call that answers the member too (members.php and member.php with `with_user=1`,
 * contract/members.ts): getUser and getUserCounts take the member from it instead of asking
 * /api/user.php, so the page costs one api call. The loader calls this before its first await: Remix
 * starts every loader of a request in the same tick, and the root loader asks for the member only
 * after awaiting the settings. Null without a session cookie (no member to ask for) or when the member
 * is already being asked for: the loader then makes its call as usual, after its own checks. When the
 * call fails (a refused search, a missing member) the member is asked for as before.
 */
export function callWithMember<E extends Endpoint & { method: "get" }>(
  request: Request,
  context: AppLoadContext,
  endpoint: E,
  query: QueryOf<E>,
  /**
   * A follow-up call that changes the member's counts (reading a conversation): the member is taken
   * from its answer instead, so the badges and the title already show what is true after it.
   */
  after?: (data: AnswerOf<E>) => Promise<UserResponse | undefined>,
): Promise<ApiResult<AnswerOf<E>>> | null {
  const api = apiFor(request, context);
  if (!api.hasSession || context.memo.has("user")) return null;
  const input = { query: { ...(query as object), [withUserParam]: "1" }, sessionOptional: true } as unknown as CallInput<E>;
  const call = (api.call as (endpoint: E, input: CallInput<E>) => Promise<ApiResult<AnswerOf<E>>>)(endpoint, input);
  context.memo.set(
    "user",
    call.then(
      async (result) => {
        const me = result.ok ? (result.data as { me?: UserResponse }).me : undefined;
        if (result.ok && me) return knownMember(context, (after ? await after(result.data).catch(() => undefined) : undefined) ?? me);
        context.memo.delete("user");
        return currentMember(request, context);
      },
      () => {
        context.memo.delete("user");
        return currentMember(request, context);
      },
    ),
  );
  return call;
}

export async function requireUser(request: Request, context: AppLoadContext): Promise<User> {
  const user = await getUser(request, context);
  if (user) return user;
  const url = new URL(request.url);
  throw redirect(`/login?redirectTo=${encodeURIComponent(routePath(url))}`);
}
