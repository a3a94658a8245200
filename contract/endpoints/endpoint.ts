import type { z } from "zod";
import type { ErrorCode } from "../errors";
import type { StaffAction } from "../staff-permissions";

/*
 * One api endpoint, declared once (contract/endpoints/*.ts): the api registers its handler for it
 * (api/http/endpoint.ts), the OpenAPI document describes it (api/openapi/document.ts), web calls it
 * (app/utils/api.server.ts: api.call(endpoints.sendMessage, { body })), web's metrics name it
 * (server/api-endpoints.ts) and the staff pages ask whether a role may call it (contract/endpoints/may.ts).
 */

/**
 * Who may call an endpoint: anyone (a visitor, or a member: the answer may depend on the session), a member with the
 * session cookie (rdv_session), staff with theirs (rdv_staff) whose role may take the action
 * (contract/staff-permissions.ts), or the mail provider with the shared secret (Authorization: Bearer MAIL_EVENTS_SECRET).
 */
export type Caller = "anyone" | "member" | { staff: StaffAction } | "mailProvider";

/** A success answer: JSON that a contract schema parses, another media type (a file, a stream, text), or no body. */
export type JsonAnswer<S extends z.ZodType = z.ZodType> = {
  kind: "json";
  schema: S;
  description: string;
};
export type Answer = JsonAnswer | { kind: "media"; mediaTypes: readonly string[]; description: string } | { kind: "empty"; description: string; location?: boolean };

export type Endpoint = {
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
  /** A body in a form the endpoint reads as raw text (a provider's signed notification). */
  rawBody?: string;
  /** The success answers by status. */
  answers: Record<number, Answer>;
  /**
   * The error codes the endpoint answers beyond those of every endpoint (validation_failed, request_too_large,
   * internal_error) and of its caller (authentication_required; staff: forbidden). too_many_requests also
   * documents the Retry-After header.
   */
  errors?: readonly ErrorCode[];
  /** Answered before the request checks and without the error shape (the load balancer's health check). */
  bare?: boolean;
};

/** The endpoints of one area, under one tag of the OpenAPI document. */
export type EndpointGroup<T extends Record<string, Endpoint> = Record<string, Endpoint>> = { tag: string; description: string; endpoints: T };

/** A group of endpoints; each keeps its own schema types, so that callers and handlers are typed by them. */
export function endpointGroup<const T extends Record<string, Endpoint>>(tag: string, description: string, endpoints: T): EndpointGroup<T> {
  return { tag, description, endpoints };
}

export const json = <S extends z.ZodType>(schema: S, description: string): JsonAnswer<S> => ({ kind: "json", schema, description });
export const media = (description: string, ...mediaTypes: string[]): Answer => ({ kind: "media", mediaTypes, description });
export const empty = (description: string): Answer => ({
  kind: "empty",
  description,
});
export const redirect = (description: string): Answer => ({
  kind: "empty",
  description,
  location: true,
});

/** The staff action an endpoint needs, or null for one outside the staff gate. */
export function staffActionOf(endpoint: Endpoint): StaffAction | null {
  return typeof endpoint.caller === "object" ? endpoint.caller.staff : null;
}

/** What the success answers' JSON parses to (never for an endpoint without a JSON answer). */
export type AnswerOf<E extends Endpoint> = {
  [S in keyof E["answers"]]: E["answers"][S] extends JsonAnswer<infer Schema> ? z.output<Schema> : never;
}[keyof E["answers"]];

/** What a caller sends as the query, or never when the endpoint reads none. */
export type QueryOf<E extends Endpoint> = E extends {
  query: infer Q extends z.ZodType;
}
  ? z.input<Q> & (E extends { withUser: true } ? { with_user?: "1" } : unknown)
  : E extends { withUser: true }
  ? { with_user?: "1" }
  : never;

/** What a caller sends as the body (JSON or form fields), or never when the endpoint reads none. */
export type BodyOf<E extends Endpoint> = E extends {
  body: infer B extends z.ZodType;
}
  ? z.input<B>
  : E extends { form: infer F extends z.ZodType }
  ? z.input<F>
  : never;
