import type { NextFunction, Request, Response } from "express";
import { apiBodyLimit, apiBodyLimits } from "#contract/body-limits";
import { sendError } from "./respond";

/** Request bodies the api reads, per route (contract/body-limits.ts, the same table web applies before proxying). */
export const bodyLimits = apiBodyLimits;

/** 413 and the connection closed, so the rest of an oversized body is never read. */
export function refuseTooLarge(res: Response): void {
  res.set("Connection", "close");
  sendError(res, "request_too_large");
}

/**
 * Refuses a body by its declared length before anything reads it; a chunked body without a length
 * is counted by the parser that reads it (express.json's limit, multer's limits).
 */
export function bodyCap(req: Request, res: Response, next: NextFunction): void {
  const declared = Number(req.get("content-length") ?? 0);
  if (Number.isFinite(declared) && declared > apiBodyLimit(req.path)) return refuseTooLarge(res);
  next();
}

/** How long an early answer waits for the rest of a declared body before the connection is closed instead. */
const drainTimeoutMs = 10_000;

/**
 * An answer given before the request's body was read (a refusal before parsing: a visitor's photo upload, a limit)
 * waits until the body, declared within the route's cap, has arrived. Answered at once, Node closes a connection
 * whose body is still coming, and web's proxy, still writing it, gets EPIPE and can only answer 503 instead of the
 * api's answer. A body without a declared length, or past the time, ends the connection as before.
 */
export function answerAfterBody(req: Request, res: Response, next: NextFunction): void {
  const declared = Number(req.get("content-length") ?? 0);
  if (!Number.isFinite(declared) || declared <= 0 || declared > apiBodyLimit(req.path)) return next();
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    if (req.complete || res.getHeader("Connection") === "close") return end(...args);
    const timer = setTimeout(() => {
      res.set("Connection", "close");
      end(...args);
    }, drainTimeoutMs);
    const finish = () => {
      clearTimeout(timer);
      if (!res.writableEnded) end(...args);
    };
    req.once("end", finish);
    req.once("error", finish);
    req.once("close", finish);
    req.resume();
    return res;
  }) as Response["end"];
  next();
}
