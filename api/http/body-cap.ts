import type { NextFunction, Request, Response } from "express";
import { photoMaxBytes } from "#contract/photos";
import { sendError } from "./respond";

/** Request bodies the api reads: small JSON everywhere, one photo on the upload route (multer counts the file itself). */
export const bodyLimits = {
  jsonBytes: 64 * 1024,
  uploadBytes: photoMaxBytes + 64 * 1024,
  uploadPaths: ["/api/photos.php", "/api/chat-image.php"],
};

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
  const limit = bodyLimits.uploadPaths.includes(req.path) ? bodyLimits.uploadBytes : bodyLimits.jsonBytes;
  if (Number.isFinite(declared) && declared > limit) return refuseTooLarge(res);
  next();
}
