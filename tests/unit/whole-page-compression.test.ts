import http, { type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, createGunzip, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressionOptions } from "../../server/compression";
import { coalesceWrites } from "../../server/coalesce-writes";
import { compressWholePages } from "../../server/whole-page-compression";
import { errorHandler } from "../../server/edge";

/**
 * web compresses an HTML page in one piece when it ends (server/whole-page-compression.ts), behind compression()
 * and coalesceWrites as server/app.ts mounts them; everything else still streams through compression().
 */
let server: Server;
let base = "";
const page = `<!DOCTYPE html><html><body>${"<p>Members of Rendezvous</p>".repeat(200)}</body></html>`;
let releaseStream: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.use(compression(compressionOptions));
  // A page written in pieces with flushes between them, as Remix writes one.
  app.get("/page", coalesceWrites, compressWholePages, (_req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    const flush = () => (res as express.Response & { flush: () => void }).flush();
    res.write(page.slice(0, 1000));
    flush();
    setImmediate(() => {
      res.write(Buffer.from(page.slice(1000, 3000)));
      flush();
      res.end(new TextEncoder().encode(page.slice(3000)));
    });
  });
  app.get("/small", coalesceWrites, compressWholePages, (_req, res) => void res.type("html").end("<p>short</p>"));
  // An event stream: its first event must arrive while the response is still open.
  app.get("/events", coalesceWrites, compressWholePages, (_req, res) => {
    res.setHeader("Content-Type", "text/event-stream");
    res.write(`data: ${"x".repeat(2000)}\n\n`);
    (res as express.Response & { flush: () => void }).flush();
    releaseStream = () => res.end();
  });
  // A page that fails halfway through, after part of it was written (and held).
  app.get("/broken-page", coalesceWrites, compressWholePages, (_req, res, next) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.write(page.slice(0, 2000));
    setImmediate(() => next(new Error("the render failed halfway")));
  });
  app.use(errorHandler(pino({ level: "silent" })));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

function get(path: string, acceptEncoding?: string): Promise<{ res: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ res, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

describe("an HTML page", () => {
  it("goes out in brotli (a browser's accept-encoding), in one piece with its length, the whole page", async () => {
    const { res, body } = await get("/page", "gzip, deflate, br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(Number(res.headers["content-length"])).toBe(body.length);
    expect(res.headers["transfer-encoding"]).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(body).toString("utf8")).toBe(page);
  });

  it("goes out in gzip to a client without brotli, and as it is to one that asks for no encoding", async () => {
    const gzip = await get("/page", "gzip");
    expect(gzip.res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString("utf8")).toBe(page);
    const plain = await get("/page");
    expect(plain.res.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toBe(page);
  });

  it("below compression()'s 1 KB threshold goes as it is", async () => {
    const { res, body } = await get("/small", "br");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(body.toString("utf8")).toBe("<p>short</p>");
  });
});

it("an event stream is not held: its first event arrives, compressed, while the response is open", async () => {
  const first = await new Promise<{ encoding: string | undefined; text: string }>((resolve, reject) => {
    const req = http.get(`${base}/events`, { headers: { "accept-encoding": "gzip" } }, (res) => {
      const gunzip = res.pipe(createGunzip());
      gunzip.once("data", (chunk: Buffer) => {
        resolve({ encoding: res.headers["content-encoding"], text: chunk.toString("utf8") });
        req.destroy();
      });
    });
    req.on("error", reject);
  });
  releaseStream();
  expect(first.encoding).toBe("gzip");
  expect(first.text.startsWith("data: xxx")).toBe(true);
});

it("a page that fails after part of it was written ends the connection, without sending the half or an error page after it", async () => {
  await expect(get("/broken-page", "br")).rejects.toThrow(/socket hang up|ECONNRESET/);
});
