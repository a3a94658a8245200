import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import Negotiator from "negotiator";
import { brotliWindowBits } from "../../server/compression";

/** A chunk given to res.write as a Buffer, without copying one that is already bytes. */
function chunkBuffer(chunk: string | Uint8Array, encoding?: unknown): Buffer {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** compression()'s threshold: a smaller body goes as it is. */
const thresholdBytes = 1024;
/** As compression() negotiates: brotli, else gzip, whatever order the browser lists them in (quality 4 as compression() gives brotli). */
const supported = ["br", "gzip", "identity"];
const preferred = ["br", "gzip"];

type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;
type End = (chunk?: unknown, encoding?: unknown, callback?: unknown) => Response;

/** Only a complete HTML page is held: Remix renders a page in one go (no deferred data), anything else streams on. */
function holdsBody(req: Request, res: Response): boolean {
  const type = res.getHeader("Content-Type");
  if (typeof type !== "string" || !type.startsWith("text/html")) return false;
  if (res.getHeader("Content-Encoding") !== undefined || res.statusCode === 204 || res.statusCode === 304) return false;
  const cacheControl = res.getHeader("Cache-Control");
  return !(typeof cacheControl === "string" && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl)) && req.method !== "HEAD";
}

/**
 * The bench's `bare Remix` only (bench/bare-remix/server.ts), which keeps being served as every run since 2026-12-04
 * served it: Remix's default entry streams its page, and this holds it and compresses it whole. web itself compresses
 * its pages in its document entry (server/page-compression.ts, ADR 022), which renders a page whole, and has no
 * middleware that rewrites res.write and res.end.
 *
 * Compresses a page in one piece when it ends, instead of through a compression stream that lives while the page
 * renders (docs/performance-history.md): with 50 pages at once, 50 brotli encoders were alive together and each cost about
 * 1 ms of CPU; one call over the whole page, with its size as the hint, costs about 0.3 ms and keeps one encoder
 * busy at a time. Register it after compression(): it hands compression() a body that is
 * already encoded (with Content-Encoding and Content-Length set), which compression() then leaves alone apart from
 * `Vary: Accept-Encoding`. Anything but an HTML page (a resource route, an event stream, a redirect) goes through
 * untouched, so compression() streams it as before.
 */
export function compressWholePages(req: Request, res: Response, next: NextFunction): void {
  // negotiator 0.6.4 takes the server's preference as a second argument (as compression() passes it); its types do not say so.
  const negotiator = new Negotiator(req) as unknown as { encoding: (available: string[], preferred: string[]) => string | undefined };
  const encoding = negotiator.encoding(supported, preferred);
  if (encoding !== "br" && encoding !== "gzip") return next();
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as End;
  /** Decided at the first write or end, once Remix has set the headers. */
  let held: Buffer[] | "passed" | undefined;
  let heldBytes = 0;
  const holding = (): boolean => {
    if (held === undefined) {
      held = holdsBody(req, res) ? [] : "passed";
      if (held === "passed") {
        // Not a page: the response goes on as it would have without this.
        res.write = write as Response["write"];
        res.end = end as Response["end"];
      }
    }
    return held !== "passed";
  };
  const hold = (chunk: unknown, chunkEncoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    const buffer = chunkBuffer(chunk as string | Uint8Array, chunkEncoding);
    (held as Buffer[]).push(buffer);
    heldBytes += buffer.length;
  };

  res.write = function heldWrite(chunk: unknown, chunkEncoding?: unknown, callback?: unknown): boolean {
    if (!holding()) return write(chunk, chunkEncoding, callback);
    hold(chunk, chunkEncoding);
    const done = typeof chunkEncoding === "function" ? chunkEncoding : callback;
    if (typeof done === "function") process.nextTick(done as () => void);
    return true;
  } as Response["write"];

  res.end = function heldEnd(chunk?: unknown, chunkEncoding?: unknown, callback?: unknown): Response {
    if (!holding()) return end(chunk, chunkEncoding, callback);
    hold(chunk, chunkEncoding);
    const done = [chunk, chunkEncoding, callback].find((arg) => typeof arg === "function");
    const parts = held as Buffer[];
    const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts, heldBytes);
    held = [];
    heldBytes = 0;
    if (body.length < thresholdBytes) return end(body, done);
    const encoded =
      encoding === "br"
        ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : gzipSync(body);
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", encoded.length);
    return end(encoded, done);
  } as Response["end"];

  // Nothing to flush while a page is held; compression()'s flush for anything else.
  const flushable = res as Response & { flush?: () => void };
  const flush = flushable.flush?.bind(res);
  flushable.flush = () => {
    if (held === "passed") flush?.();
  };
  next();
}
