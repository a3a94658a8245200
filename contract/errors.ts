import { z } from "zod";

/** Every error the api answers with. web translates `error` (errors namespace) and fills `params`. */
export const errorCodes = [
  "authentication_required",
  "login_failed",
  "login_blocked",
  "validation_failed",
  "not_found",
  "internal_error",
  "signups_closed",
  "account_exists",
  "account_pending_deletion",
  "email_taken",
  "invalid_date_of_birth",
  "too_many_reset_mails",
  "email_not_found",
  "link_invalid",
  "old_password_wrong",
  "password_wrong",
  "invitation_invalid",
  "too_many_requests",
  "request_too_large",
  "cross_site_request",
  "premium_required",
  "photo_limit_reached",
  "unsupported_image",
  "file_too_large",
  "blocked_by_member",
  "swipe_limit_reached",
  "not_enough_credits",
  "recipient_unconfirmed",
  "debit_blocked",
  "debit_limit",
  "code_invalid",
  "code_expired",
  "sms_failed",
  "provider_unavailable",
  "secret_required",
  "secret_wrong",
  "forbidden",
  /** A member suspended (params.until, ISO) or banned (params.until "") by staff, params.reason a ModerationReason. */
  "account_suspended",
] as const;
export const ErrorCode = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ApiError = z.object({
  error: ErrorCode,
  /** English text of the error catalogue (docs/product.md §8), for logs and non-web clients. */
  message: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** Field errors for validation_failed: field name -> messages. */
  fields: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiError = z.infer<typeof ApiError>;
