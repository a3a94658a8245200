import path from "node:path";
import express, { type ErrorRequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "pino";
import { sql } from "drizzle-orm";
import type { Database } from "./db/client";
import type { ApiConfig } from "./config";
import { chatExtrasRoutes } from "./http/chat-extras";
import { gifProviderFromEnv, type GifProvider } from "./services/gifs";
import { requestContext } from "./http/context";
import { sendError, tooManyRequests } from "./http/respond";
import { acceptedRequestId } from "#contract/http";
import { isCanonicalPath, normalizeRequestEdge } from "#contract/host";
import { redactUrl, requestLogLevel } from "#contract/log-redaction";
import { clientContext } from "./http/client";
import { answerAfterBody, bodyCap, bodyLimits, refuseTooLarge } from "./http/body-cap";
import { createClientLimiter } from "./http/limits";
import { announcerFor } from "./events/announce";
import { HashQueueFull } from "./domain/hash-queue";
import { settingsRoutes } from "./http/settings";
import { openApiRoutes } from "./http/openapi";
import { userRoutes } from "./http/user";
import { pushRoutes } from "./http/push";
import type { PushEndpointPolicy } from "./services/push-endpoint";
import { accountRoutes, pendingDeletionMailer } from "./http/account";
import { geocodeRoutes } from "./http/geocode";
import { photoRoutes } from "./http/photos";
import { likeRoutes } from "./http/likes";
import { blockRoutes } from "./http/blocks";
import { discoveryRoutes } from "./http/discovery";
import { chatRoutes } from "./http/chat";
import { eventRoutes } from "./http/events";
import { EventHub, streamCapsFor } from "./events/hub";
import { SiteCache } from "./domain/sites";
import { paymentNotifyRoutes, paymentRoutes } from "./http/payments";
import { directDebitRoutes } from "./http/direct-debit";
import { complaintRoutes } from "./http/complaints";
import { attributionRoutes } from "./http/attribution";
import { teaserRoutes } from "./http/teasers";
import { codeSecretOf, ibanKeyOf } from "./domain/payments/direct-debit";
import { createSmsSender, type SmsSender } from "./services/sms";
import { configuredPaymentProviders } from "./domain/payments/providers";
import type { PaymentProviders } from "./services/payments";
import { createMailer, type Mailer } from "./services/mail";
import { dataExportRoutes } from "./http/data-export";
import { startDataExportJob } from "./jobs/data-export";
import { unsubscribeKeyOf } from "./domain/notifications";
import { mailEventRoutes, notificationRoutes } from "./http/notifications";
import { startNotificationMailJob } from "./jobs/notification-mails";
import { reportRoutes } from "./http/reports";
import { staffAccountRoutes } from "./http/staff-accounts";
import { staffCatalogueRoutes } from "./http/staff-catalogue";
import { staffSiteRoutes } from "./http/staff-sites";
import { staffHeldMessageRoutes } from "./http/staff-held-messages";
import { camRoutes } from "./http/cam";
import { staffEventRoutes } from "./http/staff-events";
import { staffProfileRoutes } from "./http/staff-profiles";
import { staffInboxRoutes } from "./http/staff-inbox";
import { staffModerationRoutes } from "./http/staff-moderation";
import { staffRoutes } from "./http/staff";
import { staffAnalyticsRoutes } from "./http/staff-analytics";
import { staffSetupRoutes } from "./http/staff-setup";
import { apiMetricsEndpoint, apiRequestMetrics, labelRoute } from "./http/metrics";

export function createApiApp(options: {
  database: Database;
  config: ApiConfig;
  logger: Logger;
  mailer?: Mailer;
  /** The event stream's heartbeat (comment, presence, ended sessions): 15 s unless a test shortens it. */
  eventsHeartbeatMs?: number;
  /** The GIF provider; default: the one GIF_PROVIDER and TENOR_API_KEY choose. */
  gifs?: GifProvider;
  /** The payment providers; default: the ones the configuration chooses (docs/payments.md). */
  providers?: PaymentProviders;
  /** Where SMS codes go; default: SMS_PROVIDER's (files in DATA_DIR/sms). */
  sms?: SmsSender;
  /** Whether the data export job also runs on a timer (the api process); else only when a member asks. */
  dataExportTimer?: boolean;
  /** Whether notification mails (api/jobs/notification-mails.ts) go out every minute (the api process); tests run the job themselves. */
  notificationMailTimer?: boolean;
  /** Tests only: how push endpoints resolve, and a test push service's loopback origin (api/services/push-endpoint.ts). */
  pushEndpoints?: PushEndpointPolicy;
}) {
  const { database, config, logger } = options;
  const mailer = options.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, mailFrom: config.MAIL_FROM, dataDir: config.DATA_DIR, logger });
  const { db } = database;
  const limit = createClientLimiter(db, { secret: config.SESSION_SECRET, scale: config.CLIENT_LIMIT_SCALE });
  const accountDeps = { db, secret: config.SESSION_SECRET, mailer, publicUrl: config.PUBLIC_URL, limit };
  const hub = new EventHub(db, config.SESSION_SECRET, options.eventsHeartbeatMs, streamCapsFor(config.CLIENT_LIMIT_SCALE));
  announcerFor(db, (error) => logger.warn({ err: error }, "events could not be announced: streams receive them with the member's next event or on reconnect"));
  // The fuzz test wires the routes over a stand-in database that cannot listen.
  if (typeof database.listen === "function") hub.start(database.listen).catch((error: unknown) => logger.error({ err: error }, "event bus failed to start"));
  const siteCache = new SiteCache(db);
  if (typeof database.listen === "function") siteCache.listen(database.listen).catch((error: unknown) => logger.error({ err: error }, "site change listener failed to start"));
  const providers = options.providers ?? configuredPaymentProviders(database, config, logger);
  const app = express();
  app.disable("x-powered-by");
  app.locals.hub = hub;
  app.locals.siteCache = siteCache;
  app.set("trust proxy", trustProxyValue(config.TRUST_PROXY));

  app.get("/healthz", async (_req, res) => {
    try {
      await db.execute(sql`select 1`);
      res.json({ status: "ok", service: "api", checks: { database: database.kind } });
    } catch {
      res.status(503).json({ status: "degraded", service: "api", checks: { database: "unreachable" } });
    }
  });

  // Every request but the load balancer's health checks, counted and timed by its route pattern.
  app.use(apiRequestMetrics);

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const id = acceptedRequestId(req.headers["x-request-id"]);
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customSuccessObject: (_req, res, value: object) => ({ ...value, memberId: (res as express.Response).locals.member?.userId ?? null }),
      // pino-http invents an Error with a stack for every 5xx; only a real error is worth a stack in the log.
      customErrorObject: (_req, res, error, value: { err?: unknown }) => {
        const synthetic = !(res as { err?: unknown }).err && error.message === `failed with status code ${res.statusCode}`;
        const { err: _err, ...rest } = value;
        return { ...(synthetic ? rest : value), memberId: (res as express.Response).locals.member?.userId ?? null };
      },
      customLogLevel: (_req, res, error) => requestLogLevel(res.statusCode, error),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  // Nothing the api answers is a document to run: JSON and images only, never sniffed, never scripted.
  app.use((_req, res, next) => {
    res.set({ "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; sandbox" });
    next();
  });
  // The site is picked by the (forwarded) host: a target or host that is no host name is refused before that (contract/host.ts).
  app.use((req, res, next) => {
    const trusts = req.app.get("trust proxy fn") as (address: string, hop: number) => boolean;
    const refusal = normalizeRequestEdge(req, trusts(req.socket.remoteAddress ?? "", 0));
    if (!refusal) return next();
    req.log.warn({ refusal, status: 400 }, "request refused");
    res.set("Connection", "close");
    sendError(res, "validation_failed", { fields: { host: ["must be a host name with an optional port"] } });
  });
  // One canonical path (contract/host.ts): web refuses any other before its guard and proxy; the api does too.
  app.use((req, res, next) => {
    if (isCanonicalPath(req.originalUrl)) return next();
    req.log.warn({ refusal: "non_canonical_path", status: 400 }, "request refused");
    sendError(res, "validation_failed", { fields: { path: ["must be a canonical path: no //, /./, /../ or encoded slash, backslash or dot"] } });
  });
  // Prometheus' scrape, behind METRICS_TOKEN (docs/operations.md, Metrics).
  app.get("/metrics", apiMetricsEndpoint({ database, hub, token: config.METRICS_TOKEN, notificationMailMinutes: config.NOTIFICATION_MAIL_MINUTES, logger }));
  app.use(clientContext);
  app.use(bodyCap);
  app.use(answerAfterBody);
  app.use("/uploads", labelRoute("/uploads"), express.static(path.resolve(config.DATA_DIR, "uploads"), { maxAge: "30d", immutable: true, fallthrough: false }));
  // Provider notifications: no session, raw body (the signature is over it), so before the JSON parser.
  app.use(paymentNotifyRoutes({ db, providers }));
  // The mail provider's bounces and complaints: the shared secret is checked before the body is parsed.
  app.use(mailEventRoutes({ db, limit, secret: config.MAIL_EVENTS_SECRET }));
  app.use(express.json({ limit: bodyLimits.jsonBytes }));
  app.use(requestContext(db, config.SESSION_SECRET, siteCache));
  app.use(settingsRoutes());
  app.use(openApiRoutes());
  app.use(camRoutes({ db, limit }));
  app.use(pushRoutes(db, options.pushEndpoints));
  app.use(userRoutes(db, config.SESSION_SECRET, limit, pendingDeletionMailer(accountDeps)));
  app.use(accountRoutes(accountDeps));
  app.use(geocodeRoutes());
  app.use(photoRoutes(db, { dataDir: config.DATA_DIR }));
  app.use(likeRoutes(db));
  app.use(blockRoutes(db));
  app.use(discoveryRoutes(db));
  const gifs = options.gifs ?? gifProviderFromEnv(process.env, config.DATA_DIR);
  app.use(chatRoutes(db, limit, gifs));
  app.use(chatExtrasRoutes(db, limit, { dataDir: config.DATA_DIR, gifs }));
  app.use(eventRoutes(db, hub, limit));
  app.use(paymentRoutes({ db, providers, limit, publicUrl: config.PUBLIC_URL, debitLimit30d: config.DEBIT_LIMIT_30D }));
  app.use(
    directDebitRoutes({
      db,
      providers,
      limit,
      sms: options.sms ?? createSmsSender(config),
      config: { limit30d: config.DEBIT_LIMIT_30D, ibanKey: ibanKeyOf(config), codeSecret: codeSecretOf(config.SESSION_SECRET) },
      publicUrl: config.PUBLIC_URL,
      logger,
    }),
  );
  const dataExportJob = startDataExportJob(db, { dataDir: config.DATA_DIR, mailer, logger, unsubscribeKey: unsubscribeKeyOf(config.SESSION_SECRET), periodic: options.dataExportTimer ?? false, intervalScale: config.JOB_INTERVAL_SCALE });
  app.use(dataExportRoutes({ db, dataDir: config.DATA_DIR, limit, job: dataExportJob, publicUrl: config.PUBLIC_URL }));

  app.use(complaintRoutes({ db, mailer, limit }));
  app.use(attributionRoutes({ db, limit }));
  app.use(teaserRoutes({ db, limit }));
  app.use(reportRoutes({ db, limit }));
  app.use(
    staffRoutes({
      db,
      secret: config.SESSION_SECRET,
      limit,
      hub,
      more: [
        staffSetupRoutes({ db, secret: config.SESSION_SECRET, limit }),
        staffModerationRoutes({ db, mailer, providers, publicUrl: config.PUBLIC_URL, secret: config.SESSION_SECRET, dataDir: config.DATA_DIR }),
        staffEventRoutes({ db, secret: config.SESSION_SECRET }),
        staffAccountRoutes({ db, secret: config.SESSION_SECRET, publicUrl: config.PUBLIC_URL }),
        staffInboxRoutes({ db, dataDir: config.DATA_DIR }),
        staffCatalogueRoutes({ db, publicUrl: config.PUBLIC_URL }),
        staffSiteRoutes({ db, siteCache }),
        staffHeldMessageRoutes({ db }),
        staffProfileRoutes({ db, dataDir: config.DATA_DIR }),
        staffAnalyticsRoutes({ db }),
      ],
    }),
  );
  app.use(notificationRoutes({ db, limit, unsubscribeKey: unsubscribeKeyOf(config.SESSION_SECRET) }));
  if (options.notificationMailTimer) {
    startNotificationMailJob({ db, mailer, logger, unsubscribeKey: unsubscribeKeyOf(config.SESSION_SECRET), publicUrl: config.PUBLIC_URL, intervalMinutes: config.NOTIFICATION_MAIL_MINUTES, periodic: true, intervalScale: config.JOB_INTERVAL_SCALE });
  }

  app.use("/api", (_req, res) => sendError(res, "not_found"));

  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    if (error instanceof HashQueueFull) return tooManyRequests(res, error.retryAfterSeconds);
    const status = typeof error?.status === "number" ? error.status : 500;
    if (status === 413) return refuseTooLarge(res);
    if (status >= 400 && status < 500) {
      // Malformed JSON, a body over the limit, a missing upload: the client's mistake, said plainly.
      if (status === 404) return sendError(res, "not_found");
      return sendError(res, "validation_failed", { fields: { _: [error.type === "entity.too.large" ? "Request body too large" : "Malformed request body"] } });
    }
    req.log.error({ err: error }, "request failed");
    if (res.headersSent) return;
    sendError(res, "internal_error");
  };
  app.use(onError);
  return app;
}

function trustProxyValue(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
