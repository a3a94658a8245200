import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { expect, inject } from "vitest";
import type { AnswerTable } from "./answer-schemas";

/*
 * Every answer the api gives an api test is held to the OpenAPI document (api/openapi/document.ts): the harness
 * (tests/api/harness.ts) serves each test api through watchAnswer, which checks the answer as the api ends it: its
 * status must be documented for its method and path, and a JSON body must fit the documented schema (ajv, JSON
 * Schema 2020-12, compiled once per pass by tests/api/answer-schemas.ts). A path the document does not name may only
 * answer the error shape. tests/api/answer-setup.ts fails the test during which a wrong answer went out, naming the
 * route, the status and the schema's complaint.
 */

type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; schemaPath: string; message?: string }[] | null };
type Checker = { table: AnswerTable; validators: Record<string, Validate> };

let checker: Checker | undefined;
const failures: string[] = [];

/** The pass's compiled answers (tests/api/global-setup.ts), loaded once per test file. */
function answerChecker(): Checker {
  if (checker) return checker;
  const table = inject("openApiAnswers");
  // Plain Node require: the module is generated code, not source for vite to transform.
  const validators = createRequire(import.meta.url)(table.file) as Record<string, Validate>;
  checker = { table, validators };
  return checker;
}

function mediaTypeOf(res: ServerResponse): string {
  return String(res.getHeader("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** What is wrong with an answer (its status, media type without parameters and body), or null. */
export function answerProblem(method: string, pathname: string, status: number, mediaType: string, body: Buffer): string | null {
  const { table, validators } = answerChecker();
  // HEAD is answered as GET.
  const answers = table.routes[pathname]?.[method === "HEAD" ? "get" : method.toLowerCase()];
  let validator: string;
  if (!answers) {
    // An undocumented route (/uploads files, a path nobody routes, a method the path has not): the error shape only.
    if (mediaType !== "application/json") return null;
    if (status < 400) return `answered ${status} on a route the document does not name`;
    validator = table.errorValidator;
  } else {
    const answer = answers[String(status)];
    if (!answer) return `answered ${status}, which the document does not list (it lists ${Object.keys(answers).join(", ")})`;
    if (answer.mediaTypes.length === 0 || method === "HEAD") return null;
    if (!answer.mediaTypes.includes(mediaType) && !answer.mediaTypes.includes("*/*")) return `answered ${mediaType || "no Content-Type"}, the document says ${answer.mediaTypes.join(", ")}`;
    if (mediaType !== "application/json" || !answer.validator) return null;
    validator = answer.validator;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return `answered ${status} with a body that is no JSON`;
  }
  const validate = validators[validator]!;
  if (validate(parsed)) return null;
  const complaints = (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""} (${error.schemaPath})`);
  return `answered ${status} outside its documented schema: ${complaints.join("; ")}\n    body: ${body.toString("utf8").slice(0, 500)}`;
}

function pathnameOf(url: string | undefined): string {
  try {
    return new URL(url ?? "/", "http://api.invalid").pathname;
  } catch {
    return url ?? "/";
  }
}

const chunkOf = (chunk: unknown, encoding: unknown): Buffer | null => {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return null;
};

/**
 * Checks the answer to one request when the api ends it (before it leaves, so the test cannot have read it yet):
 * the body is kept only while the answer says it is JSON.
 */
export function watchAnswer(req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? "GET";
  const pathname = pathnameOf(req.url);
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding: unknown) => {
    if (mediaTypeOf(res) !== "application/json") return;
    const buffer = chunkOf(chunk, encoding);
    if (buffer) chunks.push(buffer);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as ServerResponse["write"];
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== "function") keep(args[0], args[1]);
    const problem = answerProblem(method, pathname, res.statusCode, mediaTypeOf(res), Buffer.concat(chunks));
    if (problem) failures.push(`${method} ${pathname} ${problem}\n    (during: ${expect.getState().currentTestName ?? "a hook of the file"})`);
    return end(...args);
  }) as ServerResponse["end"];
}

/** The wrong answers since the last call. */
export function takeAnswerFailures(): string[] {
  return failures.splice(0);
}
