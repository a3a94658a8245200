import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pino from "pino";
import type { ServerBuild } from "@remix-run/node";
import { configErrorExitCode } from "#contract/app-mode";
import { keepIdleConnections } from "#contract/http";
import { logProcessFailures, redactingLoggerOptions } from "#contract/log-redaction";
import { loadWebConfig } from "./config";
import { createWebApp } from "./app";
import { cacheRouteMatching } from "./patches/route-matching";

async function main() {
  let config;
  try {
    config = loadWebConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(configErrorExitCode);
  }
  // The same redaction as the api's: no password, token, cookie, e-mail address or push key in a line.
  const logger = pino({ level: config.LOG_LEVEL, base: { service: "web" }, ...redactingLoggerOptions() });
  logProcessFailures(logger);
  const dev = config.NODE_ENV === "development";
  let app;
  if (dev) {
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true }, appType: "custom" }));
    app = createWebApp({ config, logger, vite });
  } else {
    const buildFile = path.resolve("build/server/index.js");
    if (!existsSync(buildFile)) {
      console.error("No production build in build/: run `npm run build` first (npm start does it for you).");
      process.exit(1);
    }
    cacheRouteMatching();
    const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
    app = createWebApp({ config, logger, build });
  }
  const server = app.listen(config.PORT, config.HOST, () => {
    logger.info({ port: config.PORT, api: config.API_URL.join(", "), build: dev ? "development" : "production", mode: config.APP_MODE }, "web listening");
  });
  keepIdleConnections(server);
  const stop = () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

void main();
