import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { and, eq, ne } from "drizzle-orm";
import { profiles, sites, users } from "../../api/db/schema";
import { cookieHeader, demoAccounts, demoPassword, leakingLogLines, login, startApi, type Harness } from "./harness";
import { hostileHosts, hostileTargets, rawRequest } from "../raw-http";
import { apiEndpoints, type Endpoint } from "./routed-endpoints";

/**
 * Fuzzing (docs/security.md, How it is tested): every api endpoint answers hostile input with a 4xx (or its normal success),
 * never a 5xx, and no log line carries a secret. The endpoints are read at run time from the
 * Express app's router (and from the endpoint lines of contract/*.ts), so a route added later is
 * fuzzed without editing this file. Field names come from the contract's zod schemas where an
 * endpoint line names one ("POST /api/x.php  SomeRequest"), else from a generic set.
 */

const contractDir = fileURLToPath(new URL("../../contract/", import.meta.url));

type Field = { name: string; schema: z.ZodType | null };

/** The app's routes (tests/api/routed-endpoints.ts); a route for every method (router.all) is fuzzed as a POST. */
function appEndpoints(): Endpoint[] {
  return apiEndpoints().map((e) => (e.method === "ALL" ? { ...e, method: "POST" } : e));
}

type ContractModule = Record<string, unknown>;
const contractModules: Record<string, ContractModule> = {};
const contractTexts: Record<string, string> = {};

async function loadContract(): Promise<void> {
  for (const file of readdirSync(contractDir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    contractTexts[file] = readFileSync(path.join(contractDir, file), "utf8");
    contractModules[file] = (await import(/* @vite-ignore */ path.join(contractDir, file))) as ContractModule;
  }
}

const endpointLine = /\b(GET|POST|PUT|PATCH|DELETE)\s+(\/api\/[\w./-]*\w)([^\n]*)/g;
/** The contract's naming of request schemas: SignupRequest, MembersQuery, ProfileUpdate, PasswordChange, PasswordResetDo. */
const requestSchemaName = /(Request|Query|Update|Change|Do)$/;

/**
 * Endpoints the contract names in its comments, and the request schema each one takes: named on the
 * endpoint's line ("POST /api/signup.php   SignupRequest -> ...") or exported right after a doc
 * comment that names the endpoint ("/** POST /api/like.php *\/ export const LikeRequest").
 */
function contractEndpoints(): { endpoints: Endpoint[]; schemaOf: Map<string, z.ZodType> } {
  const endpoints: Endpoint[] = [];
  const schemaOf = new Map<string, z.ZodType>();
  for (const [file, text] of Object.entries(contractTexts)) {
    const module = contractModules[file] ?? {};
    const requestSchema = (name: string | undefined): z.ZodType | null => (name && requestSchemaName.test(name) && module[name] instanceof z.ZodType ? (module[name] as z.ZodType) : null);
    for (const match of text.matchAll(endpointLine)) {
      const [, method = "", pathname = "", rest = ""] = match;
      endpoints.push({ method, path: pathname });
      const named = requestSchema(/\b([A-Z]\w+)\b/.exec(rest.replace(/\([^)]*\)/g, ""))?.[1]);
      const key = `${method} ${pathname}`;
      if (named && !schemaOf.has(key)) schemaOf.set(key, named);
    }
    for (const comment of text.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const (\w+)/g)) {
      const schema = requestSchema(comment[2]);
      if (!schema) continue;
      for (const match of (comment[1] ?? "").matchAll(endpointLine)) {
        const key = `${match[1]} ${match[2]}`;
        if (!schemaOf.has(key)) schemaOf.set(key, schema);
      }
    }
  }
  return { endpoints, schemaOf };
}

// ---------------------------------------------------------------- schemas and sample values

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; options?: z.ZodType[]; values?: unknown[]; entries?: Record<string, unknown>; shape?: Record<string, z.ZodType> };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { def: Def }).def;

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const def = defOf(schema);
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  if (def.type === "union" && def.options) return Object.assign({}, ...def.options.map(shapeOf)) as Record<string, z.ZodType>;
  if (def.innerType) return shapeOf(def.innerType);
  if (def.in) return shapeOf(def.in);
  return {};
}

