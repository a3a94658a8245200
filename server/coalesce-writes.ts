import type { NextFunction, Request, Response } from "express";

/** A chunk given to res.write as a Buffer, without copying one that is already bytes. */
export function chunkBuffer(chunk: string | Uint8Array, encoding?: unknown): Buffer {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Above this many buffered bytes a write goes on at once. */
const maxBufferedBytes = 64 * 1024;

/**
 * Joins the many small writes of a streamed page (React writes the HTML in pieces of a few hundred
 * bytes to 2 KB, and Remix calls compression's res.flush() after each) into one write and one flush
 * per turn of the event loop: every flush is a separate brotli/gzip block and socket write, which
 * cost web more CPU than compressing the page in one go.
 * Streaming is kept: what was written during one turn goes out at the end of that turn (setImmediate),
 * so a page whose later parts wait for data still sends its first part right away.
 * Register it after compression(), so it wraps compression's write.
 */
export function coalesceWrites(_req: Request, res: Response, next: NextFunction): void {
  const write = res.write.bind(res) as (chunk: unknown, encoding?: BufferEncoding, callback?: (error?: Error | null) => void) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, encoding?: BufferEncoding, callback?: () => void) => Response;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let scheduled: NodeJS.Immediate | null = null;
  const flushable = res as Response & { flush?: () => void };
  const originalFlush = typeof flushable.flush === "function" ? flushable.flush.bind(res) : undefined;
  let flushRequested = false;

  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = null;
    let ok = true;
    if (pendingBytes > 0) {
      const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      ok = write(chunk);
    }
    if (flushRequested) {
      flushRequested = false;
      originalFlush?.();
    }
    return ok;
  };

  if (originalFlush) {
    // compression()'s flush: done once, after the joined write.
    flushable.flush = () => {
      flushRequested = true;
      scheduled ??= setImmediate(flush);
    };
  }

  res.write = function coalescedWrite(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    // Only plain data is held back; anything with a callback keeps its exact ordering and timing.
    if (typeof encoding === "function" || typeof callback === "function" || !(typeof chunk === "string" || Buffer.isBuffer(chunk) || chunk instanceof Uint8Array)) {
      flush();
      return (write as (...args: unknown[]) => boolean)(chunk, encoding, callback);
    }
    const buffer = chunkBuffer(chunk, encoding);
    if (buffer.length === 0) return true;
    pending.push(buffer);
    pendingBytes += buffer.length;
    if (pendingBytes >= maxBufferedBytes) return flush();
    scheduled ??= setImmediate(flush);
    return true;
  } as Response["write"];

  res.end = function coalescedEnd(chunk?: unknown, encoding?: unknown, callback?: unknown): Response {
    if (pendingBytes > 0) {
      if (typeof chunk === "function" || chunk === undefined || chunk === null) {
        // end(), end(callback): the buffered data is the last chunk.
        const last = Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        if (scheduled) clearImmediate(scheduled);
        scheduled = null;
        flushRequested = false;
        return (end as (...args: unknown[]) => Response)(last, ...(typeof chunk === "function" ? [chunk] : []));
      }
      flush();
    } else if (scheduled) {
      clearImmediate(scheduled);
      scheduled = null;
      flushRequested = false;
    }
    return (end as (...args: unknown[]) => Response)(chunk, encoding, callback);
  } as Response["end"];

  next();
}
