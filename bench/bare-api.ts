/**
 * The api half of the bench's `bare Remix behind a bare api` row: Express 4 on BARE_API_PORT (127.0.0.1) with one
 * route, GET /members?limit&offset, answering a page of bench_bare_members as JSON from the database
 * (PostgreSQL with DATABASE_URL, a pool of 10 as api/db/client.ts has; else PGlite in memory, filled here). It has
 * nothing of the api's own: no session, limits, logs or metrics. With it, bare Remix reads its cards over HTTP, so the
 * row measures what the two-service design (web asks the api, the api asks the database) costs a page at least.
 */
import express from "express";
import { openBareSql, fillBareMembers } from "./bare-remix/sql";

const port = Number(process.env.BARE_API_PORT);
if (!Number.isInteger(port) || port <= 0) {
  console.error("bare-api: BARE_API_PORT is required");
  process.exit(1);
}

const sql = await openBareSql({ prepared: true });
// On PostgreSQL the table is shared with bare Remix, which fills it; PGlite is this process's own.
if (!process.env.DATABASE_URL) await fillBareMembers(sql);

const app = express();
app.disable("x-powered-by");
app.get("/members", (req, res, next) => {
  const limit = Math.min(100, Math.max(1, Number(req.query.limit) || 20));
  const offset = Math.max(0, Number(req.query.offset) || 0);
  // A failed query is Express's 500 (bare Remix then answers 500 too, which the bench counts), not a crash.
  sql.members(limit, offset).then((members) => res.json({ members }), next);
});
const server = app.listen(port, "127.0.0.1");

const stop = () => {
  server.close(() => void sql.close().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
