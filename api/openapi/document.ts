import { z } from "zod";
import * as account from "#contract/account";
import * as appMode from "#contract/app-mode";
import * as blocks from "#contract/blocks";
import * as camClick from "#contract/cam-click";
import * as chat from "#contract/chat";
import * as complaints from "#contract/complaints";
import * as dataExport from "#contract/data-export";
import * as directDebit from "#contract/direct-debit";
import * as discounts from "#contract/discounts";
import * as discovery from "#contract/discovery";
import * as errors from "#contract/errors";
import * as events from "#contract/events";
import * as health from "#contract/health";
import * as input from "#contract/input";
import * as likes from "#contract/likes";
import * as members from "#contract/members";
import * as notifications from "#contract/notifications";
import * as payments from "#contract/payments";
import * as photos from "#contract/photos";
import * as profile from "#contract/profile";
import * as push from "#contract/push";
import * as settings from "#contract/settings";
import * as staffAccounts from "#contract/staff-accounts";
import * as staffCatalogue from "#contract/staff-catalogue";
import * as staffInbox from "#contract/staff-inbox";
import * as staffModeration from "#contract/staff-moderation";
import * as staffProfiles from "#contract/staff-profiles";
import * as staffSetup from "#contract/staff-setup";
import * as staffSites from "#contract/staff-sites";
import * as staff from "#contract/staff";
import * as user from "#contract/user";
import { ApiError, type ErrorCode } from "#contract/errors";
import { sessionCookieName } from "#contract/http";
import { withUserParam } from "#contract/members";
import { staffSessionCookieName } from "../domain/staff/sessions";
import { statusOf } from "../http/respond";
import { endpointGroups } from "#contract/endpoints/index";
import type { Answer, Endpoint } from "#contract/endpoints/endpoint";

/*
 * The api's OpenAPI 3.1 document (served at GET /api/openapi.json, docs/api.md), generated from the contract: every
 * schema is zod's own JSON Schema (draft 2020-12) of a contract schema, from the side a parser reads (io "input":
 * what a client may send, and what web's parse of an answer accepts). A contract schema exported under a name is
 * one component of that name, referenced wherever it is used; the endpoint table (contract/endpoints/) says which
 * schemas each endpoint reads and answers.
 */

export type JsonSchema = { [key: string]: unknown };
export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }>; headers?: JsonSchema }>;
};
export type OpenApiDocument = {
  openapi: "3.1.0";
  info: JsonSchema;
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema>; headers: Record<string, JsonSchema> };
};

/** The contract modules whose exported schemas are components. Staff modules come last: a name both use is the member side's. */
const contractModules: [string, Record<string, unknown>][] = Object.entries({
  input,
  errors,
  health,
  appMode,
  user,
  account,
  settings,
  members,
  profile,
  photos,
  likes,
  blocks,
  discovery,
  chat,
  events,
  push,
  notifications,
  dataExport,
  complaints,
  camClick,
  discounts,
  payments,
  directDebit,
  staff,
  staffSetup,
  staffAccounts,
  staffCatalogue,
  staffInbox,
  staffModeration,
  staffProfiles,
  staffSites,
});

const componentRef = (id: string) => `#/components/schemas/${id}`;
const jsonOptions = { target: "draft-2020-12", io: "input", unrepresentable: "throw" } as const;

/** Every exported contract schema (PascalCase), by its export name; a name taken already gets its module's name before it. */
function namedSchemas(): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  const taken = new Set<string>();
  for (const [moduleName, exports] of contractModules) {
    for (const [name, value] of Object.entries(exports)) {
      if (!(value instanceof z.ZodType) || !/^[A-Z]/.test(name) || registry.has(value)) continue;
      const id = taken.has(name) ? `${moduleName[0]!.toUpperCase()}${moduleName.slice(1)}${name}` : name;
      taken.add(id);
      registry.add(value, { id });
    }
  }
  return registry;
}

/** Rewrites refs into zod's `$defs` (a named schema inside an unnamed one) to the component of that name. */
function toComponentRefs(value: unknown, names: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => toComponentRefs(item, names));
  if (!value || typeof value !== "object") return value;
  const result: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")) {
      const name = decodeURIComponent(inner.slice("#/$defs/".length));
      if (!names.has(name)) throw new Error(`OpenAPI: ${inner} is no named contract schema`);
      result[key] = componentRef(name);
    } else result[key] = toComponentRefs(inner, names);
  }
  return result;
}

