import { configErrorExitCode } from "#contract/app-mode";
import { loadApiConfig } from "./config";
import { openDatabase, type Database } from "./db/client";
import type { ApiConfig } from "./config";
import type { Logger } from "pino";
import { seedDemoData, seedMissingDiscountCodes, seedMissingPackages } from "./db/seed";
import { seedDemoStaff } from "./db/seed-staff";
import { createApiApp } from "./app";
import { openApiDocument } from "./openapi/document";
import { createLogger } from "./logger";
import { logProcessFailures } from "#contract/log-redaction";
import { startEraseJob } from "./jobs/erase-deleted-accounts";
import { startChatImageSweep } from "./jobs/sweep-chat-images";
import { startClientLimitsPrune } from "./jobs/prune-client-limits";
import { startAnalyticsRollUp } from "./jobs/analytics-messages";
import { startPushWorker } from "./jobs/push";
import { createPushSender, deploymentVapidKeys } from "./services/push";
import { startSettlePaymentsJob } from "./jobs/settle-payments";
import { configuredPaymentProviders } from "./domain/payments/providers";
import { keepIdleConnections } from "#contract/http";

async function main() {
  let config;
  try {
    config = loadApiConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(configErrorExitCode);
  }
  const logger = createLogger("api", config.LOG_LEVEL);
  logProcessFailures(logger);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    onConnectionLost: (error) => logger.warn({ err: error }, "database connection lost; the pool opens a new one"),
  });
  // Instances started together on one database seed it once (the others find the data and leave it).
  if (config.DEMO_DATA) await database.exclusive(() => seedDemo(database, config, logger));
  let providers;
  try {
    providers = configuredPaymentProviders(database, config, logger);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(configErrorExitCode);
  }
  const app = createApiApp({ database, config, logger, providers, dataExportTimer: true, notificationMailTimer: true });
  // GET /api/openapi.json's document, built at start (api/openapi/document.ts) rather than by the first request.
  openApiDocument();
  startEraseJob(database.db, { dataDir: config.DATA_DIR, logger, intervalScale: config.JOB_INTERVAL_SCALE });
  startChatImageSweep(database.db, { dataDir: config.DATA_DIR, logger, intervalScale: config.JOB_INTERVAL_SCALE });
  startClientLimitsPrune(database.db, { logger, intervalScale: config.JOB_INTERVAL_SCALE });
  startAnalyticsRollUp(database.db, { logger, intervalScale: config.JOB_INTERVAL_SCALE });
  // Web push (docs/push.md): sites without their own VAPID pair push with the deployment's when allowed,
  // and the settings then report that public key, so browsers subscribe with the key pushes are signed with.
  const keylessSites = config.PUSH_KEYLESS_SITES ?? Boolean(config.VAPID_PUBLIC_KEY);
  const deploymentKeys = keylessSites ? deploymentVapidKeys({ publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, dataDir: config.DATA_DIR }) : null;
  app.locals.keylessSitesPushKey = deploymentKeys?.publicKey ?? null;
  const pushWorker = startPushWorker({
    db: database.db,
    logger,
    sender: createPushSender({ delivery: config.PUSH_DELIVERY, dataDir: config.DATA_DIR }),
    deploymentKeys,
    subject: config.VAPID_SUBJECT,
    listen: database.listen,
  });
  startSettlePaymentsJob(database.db, providers, { logger, intervalScale: config.JOB_INTERVAL_SCALE });
  const server = app.listen(config.API_PORT, config.API_HOST, () => {
    logger.info({ port: config.API_PORT, host: config.API_HOST, database: database.kind, mode: config.APP_MODE, sandbox: providers.sandboxEnabled }, "api listening");
  });
  keepIdleConnections(server);
  const stop = () => {
    server.close(() => void pushWorker.stop().finally(() => void database.close().finally(() => process.exit(0))));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

void main();

/** The demo data (sites, members, packages, codes), and demo staff with data made just now. */
async function seedDemo(database: Database, config: ApiConfig, logger: Logger): Promise<void> {
  const seeded = await seedDemoData(database.db, { uploadsDir: `${config.DATA_DIR}/uploads` });
  if (seeded) logger.info({ members: seeded.members, sites: seeded.sites }, "demo data created");
  else {
    if (await seedMissingPackages(database.db)) logger.info("demo credit packages created");
    if (await seedMissingDiscountCodes(database.db)) logger.info("demo discount codes created");
  }
  // Demo staff (a published password and TOTP secret) only with the demo data made just now, and never in
  // production mode: an existing database keeps the staff it has (docs/staff.md).
  if (seeded && config.APP_MODE !== "production" && (await seedDemoStaff(database.db, config.SESSION_SECRET))) logger.info("demo staff accounts created");
}

