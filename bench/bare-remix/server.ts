/**
 * The `bare Remix` ceiling of the bench: the production build of bench/bare-remix/app served the
 * way server/app.ts serves the app (Express 4, compression() with web's options, a page compressed whole,
 * @remix-run/express, the assets with `immutable, maxAge 1y`), without helmet, request logs or an api behind it. Its one route reads 20
 * rows from a database in this process: PGlite in memory, or PostgreSQL when DATABASE_URL is set
 * (table bench_bare_members, filled afresh at start; bench/bare-remix/sql.ts). Listens on BARE_REMIX_PORT (127.0.0.1).
 * BARE_REMIX_API_URL: the rows come over HTTP from bench/bare-api.ts instead (the `bare Remix behind a bare api` row).
 * BARE_REMIX_STOCK=1: compression() as it comes (brotli's 4 MB window, a compression stream per page), the way every
 * bench before 2026-12-04 served it: the bench's `bare Remix, stock compression()` row, which keeps those runs' yardstick.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import express from "express";
import compression from "compression";
import { compressionOptions } from "../../server/compression";
import { compressWholePages } from "./whole-page-compression";
import { requestApi } from "../../server/api-client";
import { fillBareMembers, openBareSql } from "./sql";
import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { BareLoadContext, BareMember } from "./app/context";
import { bareRemixBuild } from "./paths";

const port = Number(process.env.BARE_REMIX_PORT);
if (!Number.isInteger(port) || port <= 0) {
  console.error("bare-remix: BARE_REMIX_PORT is required");
  process.exit(1);
}

const apiUrl = process.env.BARE_REMIX_API_URL;
const sql = apiUrl ? null : await openBareSql({ prepared: false });
if (sql) await fillBareMembers(sql);

const context: BareLoadContext = {
  members: sql
    ? (limit, offset) => sql.members(limit, offset)
    : // Over HTTP from bench/bare-api.ts, as web asks the api (server/api-client.ts: node:http, kept-alive connections).
      async (limit, offset) => {
        const answer = await requestApi(new URL(`/members?limit=${limit}&offset=${offset}`, apiUrl), { method: "GET", headers: { accept: "application/json" }, timeoutMs: 10_000 });
        if (answer.status !== 200) throw new Error(`bare api answered ${answer.status}`);
        return (answer.json as { members: BareMember[] }).members;
      },
};

const build = (await import(pathToFileURL(path.join(bareRemixBuild, "server/index.js")).href)) as ServerBuild;
const app = express();
app.disable("x-powered-by");
const stock = process.env.BARE_REMIX_STOCK === "1";
app.use(stock ? compression() : compression(compressionOptions));
app.use("/assets", express.static(path.join(bareRemixBuild, "client/assets"), { immutable: true, maxAge: "1y", index: false }));
app.use(express.static(path.join(bareRemixBuild, "client"), { maxAge: "1h", index: false }));
const handler = createRequestHandler({ build, mode: "production", getLoadContext: () => context as unknown as AppLoadContext });
app.all("*", ...(stock ? [handler] : [compressWholePages, handler]));
const server = app.listen(port, "127.0.0.1");

const stop = () => {
  server.close(() => void (sql?.close() ?? Promise.resolve()).finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
