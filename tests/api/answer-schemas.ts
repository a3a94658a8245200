import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import type { JsonSchema, OpenApiDocument } from "../../api/openapi/document";

/*
 * The OpenAPI document's answers, compiled once per pass (tests/api/global-setup.ts) for the check of every api
 * test's answers (tests/api/answer-check.ts): ajv (JSON Schema 2020-12) compiles each distinct answer schema into
 * one module of validators, so a test file only loads it (compiling them anew took a second per file).
 */

/** What a route answers with one status: its media types, and the module's validator of its JSON (if any). */
export type DocumentedAnswer = { mediaTypes: string[]; validator: string | null };

export type AnswerTable = {
  /** The compiled validators (CommonJS, loaded with require). */
  file: string;
  /** path -> method (lower case) -> status -> answer. */
  routes: Record<string, Record<string, Record<string, DocumentedAnswer>>>;
  /** The validator of the error shape, for paths the document does not name. */
  errorValidator: string;
};

/** The base URI the document's components are known by to ajv; their refs (#/components/schemas/X) resolve against it. */
const documentId = "https://rendezvous.invalid/openapi.json";

/** Refs made absolute, so a schema compiled on its own finds the document's components. */
function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === "$ref" && typeof inner === "string" && inner.startsWith("#") ? documentId + inner : absoluteRefs(inner)]));
}

/** Next to the repository's node_modules, so the module's requires of ajv's runtime resolve. */
const validatorsDir = fileURLToPath(new URL("../../.cache/openapi-validators/", import.meta.url));

/** Compiles the document's answer schemas into a module of its own; returns the table and a function that removes the module. */
export function compileAnswerSchemas(document: OpenApiDocument): { table: AnswerTable; dispose: () => void } {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false, code: { source: true } });
  ajv.addKeyword("components");
  ajv.addSchema({ $id: documentId, components: { schemas: document.components.schemas } });
  const names = new Map<string, string>();
  /** One validator per distinct schema (most error answers share ApiError's). */
  const validatorOf = (schema: JsonSchema): string => {
    const key = JSON.stringify(schema);
    let name = names.get(key);
    if (!name) {
      name = `answer${names.size}`;
      ajv.addSchema(absoluteRefs(schema) as JsonSchema, name);
      names.set(key, name);
    }
    return name;
  };
  const routes: AnswerTable["routes"] = {};
  for (const [pathname, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const content = response.content ?? {};
        const json = content["application/json"]?.schema;
        ((routes[pathname] ??= {})[method] ??= {})[status] = { mediaTypes: Object.keys(content), validator: json ? validatorOf(json) : null };
      }
    }
  }
  const errorValidator = validatorOf({ $ref: "#/components/schemas/ApiError" });
  const code = standaloneCode(ajv, Object.fromEntries([...names.values()].map((name) => [name, name])));
  mkdirSync(validatorsDir, { recursive: true });
  // A name of its own: other passes (another engineer's, the PostgreSQL pass) may run beside this one.
  const file = path.join(validatorsDir, `validators-${process.pid}-${Date.now()}.cjs`);
  writeFileSync(file, code);
  return { table: { file, routes, errorValidator }, dispose: () => rmSync(file, { force: true }) };
}
