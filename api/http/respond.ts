import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import type { ApiError, ErrorCode } from "#contract/errors";

const englishMessages: Record<ErrorCode, string> = {
  authentication_required: "authentication_required",
  login_failed: "Login failed, please try again",
  login_blocked: "Too many incorrect attempts, account blocked for {minutes} min.",
  validation_failed: "Please check the highlighted fields.",
  not_found: "Not found",
  internal_error: "An error has occurred.",
};

const statusOf: Record<ErrorCode, number> = {
  authentication_required: 403,
  login_failed: 401,
  login_blocked: 429,
  validation_failed: 400,
  not_found: 404,
  internal_error: 500,
};

export function sendError(res: Response, code: ErrorCode, extra: Pick<ApiError, "params" | "fields"> = {}): void {
  const message = englishMessages[code].replace(/\{(\w+)\}/g, (_, name: string) => String(extra.params?.[name] ?? ""));
  const body: ApiError = { error: code, message, ...extra };
  res.status(statusOf[code]).json(body);
}

/** Parses input with a contract schema; answers 400 with field messages and returns null when it does not fit. */
export function parseInput<T extends z.ZodType>(res: Response, schema: T, input: unknown): z.infer<T> | null {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_";
    (fields[key] ??= []).push(issue.message);
  }
  sendError(res, "validation_failed", { fields });
  return null;
}

/** Express 4 does not catch rejected promises: hand them to the error middleware. */
export function handle(fn: (req: Request, res: Response, next: NextFunction) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    fn(req, res, next).catch(next);
  };
}