/** The JSON Schemas of the contract: components, and a converter for the schemas the endpoint table names. */
function contractSchemas() {
  const registry = namedSchemas();
  const converted = z.toJSONSchema(registry, { ...jsonOptions, uri: componentRef }).schemas;
  if ("__shared" in converted) throw new Error("OpenAPI: a contract schema refers to itself; name it so it can be a component");
  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(converted)) {
    const { $schema: _dialect, $id: _id, ...body } = schema as JsonSchema;
    components[id] = body;
  }
  const names = new Set(Object.keys(components));
  /** A reference to the component of a named schema, else the schema itself (its named parts as references). */
  const schemaOf = (schema: z.ZodType): JsonSchema => {
    const id = registry.get(schema)?.id;
    if (id) return { $ref: componentRef(id) };
    const { $schema: _dialect, $defs: _defs, ...body } = z.toJSONSchema(schema, { ...jsonOptions, metadata: registry }) as JsonSchema;
    return toComponentRefs(body, names) as JsonSchema;
  };
  /** The schema's own body, also for a named one (query parameters are read from its properties). */
  const bodyOf = (schema: z.ZodType): JsonSchema => {
    const id = registry.get(schema)?.id;
    return id ? components[id]! : schemaOf(schema);
  };
  return { components, schemaOf, bodyOf };
}

type Contract = ReturnType<typeof contractSchemas>;

/** `with_user=1`: the answer carries `me`, what GET /api/user.php answers (contract/members.ts). */
const WithUser = z.object({ [withUserParam]: z.literal("1").describe("1: the answer also carries `me`, as GET /api/user.php answers").optional() });

function parameters(contract: Contract, operation: Endpoint): JsonSchema[] | undefined {
  const queries = [operation.query, operation.withUser ? WithUser : undefined].filter((q): q is z.ZodType => q !== undefined);
  const found = new Map<string, JsonSchema>();
  for (const query of queries) {
    const body = contract.bodyOf(query);
    const properties = body.properties as Record<string, JsonSchema> | undefined;
    if (body.type !== "object" || !properties) throw new Error(`OpenAPI: the query of ${operation.method} ${operation.path} is no object`);
    const required = new Set((body.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries(properties)) {
      if (found.has(name)) continue;
      const description = typeof schema.description === "string" ? { description: schema.description } : {};
      found.set(name, { name, in: "query", required: required.has(name), ...description, schema });
    }
  }
  return found.size ? [...found.values()] : undefined;
}

function requestBody(contract: Contract, operation: Endpoint): JsonSchema | undefined {
  if (operation.body) return { required: true, content: { "application/json": { schema: contract.schemaOf(operation.body) } } };
  if (operation.form) return { required: true, content: { "application/x-www-form-urlencoded": { schema: contract.schemaOf(operation.form) } } };
  if (operation.multipart) {
    const fields = operation.multipart.fields ? contract.bodyOf(operation.multipart.fields) : { type: "object", properties: {}, required: [] };
    const file = { type: "string", contentMediaType: "application/octet-stream", description: "the image file (JPEG, PNG, WebP or HEIC)" };
    const schema = { ...fields, properties: { ...(fields.properties as JsonSchema), [operation.multipart.file]: file }, required: [...((fields.required as string[] | undefined) ?? []), operation.multipart.file] };
    return { required: true, content: { "multipart/form-data": { schema } } };
  }
  if (operation.rawBody) return { description: operation.rawBody, content: { "*/*": { schema: { type: "string" } } } };
  return undefined;
}

/** The error codes a route answers: its own, those of its caller and those of every route. */
function errorCodesOf(operation: Endpoint): ErrorCode[] {
  if (operation.bare) return [];
  const codes: ErrorCode[] = ["validation_failed", "request_too_large", "internal_error"];
  const staffOnly = typeof operation.caller === "object";
  if (operation.caller === "member" || staffOnly) codes.push("authentication_required");
  if (staffOnly) codes.push("forbidden");
  return [...new Set([...codes, ...(operation.errors ?? [])])];
}

function successResponse(contract: Contract, answer: Answer): OpenApiOperation["responses"][string] {
  if (answer.kind === "json") return { description: answer.description, content: { "application/json": { schema: contract.schemaOf(answer.schema) } } };
  if (answer.kind === "media") return { description: answer.description, content: Object.fromEntries(answer.mediaTypes.map((type) => [type, { schema: {} }])) };
  return { description: answer.description, ...(answer.location ? { headers: { Location: { description: "where the client goes next", schema: { type: "string" } } } } : {}) };
}

function responses(contract: Contract, operation: Endpoint): OpenApiOperation["responses"] {
  const result: OpenApiOperation["responses"] = {};
  for (const [status, answer] of Object.entries(operation.answers)) result[status] = successResponse(contract, answer);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) byStatus.set(statusOf[code], [...(byStatus.get(statusOf[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    if (result[status]) throw new Error(`OpenAPI: ${operation.method} ${operation.path} answers ${status} both as a success and as ${codes.join(", ")}`);
    result[status] = {
      description: `error ${codes.join(", ")}`,
      content: { "application/json": { schema: contract.schemaOf(ApiError) } },
      ...(codes.includes("too_many_requests") || codes.includes("login_blocked") ? { headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } } : {}),
    };
  }
  return result;
}

const securityOf: Record<"anyone" | "member" | "staff" | "mailProvider", Record<string, string[]>[] | undefined> = {
  anyone: undefined,
  member: [{ memberSession: [] }],
  staff: [{ staffSession: [] }],
  mailProvider: [{ mailEventsSecret: [] }],
};

/** Only the components the paths reach (directly or through other components). */
function reachableComponents(paths: OpenApiDocument["paths"], components: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== "object") return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith(componentRef(""))) {
        const id = inner.slice(componentRef("").length);
        if (!reached.has(id)) {
          reached.add(id);
          visit(components[id]);
        }
      } else visit(inner);
    }
  };
  visit(paths);
  return Object.fromEntries(Object.keys(components).filter((id) => reached.has(id)).sort().map((id) => [id, components[id]!]));
}

