import type { z } from "zod";
import type { ErrorCode } from "#contract/errors";

/*
 * One api route as the OpenAPI document describes it (api/openapi/document.ts): the tables beside this file list
 * every route the api serves, with the contract's zod schemas of its input and answers. tests/api/openapi.test.ts
 * holds the tables to the routes of api/app.ts, and every answer of the api tests to its documented schema.
 */

/**
 * Who may call a route: anyone, a member with the session cookie (rdv_session), staff with theirs (rdv_staff), or
 * the mail provider with the shared secret (Authorization: Bearer MAIL_EVENTS_SECRET).
 */
export type Caller = "anyone" | "member" | "staff" | "mailProvider";

/** A success answer: JSON that a contract schema parses, another media type (a file, a stream, text), or no body. */
export type Answer =
  | { kind: "json"; schema: z.ZodType; description: string }
  | { kind: "media"; mediaTypes: string[]; description: string }
  | { kind: "empty"; description: string; location?: boolean };

export type Operation = {
  method: "get" | "post" | "put" | "delete";
  path: string;
  summary: string;
  description?: string;
  caller: Caller;
  /** Query parameters: a contract schema of an object, one parameter per property. */
  query?: z.ZodType;
  /** Reads `with_user=1` beside its query: the answer then carries `me` (contract/members.ts withUserParam). */
  withUser?: boolean;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart/form-data body: these fields and one file in `file`. */
  multipart?: { fields?: z.ZodType; file: string };
  /** An application/x-www-form-urlencoded body. */
  form?: z.ZodType;
  /** A body in a form the route reads as raw text (a provider's signed notification). */
  rawBody?: string;
  /** The success answers by status. */
  answers: Record<number, Answer>;
  /**
   * The error codes the route answers beyond those of every route (validation_failed, request_too_large,
   * internal_error) and of its caller (authentication_required; staff: forbidden). too_many_requests also
   * documents the Retry-After header.
   */
  errors?: ErrorCode[];
  /** Answered before the request checks and without the error shape (the load balancer's health check). */
  bare?: boolean;
};

/** A table of routes under one tag of the document. */
export type OperationGroup = { tag: string; description: string; operations: Operation[] };

export const json = (schema: z.ZodType, description: string): Answer => ({ kind: "json", schema, description });
export const media = (description: string, ...mediaTypes: string[]): Answer => ({ kind: "media", mediaTypes, description });
export const empty = (description: string): Answer => ({ kind: "empty", description });
export const redirect = (description: string): Answer => ({ kind: "empty", description, location: true });
