import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument, type OpenApiDocument } from "../../api/openapi/document";
import { answerProblem } from "./answer-check";
import { call, startApi, type Harness } from "./harness";
import { apiEndpoints } from "./routed-endpoints";

/*
 * The api's OpenAPI document (api/openapi/) is valid OpenAPI 3.1, names every route the api serves
 * and no other, and is served at /api/openapi.json. That every api test's answers fit it is checked answer by answer
 * in every file (tests/api/answer-check.ts); the last tests here show that check refusing wrong answers.
 */

/**
 * Routes the api serves outside its JSON contract, so not in the document: Prometheus' scrape (text format, behind
 * its own token: docs/operations.md). The uploaded photos under /uploads are a static mount, not a route.
 */
const undocumentedRoutes = new Set(["GET /metrics"]);

let api: Harness;
let served: OpenApiDocument;
let cacheControl: string | null;

beforeAll(async () => {
  api = await startApi();
  const res = await call(api, "GET", "/api/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  cacheControl = res.headers.get("cache-control");
  served = (await res.json()) as OpenApiDocument;
});

afterAll(async () => {
  await api?.close();
});

/** A deep copy to break on purpose. */
const copyOf = (document: OpenApiDocument): OpenApiDocument => JSON.parse(JSON.stringify(document)) as OpenApiDocument;

describe("the OpenAPI document", () => {
  it("is served at /api/openapi.json as the api builds it, cacheable for five minutes", () => {
    expect(served).toEqual(openApiDocument());
    expect(served.openapi).toBe("3.1.0");
    expect(cacheControl).toBe("public, max-age=300");
  });

  it("is valid OpenAPI 3.1 (and the validator refuses a broken copy)", async () => {
    const result = await new Validator().validate(copyOf(served));
    expect(result.errors ?? [], "the validator's complaints").toEqual([]);
    expect(result.valid).toBe(true);

    const noDescription = copyOf(served);
    const response: { description?: string } = noDescription.paths["/api/user.php"]!.get!.responses["200"]!;
    delete response.description;
    expect((await new Validator().validate(noDescription)).valid, "a response without its description").toBe(false);
    const danglingRef = copyOf(served);
    danglingRef.paths["/api/user.php"]!.get!.responses["200"]!.content!["application/json"]!.schema = { $ref: "#/components/schemas/NoSuchSchema" };
    expect((await new Validator().validate(danglingRef)).valid, "a reference to no component").toBe(false);
  });

  it("has components that are valid JSON Schema 2020-12 (ajv in strict mode; a wrong type is refused)", () => {
    const compileAll = (document: OpenApiDocument) => {
      const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false });
      ajv.addKeyword("components");
      ajv.addSchema({ $id: "https://rendezvous.invalid/openapi.json", components: { schemas: document.components.schemas } });
      for (const [name, schema] of Object.entries(document.components.schemas)) {
        // Against the draft's meta-schema, then compiled (strict: no unknown keywords, no ambiguous types).
        if (!ajv.validateSchema(schema)) throw new Error(`${name}: schema is invalid: ${ajv.errorsText(ajv.errors)}`);
        ajv.getSchema(`https://rendezvous.invalid/openapi.json#/components/schemas/${name}`);
      }
    };
    expect(() => compileAll(served)).not.toThrow();
    const wrongType = copyOf(served);
    wrongType.components.schemas.UserResponse = { ...wrongType.components.schemas.UserResponse, type: "objekt" };
    expect(() => compileAll(wrongType)).toThrow(/objekt/);
    const negativeLength = copyOf(served);
    negativeLength.components.schemas.ApiError = { ...negativeLength.components.schemas.ApiError, minProperties: -1 };
    expect(() => compileAll(negativeLength)).toThrow(/schema is invalid/);
  });

  it("documents every route the api serves, and only those", () => {
    const routed = apiEndpoints().filter((e) => !undocumentedRoutes.has(`${e.method} ${e.path}`));
    expect(routed.length, "the router walk found no routes: has createApiApp's mounting changed?").toBeGreaterThan(100);
    const documented = new Set(Object.entries(served.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)));
    const documentedPaths = new Set(Object.keys(served.paths));
    // A route for every method (router.all) is documented with the methods it answers.
    const missing = routed.filter((e) => (e.method === "ALL" ? !documentedPaths.has(e.path) : !documented.has(`${e.method} ${e.path}`))).map((e) => `${e.method} ${e.path}`);
    expect([...new Set(missing)], "routes the document does not name").toEqual([]);
    const routedKeys = new Set(routed.map((e) => `${e.method} ${e.path}`));
    const allPaths = new Set(routed.filter((e) => e.method === "ALL").map((e) => e.path));
    const unrouted = [...documented].filter((key) => !routedKeys.has(key) && !allPaths.has(key.slice(key.indexOf(" ") + 1)));
    expect(unrouted, "documented routes the api does not serve").toEqual([]);
  });

  it("gives every operation a summary, an id of its own and an answer for success and for errors", () => {
    const operations = Object.entries(served.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ key: `${method} ${path}`, operation })));
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, operation } of operations) {
      expect(operation.summary, key).not.toBe("");
      const statuses = Object.keys(operation.responses).map(Number);
      expect(statuses.some((s) => s < 400), `${key}: a success answer`).toBe(true);
      if (key !== "get /healthz") expect(statuses, `${key}: the error answers every route has`).toEqual(expect.arrayContaining([400, 413, 500]));
    }
  });
});

describe("the check of every api test's answers (tests/api/answer-check.ts)", () => {
  const jsonOf = (value: unknown) => Buffer.from(JSON.stringify(value));

  it("passes an answer that fits its documented schema", () => {
    expect(answerProblem("GET", "/api/user.php", 200, "application/json", jsonOf({ user: null }))).toBeNull();
    expect(answerProblem("GET", "/api/user.php", 400, "application/json", jsonOf({ error: "validation_failed", message: "m", fields: { host: ["x"] } }))).toBeNull();
    expect(answerProblem("GET", "/api/no-such-route.php", 404, "application/json", jsonOf({ error: "not_found", message: "Not found" }))).toBeNull();
    expect(answerProblem("GET", "/api/gif.php", 200, "image/gif", Buffer.alloc(0))).toBeNull();
  });

  it("refuses a status the route does not document, naming the route and the statuses it has", () => {
    expect(answerProblem("GET", "/api/user.php", 402, "application/json", jsonOf({ error: "not_enough_credits", message: "m" }))).toMatch(/answered 402, which the document does not list \(it lists 200, 400, 413, 500\)/);
  });

  it("refuses a body outside the documented schema, with the schema's complaint", () => {
    expect(answerProblem("GET", "/api/user.php", 200, "application/json", jsonOf({ user: 5 }))).toMatch(/outside its documented schema: \/user must be/);
    expect(answerProblem("POST", "/api/signup.php", 409, "application/json", jsonOf({ error: "no_such_code", message: "m" }))).toMatch(/\/error must be equal to one of the allowed values/);
    expect(answerProblem("GET", "/api/user.php", 200, "application/json", Buffer.from("{"))).toMatch(/no JSON/);
  });

  it("refuses another media type than the documented one, and a success on a route the document does not name", () => {
    expect(answerProblem("GET", "/api/user.php", 200, "text/html", Buffer.from("<p>"))).toMatch(/answered text\/html, the document says application\/json/);
    expect(answerProblem("GET", "/api/no-such-route.php", 200, "application/json", jsonOf({}))).toMatch(/route the document does not name/);
  });
});
