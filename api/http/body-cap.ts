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
