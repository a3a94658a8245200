import http, { type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, createGunzip, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressionOptions } from "../../server/compression";
import { compressPage } from "../../server/page-compression";

/**
 * web's document entry compresses a page in one piece (server/page-compression.ts, called by app/entry.server.tsx);
 * compression(), mounted as server/app.ts mounts it, leaves that answer alone and still streams everything else.
 */
let server: Server;
let base = "";
const page = `<!DOCTYPE html><html><body>${"<p>Members of Rendezvous</p>".repeat(200)}</body></html>`;
let releaseStream: () => void = () => undefined;

/** What Remix's Express adapter does with the entry's Response: its headers onto the answer, then its body. */
function sendAsRemix(res: express.Response, html: string, acceptEncoding: string | undefined): void {
  const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
  const body = compressPage(acceptEncoding ?? null, Buffer.from(html), headers);
  for (const [name, value] of headers) res.append(name, value);
  res.end(body);
}

beforeAll(async () => {
  const app = express();
  app.use(compression(compressionOptions));
  app.get("/page", (req, res) => sendAsRemix(res, page, req.headers["accept-encoding"]));
  app.get("/small", (req, res) => sendAsRemix(res, "<p>short</p>", req.headers["accept-encoding"]));
  // An event stream: its first event must arrive, compressed by compression(), while the response is still open.
  app.get("/events", (_req, res) => {
    res.setHeader("Content-Type", "text/event-stream");
    res.write(`data: ${"x".repeat(2000)}\n\n`);
    (res as express.Response & { flush: () => void }).flush();
    releaseStream = () => res.end();
  });
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
    // compression() saw it was encoded already: it did not compress it a second time.
    expect(brotliDecompressSync(body).length).toBe(page.length);
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
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(body.toString("utf8")).toBe("<p>short</p>");
  });
});

it("an event stream still streams through compression(): its first event arrives, compressed, while the response is open", async () => {
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