/** A value the schema accepts (or close to it), so one hostile field at a time gets past the others. */
function sampleOf(schema: z.ZodType | null, name: string): unknown {
  if (name in plausible) return plausible[name];
  if (!schema) return "fuzz";
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return sampleOf(def.innerType ?? null, name);
    case "nullable":
      return null;
    case "pipe":
      return sampleOf(def.in ?? null, name);
    case "enum":
      return Object.values(def.entries ?? {})[0];
    case "literal":
      return def.values?.[0];
    case "number":
    case "int":
      return 1;
    case "boolean":
      return false;
    case "array":
      return [];
    case "union":
      return sampleOf(def.options?.[0] ?? null, name);
    case "object":
      return Object.fromEntries(Object.entries(shapeOf(schema)).map(([key, value]) => [key, sampleOf(value, key)]));
    default:
      return "fuzz";
  }
}

const fuzzEmail = `fuzz-${randomBytes(4).toString("hex")}@example.com`;
/** Never the demo password: wrong passwords only, so the demo account is not blocked or changed. */
const wrongPassword = "wrong-password-fuzz";
const pushKeys = { p256dh: randomBytes(65).toString("base64url"), auth: randomBytes(16).toString("base64url") };
const pushEndpoint = `https://push.example.com/fuzz/${randomBytes(8).toString("hex")}`;
let otherProfileId = 2;

const plausible: Record<string, unknown> = {
  email: fuzzEmail,
  password: wrongPassword,
  old_password: wrongPassword,
  token: "t".repeat(43),
  date_of_birth: "1990-01-01",
  name: "Fuzzer",
  country: "NL",
  region: null,
  city: "Amsterdam",
  language: "en",
  lat: 52.37,
  lon: 4.89,
  page: 1,
  interests: [],
  endpoint: pushEndpoint,
  subscription: { endpoint: pushEndpoint, expirationTime: null, keys: pushKeys },
};

/** Fields of endpoints whose schema the contract does not name. */
const genericFields = ["email", "password", "id", "token", "name", "page", "country", "region", "interests", "subscription", "key", "body", "text"];
const genericQueryKeys = ["id", "page", "country", "region", "gender", "min_age", "max_age", "game", "match", "lat", "lon", "type", "domain", "push", "token"];
const passwordFields = new Set(["password", "old_password"]);

// ---------------------------------------------------------------- the battery

const deepArray = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

/** Hostile JSON values for one field (or every field at once). */
const hostileValues: [string, unknown][] = [
  ["NUL", "\u0000"],
  ["NUL inside", "fuzz\u0000value@example.com"],
  ["control characters", "a\u0001\u0008\u001b[2J\r\n\t\u007fz"],
  ["5000 characters", "x".repeat(5000)],
  ["60000 characters", "é".repeat(30_000)],
  ["2^31", 2147483648],
  ["-1", -1],
  ["2^53+1", 9007199254740993],
  ["1e308", 1e308],
  ["0.5", 0.5],
  ["string 1e400", "1e400"],
  ["string NaN", "NaN"],
  ["string 2^31", "2147483648"],
  ["true", true],
  ["null", null],
  ["empty object", {}],
  ["operator object", { $gt: "", toString: "x" }],
  ["nested object", { a: { b: { c: [1, { d: null }] } } }],
  ["empty array", []],
  ["array of strings", ["a", "b"]],
  ["200-deep array", deepArray(200)],
  ["lone surrogate", "a\ud800b"],
  ["RTL override", "abc\u202edef"],
  ["zero width and BOM", "\u200b\ufeff\u2060"],
  ["emoji ZWJ", "👩‍❤️‍💋‍👨"],
  ["combining marks", "Z̷̢͓̈́a̴͈l̸g̵o̶"],
  ["full width", "ｆｕｚｚ＠ｅｘａｍｐｌｅ．ｃｏｍ"],
  ["SQL", "' OR 1=1; --"],
  ["HTML", "<script>alert(1)</script>"],
];
/** One field at a time: a value of each kind (the whole list goes into every field at once). */
const perFieldLabels = new Set(["NUL inside", "control characters", "5000 characters", "2^31", "-1", "1e308", "0.5", "string 1e400", "true", "null", "operator object", "array of strings", "lone surrogate", "emoji ZWJ"]);
const perFieldValues = hostileValues.filter(([label]) => perFieldLabels.has(label));
/** Values that reach past validation most often; used where a valid request costs a scrypt hash. */
const deepValues: [string, unknown][] = [
  ["NUL and control characters", "fuzz\u0000\u0001\u001b[2J\r\n-long"],
  ["lone surrogate and RTL", "abcdefgh\ud800\u202eijk"],
];

