import type { Request, RequestHandler, Response, Router } from "express";
import type { z } from "zod";
import type { AnswerOf, Endpoint } from "#contract/endpoints/endpoint";
import { requireMember } from "./context";
import { handle, parseInput } from "./respond";

/*
 * The api's side of the endpoint table (contract/endpoints/): a handler is registered for a table entry, at the
 * entry's method and path, so no path is written twice. `serve` also parses the entry's query and body with its
 * schemas (400 validation_failed, the error shape of api/http/respond.ts) and hands the handler typed input; `on`
 * is the thin escape hatch for the special ones (raw bodies, multipart uploads, event streams, files), whose
 * middleware reads the request itself. tests/api/routed-endpoints.ts holds the table to what was registered.
 */

/** Every table entry registered on a router (in any app of this process), for the test that each is routed once. */
export const registeredEndpoints = new Set<Endpoint>();

type Method = Endpoint["method"];

function register(router: Pick<Router, Method>, endpoint: Endpoint, handlers: RequestHandler[]): void {
  registeredEndpoints.add(endpoint);
  router[endpoint.method](endpoint.path, ...handlers);
}

/** Registers middleware as it is at a table entry's method and path (the entry's schemas are the middleware's to apply). */
export function on(router: Pick<Router, Method>, endpoint: Endpoint, ...handlers: RequestHandler[]): void {
  register(router, endpoint, handlers);
}

/** What a served handler gets: the entry's query and body, parsed by its schemas. */
export type Input<E extends Endpoint> = {
  query: E extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
  body: E extends { body: infer B extends z.ZodType } ? z.output<B> : E extends { form: infer F extends z.ZodType } ? z.output<F> : undefined;
};

/** The JSON a handler answers for an entry (what its success answers' schemas accept). */
export type Answer<E extends Endpoint> = AnswerOf<E>;

/** Checks before the handler runs: limits, the staff gate; the entry's caller adds requireMember itself. */
type ServeOptions = { before?: RequestHandler[] };

/**
 * Registers a handler for a table entry: a member endpoint behind requireMember, then `before` (limits, gates), then
 * the query and the body parsed with the entry's schemas (the schemas are built once, with the table; a request
 * only runs safeParse), then the handler with typed input.
 */
export function serve<E extends Endpoint>(router: Pick<Router, Method>, endpoint: E, options: ServeOptions, handler: (input: Input<E>, req: Request, res: Response) => Promise<void>): void {
  const query = endpoint.query;
  const body = endpoint.body ?? endpoint.form;
  const guards: RequestHandler[] = endpoint.caller === "member" ? [requireMember] : [];
  register(router, endpoint, [
    ...guards,
    ...(options.before ?? []),
    handle(async (req, res) => {
      let parsedQuery: unknown;
      if (query) {
        parsedQuery = parseInput(res, query, req.query);
        if (parsedQuery === null) return;
      }
      let parsedBody: unknown;
      if (body) {
        parsedBody = parseInput(res, body, req.body);
        if (parsedBody === null) return;
      }
      await handler({ query: parsedQuery, body: parsedBody } as Input<E>, req, res);
    }),
  ]);
}
