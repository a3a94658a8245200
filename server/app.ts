import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";
import compression from "compression";
import { compressionOptions } from "./compression";
import helmet from "helmet";
import { createProxyMiddleware } from "http-proxy-middleware";
import { pinoHttp } from "pino-http";
import type { Logger } from "pino";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import type { ViteDevServer } from "vite";
import type { WebConfig } from "./config";
import { trustProxyValue } from "./config";
import type { WebLoadContext } from "./context";
import { acceptedRequestId, clientIpHeader, hasSessionCookie } from "#contract/http";
import { apiRequestGuard, canonicalPathGuard, pageRequestGuard } from "./request-guard";
import { guardActions } from "./guard-actions";
import { localeHandlers, withBasename } from "./locale-handlers";
import { dataAnswerHeaders, errorHandler, hostGuard } from "./edge";
import { apiBodyCap, rememberUpstream } from "./api-body-cap";
import { ApiInstances, connectionRefused } from "./api-instances";
import { redactUrl, requestLogLevel } from "#contract/log-redaction";
import { isStaffPath } from "../app/utils/paths";
import { labelRoute, webMetricsEndpoint, webRequestMetrics, webRoutes } from "./metrics";

type Options = { config: WebConfig; logger: Logger; vite?: ViteDevServer; build?: ServerBuild };