/** Raw JSON bodies (sent as application/json). */
const rawJsonBodies: [string, string | Uint8Array<ArrayBuffer>][] = [
  ["empty", ""],
  ["null", "null"],
  ["array", "[]"],
  ["array of object", "[{}]"],
  ["string", '"text"'],
  ["number", "123"],
  ["truncated", '{"email":'],
  ["unbalanced", "{{{"],
  ["NUL byte", "\u0000"],
  ["__proto__", '{"__proto__":{"admin":true,"status":"active"},"constructor":{"prototype":{"admin":true}}}'],
  ["duplicate keys", '{"id":1,"id":"x","id":[1]}'],
  ["20000-deep array", `${"[".repeat(20_000)}${"]".repeat(20_000)}`],
  ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])],
  ["escaped NUL key", '{"\\u0000":"\\u0000","id":"\\u0000"}'],
];

/** Query values, already URL-encoded. */
const hostileQueryValues: [string, string][] = [
  ["2^31", "2147483648"],
  ["-1", "-1"],
  ["1e400", "1e400"],
  ["NaN", "NaN"],
  ["%00", "%00"],
  ["control characters", "%01%08%1B%7F%0D%0A"],
  ["5000 characters", "x".repeat(5000)],
  ["invalid UTF-8 %FF", "%FF%FE"],
  ["encoded lone surrogate", "%ED%A0%80"],
  ["broken escape", "%E0%A4%A"],
  ["empty", ""],
  ["RTL and zero width", "%E2%80%AE%E2%80%8B"],
  ["SQL", "'%20OR%201%3D1--"],
  ["brackets", "[]"],
];

const perKeyQueryValues = hostileQueryValues.filter(([label]) => ["2^31", "-1", "1e400", "%00", "control characters", "5000 characters", "invalid UTF-8 %FF", "empty"].includes(label));

const cookieVariants: [string, string][] = [
  ["NUL-ish session cookie", "rdv_session=%00"],
  ["long session cookie", `rdv_session=${"x".repeat(5000)}`],
  ["broken escape in cookie", "rdv_session=%E0%A4%A"],
  ["two session cookies", "rdv_session=a; rdv_session=b"],
];

