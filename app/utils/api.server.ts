import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { serialize } from "cookie";
import { z } from "zod";
import { ApiError } from "#contract/errors";
import type { AnswerOf, BodyOf, Endpoint, QueryOf } from "#contract/endpoints/endpoint";
import { endpoints } from "#contract/endpoints/index";
import { staff } from "#contract/endpoints/staff";
import { clientIpHeader, hasSessionCookie, sessionCookieName } from "#contract/http";
import { hasTrafficSource } from "#contract/account";
import { trafficSourceHeader } from "#contract/members";
import { keptTracking } from "../features/landers/tracking.server";
import { connectionRefused } from "../../server/api-instances";
import { requestApi, type ApiAnswer } from "../../server/api-client";

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; error: ApiError };

/** What a call of an endpoint sends: its query and its body, typed by the endpoint's schemas (contract/endpoints/). */
export type CallInput<E extends Endpoint> = ([QueryOf<E>] extends [never] ? { query?: undefined } : { query?: QueryOf<E> }) &
  (E extends { multipart: object } ? { body: FormData } : [BodyOf<E>] extends [never] ? { body?: undefined } : { body: BodyOf<E> }) & {
    /** authentication_required comes back as a result instead of logging the member out (the caller decides, as for user.php). */
    sessionOptional?: boolean;
  };

/** The staff console's endpoints: a refused session there means the staff login, not the member's. */
const staffSide = new Set<Endpoint>(Object.values(staff.endpoints));

/** The schema that parses an endpoint's success answers (one, or the union of several), built once per endpoint. */
const answerSchemas = new WeakMap<Endpoint, z.ZodType>();
function answerSchemaOf(endpoint: Endpoint): z.ZodType {
  let schema = answerSchemas.get(endpoint);
  if (!schema) {
    const schemas = [...new Set(Object.values(endpoint.answers).flatMap((answer) => (answer.kind === "json" ? [answer.schema] : [])))];
    schema = schemas.length === 0 ? z.unknown() : schemas.length === 1 ? schemas[0]! : z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    answerSchemas.set(endpoint, schema);
  }
  return schema;
}

/** The query string of a call: each value that is set, as text. */
function setQuery(url: URL, query: unknown): void {
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
}

/**
 * docs/product.md §7: up to 5 retries with exponential delay, within a bounded total time. One attempt may use
 * the whole deadline: abandoning a slow (busy) api and asking again would only add to its queue,
 * so retries happen on quick failures (connection refused, 5xx), as when the api restarts.
 */
const retry = { attempts: 6, baseDelayMs: 50, deadlineMs: 8000 };

