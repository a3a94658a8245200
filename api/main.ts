import { loadApiConfig } from "./config";
import { openDatabase } from "./db/client";
import { seedDemoData, seedMissingPackages } from "./db/seed";
import { createApiApp } from "./app";
import { createLogger } from "./logger";
import { startEraseJob } from "./jobs/erase-deleted-accounts";
import { startSettlePaymentsJob } from "./jobs/settle-payments";
import { configuredPaymentProviders } from "./domain/payments/providers";

async function main() {
  let config;
  try {
    config = loadApiConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const logger = createLogger("api", config.LOG_LEVEL);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  if (config.DEMO_DATA) {
    const seeded = await seedDemoData(database.db, { uploadsDir: `${config.DATA_DIR}/uploads` });
    if (seeded) logger.info({ members: seeded.members, sites: seeded.sites }, "demo data created");
    else if (await seedMissingPackages(database.db)) logger.info("demo credit packages created");
  }
  let providers;
  try {
    providers = configuredPaymentProviders(database, config, logger);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const app = createApiApp({ database, config, logger, providers });
  startEraseJob(database.db, { dataDir: config.DATA_DIR, logger });
  startSettlePaymentsJob(database.db, providers, { logger });
  const server = app.listen(config.API_PORT, config.API_HOST, () => {
    logger.info({ port: config.API_PORT, host: config.API_HOST, database: database.kind }, "api listening");
  });
  const stop = () => {
    server.close(() => void database.close().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

void main();