const headerVariants: [string, Record<string, string>][] = [
  ["foreign Origin", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
  ["Origin null", { Origin: "null" }],
  ["foreign forwarded host", { "X-Forwarded-Host": "evil.example" }],
  ["long forwarded host", { "X-Forwarded-Host": `${"a".repeat(3000)}.example` }],
  ["odd forwarded host", { "X-Forwarded-Host": "localhost:99999, evil.example" }],
  ["forwarded for garbage", { "X-Forwarded-For": "not-an-ip, ::ffff:999.1.1.1" }],
  ["client IP garbage", { "X-Client-IP": "::ffff:999.1.1.1%eth0" }],
  ["request id garbage", { "X-Request-Id": `${"../".repeat(100)}\u00e9` }],
];

// ---------------------------------------------------------------- sending

type Attempt = { method: string; path: string; label: string; member: boolean; headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> | FormData };
type Failure = { method: string; path: string; label: string; member: boolean; status: number | string; logged: string };

let api: Harness;
let token = "";
const tokensSeen = new Set<string>();
let requests = 0;
const failures: Failure[] = [];

function describeLogged(requestId: string | null): string {
  if (!requestId) return "";
  const line = api.logLines.find((l) => l.includes(requestId) && l.includes('"err"'));
  if (!line) return "";
  try {
    const parsed = JSON.parse(line) as { err?: { message?: string; type?: string } };
    return `${parsed.err?.type ?? "Error"}: ${parsed.err?.message ?? ""}`.slice(0, 300);
  } catch {
    return line.slice(0, 300);
  }
}

async function send(attempt: Attempt): Promise<number> {
  const headers: Record<string, string> = { "X-Forwarded-Host": "localhost", ...attempt.headers };
  if (attempt.member && token) headers.Cookie = [headers.Cookie, cookieHeader(token)].filter(Boolean).join("; ");
  requests++;
  try {
    const res = await fetch(`${api.baseUrl}${attempt.path}`, { method: attempt.method, headers, body: attempt.body, signal: AbortSignal.timeout(20_000) });
    // An event stream (GET /api/events.php) answers with its status and stays open: the status is the answer.
    if (res.headers.get("content-type")?.startsWith("text/event-stream")) await res.body?.cancel();
    else await res.arrayBuffer();
    if (res.status >= 500) failures.push({ ...attempt, status: res.status, logged: describeLogged(res.headers.get("x-request-id")) });
    return res.status;
  } catch (error) {
    failures.push({ ...attempt, status: `no answer (${(error as Error).message})`, logged: "" });
    return 0;
  }
}

async function sendAll(attempts: Attempt[], concurrency = 4): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < attempts.length) await send(attempts[next++]!);
    }),
  );
}

/** Logs in again when an endpoint (logout, delete) ended the session. */
async function keepSession(): Promise<void> {
  const res = await fetch(`${api.baseUrl}/api/user.php`, { headers: { "X-Forwarded-Host": "localhost", Cookie: cookieHeader(token) } });
  const body = (await res.json().catch(() => null)) as { user?: unknown } | null;
  if (res.status === 200 && body?.user) return;
  token = await login(api.baseUrl, demoAccounts.free.email, demoPassword);
  tokensSeen.add(token);
}

const jsonType: Record<string, string> = { "Content-Type": "application/json" };

function withQuery(pathname: string, query: string): string {
  return query ? `${pathname}${pathname.includes("?") ? "&" : "?"}${query}` : pathname;
}

function encodeQuery(values: Record<string, unknown>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== "object")
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join("&");
}