export function createWebApp({ config, logger, vite, build }: Options) {
  const app = express();
  app.disable("x-powered-by");
  const apis = new ApiInstances(config.API_URL);
  app.set("trust proxy", trustProxyValue(config.TRUST_PROXY));

  // The build a page was matched against (a dev server loads it per request), for the route label of the metrics.
  let devBuild: ServerBuild | undefined;
  app.get("/healthz", async (_req, res) => {
    // Healthy while one api instance answers: web sends its requests to those that do.
    const answers = await Promise.all(
      apis.urls.map((url) =>
        fetch(new URL("/healthz", url), { signal: AbortSignal.timeout(2000) })
          .then((r) => (r.ok ? "ok" : `status ${r.status}`))
          .catch(() => "unreachable"),
      ),
    );
    const up = answers.filter((a) => a === "ok").length;
    const api = up > 0 ? "ok" : (answers[0] ?? "unreachable");
    const instances = apis.urls.length > 1 ? { api_instances_up: `${up} of ${apis.urls.length}` } : {};
    res.status(api === "ok" ? 200 : 503).json({ status: api === "ok" ? "ok" : "degraded", service: "web", checks: { api, ...instances } });
  });

  // Every request but the load balancer's health checks, counted and timed by its route pattern.
  app.use(webRequestMetrics(() => build ?? devBuild));

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const id = acceptedRequestId(req.headers["x-request-id"]);
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customSuccessObject: (_req, res, value: object) => ({ ...value, ...requestSummary(res as express.Response) }),
      // pino-http invents an Error with a stack for every 5xx; only a real error is worth a stack in the log.
      customErrorObject: (_req, res, error, value: { err?: unknown }) => {
        const synthetic = !(res as { err?: unknown }).err && error.message === `failed with status code ${res.statusCode}`;
        const { err: _err, ...rest } = value;
        return { ...(synthetic ? rest : value), ...requestSummary(res as express.Response) };
      },
      customLogLevel: (_req, res, error) => requestLogLevel(res.statusCode, error),
      // Fingerprinted assets are served by express.static and tell an operator nothing.
      autoLogging: { ignore: (req) => (req.url ?? "").startsWith("/assets/") },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  app.use(hostGuard);
  app.use(canonicalPathGuard);
  // Prometheus' scrape, behind METRICS_TOKEN and never proxied (docs/operations.md, Metrics).
  app.get("/metrics", webMetricsEndpoint(config.METRICS_TOKEN, logger));

  // Beacons, push subscriptions and the event stream go to the api as they are, streaming kept.
  // Each request goes to the first api instance that answers (server/api-instances.ts); a GET whose instance refused
  // the connection is sent to the next (nothing reached the refusing one), so a stream's reconnect finds a live one.
  const toApi = createProxyMiddleware<express.Request, express.Response>({
    router: () => apis.pick(),
    changeOrigin: false,
    xfwd: true,
    proxyTimeout: 30_000,
    on: {
      proxyReq: (proxyReq, req, res) => {
        rememberUpstream(res, proxyReq);
        proxyReq.setHeader("X-Request-Id", String(req.id));
        // The api believes this header from web alone: whatever the browser sent under that name is replaced.
        proxyReq.setHeader(clientIpHeader, req.ip ?? "");
      },
      // An api that dies mid-answer (a long event stream, most likely) resets the connection: the answer here ends too,
      // so the browser reconnects (to an api that answers) instead of waiting on a stream nothing writes to any more.
      proxyRes: (proxyRes, _req, res) => {
        proxyRes.once("close", () => {
          if (!proxyRes.complete && !res.writableEnded) res.destroy();
        });
      },
      error: (error, req, res, target) => {
        // A body apiBodyCap cut off ends the api's request on purpose; the client has its 413.
        if ("locals" in res && res.locals.bodyCut) return;
        const refusedBy = connectionRefused(error) && target ? String(typeof target === "string" ? target : (target as { href?: string }).href ?? "") : "";
        if (refusedBy && "locals" in res && !res.headersSent) {
          const other = apis.failed(new URL(refusedBy).origin);
          const tries = (res.locals.apiTries = Number(res.locals.apiTries ?? 0) + 1);
          if (other && (req.method === "GET" || req.method === "HEAD") && tries < apis.urls.length) {
            toApi(req as express.Request, res, () => undefined);
            return;
          }
        }
        logger.warn({ err: error }, "api proxy failed");
        if ("headersSent" in res && !res.headersSent) {
          res.writeHead(503, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "internal_error", message: "An error occured, please try again later." }));
        }
      },
    },
  });
  app.use("/api", labelRoute(webRoutes.proxyApi));
  app.use("/uploads", labelRoute(webRoutes.proxyUploads));
  app.use(
    ["/api", "/uploads"],
    (_req, res, next) => {
      // Answers of the api are data, never documents: no sniffing, no scripts, even for an uploaded file or the guard's own refusal.
      res.set(dataAnswerHeaders);
      next();
    },
    apiRequestGuard,
    apiBodyCap,
    (req, res, next) => {
      req.url = req.originalUrl;
      toApi(req, res, next);
    },
  );

  app.use((_req, res, next) => {
    res.locals.cspNonce = cspNonce();
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`, "'strict-dynamic'"],
          "img-src": ["'self'", "data:", "blob:"],
          // blob: the photo upload form's preview of the chosen file (an object URL the browser also reads as a request).
          "connect-src": ["'self'", "blob:", ...(vite ? ["ws:"] : [])],
          // The push service worker (/sw-push.js); 'strict-dynamic' would otherwise leave workers without a source.
          "worker-src": ["'self'"],
          "upgrade-insecure-requests": null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // no-referrer makes Chromium send "Origin: null" on plain form posts, which Remix's CSRF check rejects.
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      hsts: config.NODE_ENV === "production",
    }),
  );
  app.use(compression(compressionOptions));

  app.use(labelRoute(webRoutes.staticFiles));
  if (vite) {
    app.use(vite.middlewares);
  } else {
    app.use("/assets", express.static(path.resolve("build/client/assets"), { immutable: true, maxAge: "1y", index: false }));
    // The other public files: only a path whose first segment is one of them reaches the file system (a page
    // request would otherwise cost a stat() of a file that is not there, every time).
    const clientDir = path.resolve("build/client");
    const publicEntries = new Set(readdirSync(clientDir));
    const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (publicEntries.has(decodeFirstSegment(req.path)) ? publicFiles(req, res, next) : next()));
  }

  // Whatever the static files did not answer is a page (or the refusal of one): labelled with its Remix route.
  app.use(labelRoute(webRoutes.page));
  app.use(pageRequestGuard);
  app.use((req, res, next) => {
    // A member's pages are theirs alone: no shared cache, no back-button copy after logout. The staff pages likewise.
    if (hasSessionCookie(req.headers.cookie) || isStaffPath(req.path)) res.set("Cache-Control", "private, no-store");
    next();
  });

  const getLoadContext = (req: express.Request, res: express.Response): WebLoadContext => {
    const context: WebLoadContext = {
      requestId: String(req.id),
      cspNonce: String(res.locals.cspNonce),
      logger: req.log,
      apiUrl: apis.pick(),
      apiFailed: (url) => apis.failed(url),
      clientIp: req.ip ?? "",
      upstream: [],
      forwardSetCookie: (cookie) => {
        if (!res.headersSent) res.append("Set-Cookie", cookie);
      },
      forwardRetryAfter: (seconds) => {
        if (!res.headersSent) res.set("Retry-After", seconds);
      },
      memo: new Map(),
      settingsCacheSeconds: config.SETTINGS_CACHE_SECONDS,
      userRefetchSeconds: config.USER_REFETCH_SECONDS,
      refusal: res.locals.refusal,
    };
    res.locals.loadContext = context;
    return context;
  };
  // The URL's language prefix is the build's basename (docs/decisions/013-the-locale-prefix-as-basename.md): one
  // request handler per prefix, and each route exists once. Production hands Remix the build itself: given a
  // function, Remix rebuilds its route tables and static handler on every request.
  const remixHandler = localeHandlers((basename) =>
    createRequestHandler({
      build: vite
        ? async () => withBasename(guardActions((devBuild = (await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild)), basename)
        : withBasename(guardActions(build!), basename),
      mode: vite ? "development" : "production",
      getLoadContext,
    }) as RequestHandler,
  );
  app.all("*", remixHandler);
  app.use(errorHandler(logger));
  return app;
}

/** Random bytes for the pages' CSP nonces, drawn 256 nonces at a time: one call to the system's generator instead of one a page. */
let nonceBytes = Buffer.alloc(0);
let nonceOffset = 0;
const nonceLength = 16;

/** A fresh CSP nonce: 16 bytes of the pool no page had before, in base64. */
function cspNonce(): string {
  if (nonceOffset + nonceLength > nonceBytes.length) {
    nonceBytes = randomBytes(nonceLength * 256);
    nonceOffset = 0;
  }
  const nonce = nonceBytes.toString("base64", nonceOffset, nonceOffset + nonceLength);
  nonceOffset += nonceLength;
  return nonce;
}

function requestSummary(res: express.Response) {
  const context = res.locals.loadContext as WebLoadContext | undefined;
  return {
    memberId: context?.memberId ?? null,
    ...(context && context.upstream.length > 0 ? { upstream: context.upstream } : {}),
  };
}

/** "/icon-32.png" → "icon-32.png", "/gifs/a.gif" → "gifs"; "" for "/" or an undecodable segment. */
function decodeFirstSegment(pathname: string): string {
  const segment = pathname.split("/", 2)[1] ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
