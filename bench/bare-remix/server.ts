/**
 * The `bare Remix` ceiling of the bench: the production build of bench/bare-remix/app served the
 * way server/app.ts serves the app (Express 4, compression() with web's options, a page compressed whole,
 * @remix-run/express, the assets with `immutable, maxAge 1y`), without helmet, request logs or an api behind it. Its one route reads 20
 * rows from a database in this process: PGlite in memory, or PostgreSQL when DATABASE_URL is set
 * (table bench_bare_members, filled afresh at start). Listens on BARE_REMIX_PORT (127.0.0.1).
 * BARE_REMIX_STOCK=1: compression() as it comes (brotli's 4 MB window, a compression stream per page), the way every
 * bench before 2026-12-04 served it: the bench's `bare Remix, stock compression()` row, which keeps those runs' yardstick.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import express from "express";
import compression from "compression";
import { compressionOptions } from "../../server/compression";
import { compressWholePages } from "../../server/whole-page-compression";
import { faker } from "@faker-js/faker";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { BareLoadContext, BareMember } from "./app/context";
import { bareRemixBuild } from "./paths";

const port = Number(process.env.BARE_REMIX_PORT);
if (!Number.isInteger(port) || port <= 0) {
  console.error("bare-remix: BARE_REMIX_PORT is required");
  process.exit(1);
}

type Sql = { query: (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>; close: () => Promise<void> };

async function openSql(): Promise<Sql> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return { query: (text, params) => pool.query(text, params), close: () => pool.end() };
  }
  const db = new PGlite();
  return { query: (text, params) => db.query(text, params), close: () => db.close() };
}

/** 300 members, the same ones on every start (seeded faker). */
async function fill(sql: Sql): Promise<void> {
  await sql.query(`CREATE TABLE IF NOT EXISTS bench_bare_members (
    id integer PRIMARY KEY, name text NOT NULL, age integer NOT NULL, city text NOT NULL, about text NOT NULL)`);
  await sql.query("TRUNCATE bench_bare_members");
  faker.seed(20_240_101);
  const rows = Array.from({ length: 300 }, (_, i) => [i + 1, faker.person.firstName(), faker.number.int({ min: 18, max: 70 }), faker.location.city(), faker.lorem.sentences(2)]);
  const placeholders = rows.map((_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`).join(", ");
  await sql.query(`INSERT INTO bench_bare_members (id, name, age, city, about) VALUES ${placeholders}`, rows.flat());
}

const sql = await openSql();
await fill(sql);

const context: BareLoadContext = {
  members: async (limit, offset) =>
    (await sql.query("SELECT id, name, age, city, about FROM bench_bare_members ORDER BY id LIMIT $1 OFFSET $2", [limit, offset])).rows as BareMember[],
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
  server.close(() => void sql.close().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
