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
  signups_closed: "Signing up is not possible on this site right now.",
  account_exists: "You already have an account with this e-mail address. Please log in.",
  account_pending_deletion: "Your account with this e-mail address was deleted. Use the link in the e-mail we sent you to reactivate it.",
  email_taken: "This e-mail address is already in use.",
  invalid_date_of_birth: "Invalid date of birth.",
  too_many_reset_mails: "Too many password reset emails sent, please try again tomorrow.",
  email_not_found: "E-mail address not found",
  link_invalid: "Link expired or invalid, request a new email",
  old_password_wrong: "Please check your old password.",
  password_wrong: "The password is not correct.",
  invitation_invalid: "This invitation is not valid (any more).",
  too_many_requests: "Too many requests, please try again later.",
  request_too_large: "This request is too large.",
  cross_site_request: "This request did not come from this site.",
  premium_required: "This feature is only available for premium members",
  photo_limit_reached: "You can have at most {limit} photos. Delete a photo to upload another.",
  unsupported_image: "This file is not a photo we can read. Please upload a JPEG, PNG, WebP or HEIC image.",
  file_too_large: "This file is too large. Please upload a photo of at most {megabytes} MB.",
  blocked_by_member: "You're blocked by {name}. You do not have access to this page.",
  swipe_limit_reached: "You have used your {limit} likes for today. Come back tomorrow to like more members.",
  not_enough_credits: "You do not have enough credits to send this message",
  recipient_unconfirmed: "{name} has not confirmed their e-mail address yet. You can reply once they have.",
  debit_blocked: "Your account is blocked for direct debit payments.",
  debit_limit: "Your limit for direct debit payments has been reached...",
  code_invalid: "Code invalid",
  code_expired: "This code is no longer valid. Ask for a new code.",
  sms_failed: "The text message could not be sent. Check your phone number or try again later.",
  provider_unavailable: "An error occured, please try again later.",
  secret_required: "This endpoint needs its shared secret (Authorization: Bearer).",
  secret_wrong: "The shared secret is not correct.",
  forbidden: "You may not do this with your role.",
  account_suspended: "This account is suspended.",
};

/** The HTTP status of each error code (the OpenAPI document lists them per route: api/openapi/document.ts). */
export const statusOf: Record<ErrorCode, number> = {
  authentication_required: 403,
  login_failed: 401,
  login_blocked: 429,
  validation_failed: 400,
  not_found: 404,
  internal_error: 500,
  signups_closed: 403,
  account_exists: 409,
  account_pending_deletion: 409,
  email_taken: 409,
  invalid_date_of_birth: 400,
  too_many_reset_mails: 429,
  email_not_found: 404,
  link_invalid: 400,
  old_password_wrong: 400,
  password_wrong: 400,
  invitation_invalid: 400,
  too_many_requests: 429,
  request_too_large: 413,
  cross_site_request: 403,
  premium_required: 403,
  photo_limit_reached: 403,
  unsupported_image: 415,
  file_too_large: 413,
  blocked_by_member: 403,
  swipe_limit_reached: 429,
  not_enough_credits: 402,
  recipient_unconfirmed: 409,
  debit_blocked: 403,
  debit_limit: 403,
  code_invalid: 400,
  code_expired: 410,
  sms_failed: 502,
  provider_unavailable: 503,
  secret_required: 401,
  secret_wrong: 403,
  forbidden: 403,
  account_suspended: 403,
};

export function sendError(res: Response, code: ErrorCode, extra: Pick<ApiError, "params" | "fields"> = {}): void {
  const message = englishMessages[code].replace(/\{(\w+)\}/g, (_, name: string) => String(extra.params?.[name] ?? ""));
  const body: ApiError = { error: code, message, ...extra };
  res.status(statusOf[code]).json(body);
}

/** 429 with Retry-After (seconds) and its message (errors.too_many_requests): a client limit or a busy hash queue. */
export function tooManyRequests(res: Response, retryAfterSeconds: number): void {
  res.set("Retry-After", String(retryAfterSeconds));
  sendError(res, "too_many_requests");
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