/** Clears the auth cookie in the browser when the api no longer knows the session. */
export const expiredSessionCookie = serialize(sessionCookieName, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax" });

/** The api is down or answered something outside the contract: the page shows the 503 error page. */
export function serviceUnavailable(): Response {
  return new Response(JSON.stringify({ message: "service_unavailable" }), { status: 503, headers: { "Content-Type": "application/json" } });
}

/**
 * Whether the visitor has a traffic source (docs/product.md §3 Settings): network or ref kept from the entry URL, or
 * in this URL (the first page, whose cookie is only being set). The api hears it as X-Traffic-Source: 1
 * (logged_out_search_trafficsource); loaders ask visitorMaySearch(settings, this) from contract/members.
 */
export function requestHasTrafficSource(request: Request): boolean {
  const query = new URL(request.url).searchParams;
  return hasTrafficSource(keptTracking(request)) || hasTrafficSource({ network: query.get("network") ?? undefined, ref: query.get("ref") ?? undefined });
}

/**
 * Calls the api for one incoming request: forwards the member's cookie, the request id, the client's
 * IP, host and language; passes the api's Set-Cookie back; parses the answer with the contract.
 * GETs are retried on network errors and 5xx with exponential delay, within a total deadline.
 */
export function apiFor(request: Request, context: AppLoadContext) {
  const incoming = new URL(request.url);
  const cookie = request.headers.get("Cookie");
  const hasSession = hasSessionCookie(cookie);
  const trafficSource = requestHasTrafficSource(request);

  /** The session died on the api side: log the member out here too and send them to log in. */
  function loggedOut(): Response {
    return redirect("/login", { headers: { "Set-Cookie": expiredSessionCookie } });
  }

  function headersFor(endpoint: Endpoint): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      "X-Request-Id": context.requestId,
      [clientIpHeader]: context.clientIp,
      "X-Forwarded-Host": incoming.host,
      "X-Forwarded-Proto": incoming.protocol.replace(":", ""),
    };
    if (cookie) headers.Cookie = cookie;
    const language = request.headers.get("Accept-Language");
    if (language) headers["Accept-Language"] = language;
    if ((endpoint as Endpoint) === endpoints.user) headers["X-Request-Type"] = "client";
    if (trafficSource) headers[trafficSourceHeader] = "1";
    return headers;
  }

  /**
   * After a refused connection (that instance never saw the request, so any method may go elsewhere): points `url`
   * at another api instance (server/api-instances.ts); false when there is none.
   */
  function failOver(error: unknown, url: URL): boolean {
    const other = connectionRefused(error) ? context.apiFailed?.(url.origin) : null;
    if (!other) return false;
    const next = new URL(other);
    url.protocol = next.protocol;
    url.host = next.host;
    return true;
  }

  /** A file or a stream over fetch, asked of the next instance when one refuses the connection; 503 when none answers. */
  async function fetchFailingOver(url: URL, init: RequestInit): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetch(url, init);
      } catch (error) {
        if (!(failOver(error, url) && attempt < retry.attempts)) throw serviceUnavailable();
      }
    }
  }

  /** A JSON body over kept-alive node:http (server/api-client.ts); a FormData body (a photo upload) through fetch, which writes the multipart. */
  async function send(method: string, url: URL, headers: Record<string, string>, body: unknown, timeoutMs: number): Promise<ApiAnswer> {
    if (!(body instanceof FormData)) {
      const text = body === undefined ? undefined : JSON.stringify(body);
      return requestApi(url, { method, headers: text === undefined ? headers : { ...headers, "Content-Type": "application/json" }, body: text, timeoutMs });
    }
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    return {
      status: response.status,
      setCookies: response.headers.getSetCookie(),
      header: (name) => response.headers.get(name) ?? undefined,
      json: await response.json().catch(() => undefined),
    };
  }

  /** Calls an endpoint of the table with its query and body; its answer parsed by the endpoint's answer schema. */
  async function call<E extends Endpoint>(endpoint: E, ...[options]: E extends { body: object } | { form: object } | { multipart: object } ? [input: CallInput<E>] : [input?: CallInput<E>]): Promise<ApiResult<AnswerOf<E>>> {
    const method = endpoint.method.toUpperCase();
    const schema = answerSchemaOf(endpoint);
    const url = new URL(endpoint.path, context.apiUrl);
    setQuery(url, options?.query);
    const headers = headersFor(endpoint);
    const started = Date.now();
    const idempotent = method === "GET";
    let response: ApiAnswer | null = null;
    for (let attempt = 1; ; attempt++) {
      const t0 = Date.now();
      const remaining = retry.deadlineMs - (t0 - started);
      try {
        response = await send(method, url, headers, options?.body, Math.max(1, remaining));
        context.upstream.push({ method, path: url.pathname, status: response.status, ms: Date.now() - t0, attempt });
        if (response.status < 500 || !idempotent) break;
      } catch (error) {
        context.upstream.push({ method, path: url.pathname, status: "network_error", ms: Date.now() - t0, attempt });
        response = null;
        // An instance that refused the connection never saw the request: any method goes to another one at once.
        if (failOver(error, url) && attempt < retry.attempts) continue;
        if (!idempotent) break;
      }
      const delay = retry.baseDelayMs * 2 ** (attempt - 1);
      if (attempt >= retry.attempts || Date.now() - started + delay >= retry.deadlineMs) break;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    if (!response || response.status >= 500) {
      context.logger.warn({ upstream: url.pathname, status: response?.status ?? "network_error" }, "api unavailable");
      throw serviceUnavailable();
    }

    for (const setCookie of response.setCookies) context.forwardSetCookie(setCookie);
    const retryAfter = response.header("Retry-After");
    if (response.status === 429 && retryAfter && /^\d{1,6}$/.test(retryAfter)) context.forwardRetryAfter?.(retryAfter);
    const json = response.json;
    if (response.status >= 200 && response.status < 300) {
      const parsed = schema.safeParse(json);
      if (parsed.success) return { ok: true, data: parsed.data as AnswerOf<E> };
      context.logger.error({ upstream: url.pathname, issues: parsed.error.issues.slice(0, 5) }, "api response outside the contract");
      throw serviceUnavailable();
    }
    const error = ApiError.safeParse(json);
    if (!error.success) {
      context.logger.error({ upstream: url.pathname, status: response.status }, "api error outside the contract");
      throw serviceUnavailable();
    }
    // A staff endpoint's session is the staff cookie's: when it has ended, back to the staff login; the member's
    // own session (if the browser has one too) is none of its business.
    if (staffSide.has(endpoint)) {
      if (error.data.error === "authentication_required" && !options?.sessionOptional) throw redirect("/staff/login");
      return { ok: false, status: response.status, error: error.data };
    }
    if (error.data.error === "authentication_required" && hasSession && (endpoint as Endpoint) !== endpoints.user && !options?.sessionOptional) {
      throw loggedOut();
    }
    return { ok: false, status: response.status, error: error.data };
  }

  return {
    call,
    /**
     * A file the api sends for the member (a data export): its response as it is when ok (web streams it on),
     * else the error result as for `get`. A download is not retried; an instance that refused the connection is
     * passed over for the next, as for `get`.
     */
    file: async <E extends Endpoint>(endpoint: E, query: QueryOf<E>): Promise<ApiResult<Response>> => {
      const url = new URL(endpoint.path, context.apiUrl);
      setQuery(url, query);
      const t0 = Date.now();
      const response = await fetchFailingOver(url, { headers: { ...headersFor(endpoint), Accept: "*/*" }, redirect: "manual", signal: AbortSignal.timeout(60_000) });
      context.upstream.push({ method: "GET", path: url.pathname, status: response.status, ms: Date.now() - t0, attempt: 1 });
      if (response.ok) return { ok: true, data: response };
      if (response.status >= 500) throw serviceUnavailable();
      const error = ApiError.safeParse(await response.json().catch(() => undefined));
      if (!error.success) throw serviceUnavailable();
      if (error.data.error === "authentication_required" && hasSession) throw loggedOut();
      return { ok: false, status: response.status, error: error.data };
    },
    /**
     * A live stream of the api (server-sent events) passed on as it comes: the upstream request ends when the
     * browser's does. 503 when no api instance can be reached; its refusal (a lapsed session) as the error result.
     */
    stream: async (endpoint: Endpoint): Promise<ApiResult<Response>> => {
      const t0 = Date.now();
      const { path } = endpoint;
      const response = await fetchFailingOver(new URL(path, context.apiUrl), { headers: { ...headersFor(endpoint), Accept: "text/event-stream" }, redirect: "manual", signal: request.signal });
      // Until the stream's headers: a stream's own length is the member's visit, not the api's speed.
      context.upstream.push({ method: "GET", path, status: response.status, ms: Date.now() - t0, attempt: 1 });
      if (response.ok) return { ok: true, data: response };
      const error = ApiError.safeParse(await response.json().catch(() => undefined));
      if (!error.success) throw serviceUnavailable();
      return { ok: false, status: response.status, error: error.data };
    },
    hasSession,
  };
}
export type Api = ReturnType<typeof apiFor>;
