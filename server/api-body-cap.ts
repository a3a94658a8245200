import type { ClientRequest } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { apiBodyLimit } from "#contract/body-limits";
import { closeOnceAnswered, edgeAnswer } from "./edge";

declare module "express-serve-static-core" {
  interface Locals {
    /** The proxied request to the api, once it has a socket (server/app.ts), so a body cut off here can stop it. */
    upstream?: ClientRequest;
    /** Set when apiBodyCap cut the body off: the proxy's resulting error is expected, not worth a line. */
    bodyCut?: boolean;
  }
}

function refuse(req: Request, res: Response, reason: "declared_too_large" | "streamed_too_large", limit: number): void {
  req.log.warn({ refusal: reason, status: 413, limit }, "request refused");
  edgeAnswer(req, res, 413, { close: true });
}

/**
 * The api's body caps per route (contract/body-limits.ts), applied before a byte reaches the api, for
 * every method and whether or not the route checks the origin. A declared Content-Length over the cap:
 * 413, the connection closes; a body of at most 256 KB is read and dropped before the answer (edge.ts
 * answerAfterSmallBody), a larger one is never read. A body without a length (chunked) is
 * counted as it streams through the proxy; past the cap it is cut off: 413 (or the api's answer, if it came
 * first, finished), the api's request destroyed.
 */
export function apiBodyCap(req: Request, res: Response, next: NextFunction): void {
  const limit = apiBodyLimit(req.originalUrl.split("?")[0]!);
  const declared = req.get("content-length");
  if (declared !== undefined) {
    if (!(Number(declared) <= limit)) return refuse(req, res, "declared_too_large", limit);
    // Node's parser holds a body to its declared length: nothing more can arrive.
    return next();
  }
  if (req.get("transfer-encoding") === undefined) return next();

  let seen = 0;
  const count = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= limit) return;
    req.off("data", count);
    req.unpipe();
    req.pause();
    res.locals.bodyCut = true;
    const upstream = res.locals.upstream;
    if (!res.headersSent) {
      upstream?.destroy();
      return refuse(req, res, "streamed_too_large", limit);
    }
    // The api answered before reading its body (a refusal on the headers alone) and the client is still sending:
    // that answer is what the client gets, whole, and then both connections close.
    closeOnceAnswered(req, res);
    res.once("close", () => upstream?.destroy());
  };
  // Paused, the body waits for the proxy's pipe (which resumes it), so this counter and the pipe see every chunk.
  req.pause();
  req.on("data", count);
  next();
}

/** Called with the proxied request when it gets its socket: kept for apiBodyCap, or stopped if the body was already cut off. */
export function rememberUpstream(res: Response, upstream: ClientRequest): void {
  if (res.locals.bodyCut) upstream.destroy();
  else res.locals.upstream = upstream;
}
