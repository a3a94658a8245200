/**
 * The ceiling: a bare Express 4 route on BARE_PORT (127.0.0.1), run as its own process so it does
 * not share an event loop with autocannon.
 */
import express from "express";

const port = Number(process.env.BARE_PORT);
if (!Number.isInteger(port) || port <= 0) {
  console.error("bare: BARE_PORT is required");
  process.exit(1);
}

const app = express();
app.get("/bare", (_req, res) => {
  res.send("ok");
});
const server = app.listen(port, "127.0.0.1");

const stop = () => {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