export function buildOpenApiDocument(): OpenApiDocument {
  const contract = contractSchemas();
  const paths: OpenApiDocument["paths"] = {};
  for (const group of endpointGroups) {
    for (const [name, operation] of Object.entries(group.endpoints)) {
      const item = (paths[operation.path] ??= {});
      if (item[operation.method]) throw new Error(`OpenAPI: ${operation.method} ${operation.path} is listed twice`);
      const requestBodyObject = requestBody(contract, operation);
      const parameterList = parameters(contract, operation);
      const security = securityOf[typeof operation.caller === "object" ? "staff" : operation.caller];
      item[operation.method] = {
        operationId: name,
        summary: operation.summary,
        ...(operation.description ? { description: operation.description } : {}),
        tags: [group.tag],
        ...(security ? { security } : {}),
        ...(parameterList ? { parameters: parameterList } : {}),
        ...(requestBodyObject ? { requestBody: requestBodyObject } : {}),
        responses: responses(contract, operation),
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Rendezvous api",
      version: "1",
      description:
        "The api behind every Rendezvous site (docs/api.md). The site is chosen by the host (X-Forwarded-Host from web). " +
        "Every answer carries X-Request-Id (a request may bring its own, 1-64 letters, digits and dashes). Errors answer the ApiError shape with a code of the error catalogue.",
    },
    tags: endpointGroups.map(({ tag, description }) => ({ name: tag, description })),
    paths,
    components: {
      schemas: reachableComponents(paths, contract.components),
      securitySchemes: {
        memberSession: { type: "apiKey", in: "cookie", name: sessionCookieName, description: "A member's session, set by login, signup and reactivation." },
        staffSession: { type: "apiKey", in: "cookie", name: staffSessionCookieName, description: "A staff session, set by POST /api/staff/login.php." },
        mailEventsSecret: { type: "http", scheme: "bearer", description: "The mail provider's shared secret, MAIL_EVENTS_SECRET (docs/notifications.md)." },
      },
      headers: {
        RetryAfter: { description: "Seconds until the client may try again.", schema: { type: "integer", minimum: 1 } },
      },
    },
  };
}

let built: OpenApiDocument | undefined;

/** The document, built once per process (it only changes with the code). */
export function openApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument();
  return built;
}