/** The battery for one endpoint: every attempt, as a visitor and as the logged-in demo member. */
function battery(endpoint: Endpoint, fields: Field[], mapped: boolean): Attempt[] {
  const { method, path: pathname } = endpoint;
  const hasBody = method !== "GET";
  // A request with a valid password costs a scrypt hash (~0.6 s here): those get a number where the
  // password goes (no password schema takes one) except where one field at a time gets the deep values.
  const costly = fields.some((f) => passwordFields.has(f.name));
  const names = fields.map((f) => f.name);
  const base = Object.fromEntries(fields.map((f) => [f.name, sampleOf(f.schema, f.name)]));
  const cheapBase = costly ? { ...base, ...Object.fromEntries(names.filter((n) => passwordFields.has(n)).map((n) => [n, 0])) } : base;
  const queryKeys = [...new Set([...names.filter((n) => n !== "subscription"), ...genericQueryKeys])];
  const attempts: Attempt[] = [];
  const both = (attempt: Omit<Attempt, "member">) => attempts.push({ ...attempt, member: false }, { ...attempt, member: true });
  const asMember = (attempt: Omit<Attempt, "member">) => attempts.push({ ...attempt, member: true });
  // Input read from the query (GET, DELETE) is tried as visitor and member; beside a body, as the member.
  const queryAs = method === "GET" || method === "DELETE" ? both : asMember;

  // Query strings: every key at once with one hostile value, and array/object/duplicate shapes.
  for (const [label, value] of hostileQueryValues) queryAs({ method, path: withQuery(pathname, queryKeys.map((k) => `${k}=${value}`).join("&")), label: `query: every key = ${label}` });
  queryAs({ method, path: withQuery(pathname, queryKeys.map((k) => `${k}[]=1&${k}[]=2`).join("&")), label: "query: arrays" });
  queryAs({ method, path: withQuery(pathname, queryKeys.map((k) => `${k}[a][b]=1`).join("&")), label: "query: objects" });
  queryAs({ method, path: withQuery(pathname, queryKeys.map((k) => `${k}=1&${k}=x`).join("&")), label: "query: duplicates" });
  queryAs({ method, path: withQuery(pathname, "&&==&%3D%26=%00&=x&push"), label: "query: empty keys" });
  // One query key at a time with the others plausible (GET and DELETE read their input from the query).
  if (mapped && (method === "GET" || method === "DELETE")) {
    for (const key of names.filter((n) => n !== "subscription")) {
      for (const [label, value] of perKeyQueryValues) {
        const rest = encodeQuery({ ...base, [key]: undefined });
        attempts.push({ method, path: withQuery(pathname, [rest, `${encodeURIComponent(key)}=${value}`].filter(Boolean).join("&")), label: `query: ${key} = ${label}`, member: true });
      }
    }
  }
  for (const [label, cookie] of cookieVariants) attempts.push({ method, path: pathname, label, member: false, headers: { Cookie: cookie } });
  for (const [label, headers] of headerVariants) both({ method, path: pathname, label, headers: hasBody ? { ...jsonType, ...headers } : headers, body: hasBody ? JSON.stringify(cheapBase) : undefined });

  if (!hasBody) return attempts;

  // Every field at once with one hostile value (password fields kept invalid where a valid one costs a
  // hash): every value as the member, a value of each kind as a visitor.
  for (const [label, value] of hostileValues) {
    const body = Object.fromEntries(names.map((n) => [n, costly && passwordFields.has(n) ? 0 : value]));
    (perFieldLabels.has(label) ? both : asMember)({ method, path: pathname, label: `json: every field = ${label}`, headers: jsonType, body: JSON.stringify(body) });
  }
  // One field at a time, the others plausible, as the member (who gets past requireMember); for
  // endpoints without a schema in the contract the every-field requests above say as much.
  for (const name of mapped ? names : []) {
    for (const [label, value] of costly ? deepValues : perFieldValues) {
      attempts.push({ method, path: pathname, label: `json: ${name} = ${label}`, member: true, headers: jsonType, body: JSON.stringify({ ...base, [name]: value }) });
    }
  }
  for (const [label, body] of rawJsonBodies) asMember({ method, path: pathname, label: `raw json: ${label}`, headers: jsonType, body });
  // Wrong content types where JSON is expected.
  const formBody = names.map((n) => `${encodeURIComponent(n)}=%00&${encodeURIComponent(n)}[]=x`).join("&");
  asMember({ method, path: pathname, label: "form-urlencoded", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: formBody });
  asMember({ method, path: pathname, label: "text/plain", headers: { "Content-Type": "text/plain" }, body: JSON.stringify(cheapBase) });
  asMember({ method, path: pathname, label: "no content type", body: JSON.stringify(cheapBase) });
  asMember({ method, path: pathname, label: "application/xml", headers: { "Content-Type": "application/xml" }, body: "<?xml version='1.0'?><!DOCTYPE a [<!ENTITY b SYSTEM 'file:///etc/passwd'>]><a>&b;</a>" });
  asMember({ method, path: pathname, label: "json with utf-7 charset", headers: { "Content-Type": "application/json; charset=utf-7" }, body: JSON.stringify(cheapBase) });
  asMember({ method, path: pathname, label: "json with gzip encoding that is not gzip", headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" }, body: JSON.stringify(cheapBase) });
  asMember({ method, path: pathname, label: "json with unknown encoding", headers: { "Content-Type": "application/json", "Content-Encoding": "x-unknown" }, body: JSON.stringify(cheapBase) });
  asMember({ method, path: pathname, label: "multipart garbage", headers: { "Content-Type": "multipart/form-data; boundary=zzz" }, body: "--zzz\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"../../x.jpg\"\r\n\r\n\u0000\u0001garbage" });
  asMember({ method, path: pathname, label: "multipart without boundary", headers: { "Content-Type": "multipart/form-data" }, body: "garbage" });
  const form = () => {
    const data = new FormData();
    for (const n of names) data.append(n, "\u0000");
    data.append("photo", new Blob([randomBytes(512)], { type: "image/jpeg" }), "../../\u0000.jpg");
    return data;
  };
  attempts.push({ method, path: pathname, label: "multipart with a garbage photo", member: false, body: form() }, { method, path: pathname, label: "multipart with a garbage photo", member: true, body: form() });
  return attempts;
}

/** A JSON body over the 100 KB cap, and a declared Content-Length far over it: 413, both. */
async function oversized(endpoint: Endpoint): Promise<{ label: string; status: number }[]> {
  const big = JSON.stringify({ text: "x".repeat(1_100_000) });
  const results: { label: string; status: number }[] = [];
  const attempt = { method: endpoint.method, path: endpoint.path, member: true } as const;
  results.push({ label: "1 MB json body", status: await send({ ...attempt, label: "1 MB json body", headers: jsonType, body: big }) });
  // Declared length only: the api must refuse it from the header, without waiting for 500 MB.
  requests++;
  const status = await new Promise<number>((resolve) => {
    const url = new URL(endpoint.path, api.baseUrl);
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: endpoint.method, headers: { "Content-Type": "application/json", "Content-Length": String(500 * 1024 * 1024), "X-Forwarded-Host": "localhost", Cookie: cookieHeader(token) } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on("error", () => resolve(0));
    req.setTimeout(10_000, () => {
      req.destroy();
      resolve(0);
    });
    req.write("{");
  });
  if (status >= 500 || status === 0) failures.push({ ...attempt, label: "declared Content-Length 500 MB", status: status || "no answer", logged: "" });
  results.push({ label: "declared Content-Length 500 MB", status });
  return results;
}

// ---------------------------------------------------------------- the test

const started = Date.now();
let endpoints: Endpoint[] = [];
let schemaOf = new Map<string, z.ZodType>();
let fromContract: Endpoint[] = [];

beforeAll(async () => {
  await loadContract();
  ({ endpoints: fromContract, schemaOf } = contractEndpoints());
  const routed = appEndpoints();
  const key = (e: Endpoint) => `${e.method} ${e.path}`;
  const all = new Map<string, Endpoint>();
  for (const e of [...routed, ...fromContract]) all.set(key(e), e);
  endpoints = [...all.values()];
  api = await startApi();
  const [other] = await api.db
    .select({ id: profiles.id })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(sites, eq(sites.id, profiles.siteId))
    .where(and(eq(sites.domain, "localhost"), ne(users.email, demoAccounts.free.email)))
    .limit(1);
  otherProfileId = other?.id ?? 2;
  plausible.id = otherProfileId;
  plausible.match = otherProfileId;
  token = await login(api.baseUrl, demoAccounts.free.email, demoPassword);
  tokensSeen.add(token);
});

afterAll(async () => {
  await api?.close();
});

describe("api fuzz: hostile input to every endpoint", () => {
  it("finds the endpoints in the router and in contract/, and the contract's endpoints are all served", () => {
    const routed = appEndpoints();
    expect(routed.length, "the router walk found no routes: has createApiApp's mounting changed?").toBeGreaterThan(20);
    const served = new Set(routed.map((e) => `${e.method} ${e.path}`));
    const unserved = fromContract.map((e) => `${e.method} ${e.path}`).filter((k) => !served.has(k));
    expect([...new Set(unserved)], "endpoints named in contract/ that the api does not route").toEqual([]);
  });

  it("answers every hostile request with a status below 500 and writes no secret to the log", { timeout: 480_000 }, async () => {
    const oversizedStatuses: string[] = [];
    for (const endpoint of endpoints) {
      const schema = schemaOf.get(`${endpoint.method} ${endpoint.path}`) ?? null;
      const fields: Field[] = schema ? Object.entries(shapeOf(schema)).map(([name, s]) => ({ name, schema: s })) : genericFields.map((name) => ({ name, schema: null }));
      await sendAll(battery(endpoint, fields, schema !== null));
      await keepSession();
      if (endpoint.method !== "GET") {
        for (const { label, status } of await oversized(endpoint)) if (status !== 413) oversizedStatuses.push(`${endpoint.method} ${endpoint.path} ${label}: ${status}`);
        await keepSession();
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`api fuzz: ${requests} requests to ${endpoints.length} endpoints in ${seconds} s, ${failures.length} answered 5xx or not at all`);

    // One line per endpoint, input and answer (the same input on many endpoints is one finding, listed once per endpoint).
    const grouped = new Map<string, { count: number; example: Failure }>();
    for (const f of failures) {
      const key = `${f.method} ${f.path.split("?")[0]} | ${f.label} | ${f.status} | ${f.logged}`;
      const entry = grouped.get(key);
      if (entry) entry.count++;
      else grouped.set(key, { count: 1, example: f });
    }
    const report = [...grouped.values()].map(({ count, example: f }) => `${f.method} ${f.path.slice(0, 200)} [${f.member ? "member" : "visitor"}] ${f.label} -> ${f.status}${count > 1 ? ` (x${count})` : ""}${f.logged ? `\n    log: ${f.logged}` : ""}`);
    expect(report.length, `5xx answers (method, path, input):\n${report.join("\n")}`).toBe(0);

    const secrets = [demoPassword, ...tokensSeen, pushKeys.p256dh, pushKeys.auth, "scrypt$", fuzzEmail, demoAccounts.free.email];
    const leaks = leakingLogLines(api, secrets).map((line) => line.slice(0, 400));
    expect(leaks, `log lines with an e-mail address, password, session token, scrypt hash or push key:\n${leaks.join("\n")}`).toEqual([]);
    expect(oversizedStatuses, "bodies over the 100 KB cap should answer 413").toEqual([]);
  });

  /**
   * Hostile Host headers (docs/security.md, Where requests come in): the api picks the site by the (forwarded) host; one that is no host name
   * fell back to the default site. Now 400 from contract/host.ts before the lookup, on every endpoint;
   * an absolute request line is read as its path. Raw sockets: fetch cannot send these.
   */
  it("answers a hostile Host or X-Forwarded-Host and a request target that is no path with 400 on every endpoint, never 5xx", { timeout: 120_000 }, async () => {
    const port = Number(new URL(api.baseUrl).port);
    const wrong: string[] = [];
    // /healthz (for the load balancer) reads nothing of the request and answers before any of this.
    for (const endpoint of endpoints.filter((e) => e.path !== "/healthz")) {
      const line = (target: string) => `${endpoint.method} ${target} HTTP/1.1`;
      const body: [string, string][] = endpoint.method === "GET" ? [] : [["Content-Type", "application/json"], ["Content-Length", "2"]];
      const send = async (label: string, requestLine: string, headers: [string, string][], expected: (status: number) => boolean) => {
        requests++;
        const res = await rawRequest({ port, requestLine, headers: [...headers, ...body], body: body.length ? Buffer.from("{}") : undefined });
        if (!expected(res.status)) wrong.push(`${requestLine} [${label}] -> ${res.status || `no answer (${res.error})`}`);
      };
      for (const [label, host] of hostileHosts) {
        await send(`Host: ${label}`, line(endpoint.path), [["Host", host]], (status) => status === 400);
        // A proxy chain's list is read by its first entry (a host): only the Host header must be one name.
        if (label !== "a list") await send(`X-Forwarded-Host: ${label}`, line(endpoint.path), [["Host", "127.0.0.1"], ["X-Forwarded-Host", host]], (status) => status === 400);
      }
      for (const [label, target] of hostileTargets) await send(label, line(target), [["Host", "localhost"]], (status) => status === 400);
      // An absolute-form target is its path on the host it names: whatever the endpoint answers there, below 500.
      await send("absolute-form", line(`http://localhost${endpoint.path}`), [["Host", "evil.example"]], (status) => status > 0 && status < 500);
    }
    expect(wrong, "answers other than 400 (a hostile host or target) or a 5xx (absolute-form)").toEqual([]);
  });
});
