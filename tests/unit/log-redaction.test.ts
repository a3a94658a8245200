import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pino, { type Logger } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../api/logger";
import { openDatabase, type Database } from "../../api/db/client";
import { pushSubscriptions, users } from "../../api/db/schema";
import { redactingLoggerOptions, redactLine, redactUrl, requestLogLevel, scrubText } from "#contract/log-redaction";

/**
 * What logs never contain (docs/security.md): no log line of the api or web carries SQL parameters, a password or its hash, a
 * token, a cookie, an e-mail address or push keys, at whatever depth the logged object holds them,
 * in error messages (a real failed query included) or in the message itself.
 */
const secrets = {
  email: "Jane.Doe+dating@example.org",
  password: "correct horse battery staple",
  hash: `scrypt$131072$8$1$${randomBytes(16).toString("base64url")}$${randomBytes(32).toString("base64url")}`,
  session: randomBytes(32).toString("base64url"),
  linkToken: randomBytes(32).toString("base64url"),
  cookie: `rdv_session=${randomBytes(32).toString("base64url")}`,
  p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString("base64url"),
  auth: randomBytes(16).toString("base64url"),
};
/** What each secret looks like in a line: the whole value, and the parts that identify it alone. */
const needles = [...Object.values(secrets), secrets.email.toLowerCase(), secrets.hash.split("$").pop()!, secrets.cookie.split("=")[1]!];

function capture(build: (sink: Writable) => Logger): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      callback();
    },
  });
  return { logger: build(sink), lines };
}

const loggers = {
  api: (sink: Writable) => createLogger("api", "debug", sink),
  // As server/main.ts builds web's logger.
  web: (sink: Writable) => pino({ level: "debug", base: { service: "web" }, ...redactingLoggerOptions() }, sink),
};

function leaks(lines: string[]): string[] {
  return lines.filter((line) => needles.some((needle) => line.includes(needle)) || /[\w.+-]+@[\w-]+(\.[\w-]+)+/.test(line));
}

let database: Database;
/** Real failed queries whose text carries the bound values, as drizzle throws them. */
const failures: Record<string, Error> = {};

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: undefined, dataDir: null });
  // No site 424242: the insert fails on the foreign key, and its error lists the e-mail and the hash it bound.
  failures.user = await database.db
    .insert(users)
    .values({ siteId: 424242, email: secrets.email, passwordHash: secrets.hash })
    .then(() => new Error("insert did not fail"))
    .catch((error: Error) => error);
  // A NUL in the endpoint, as reached the database before inputs were bounded: the error lists both push keys.
  failures.push = await database.db
    .insert(pushSubscriptions)
    .values({ userId: 1, endpoint: "https://push.example.com/a\u0000", p256dh: secrets.p256dh, auth: secrets.auth })
    .then(() => new Error("insert did not fail"))
    .catch((error: Error) => error);
}, 60_000);
afterAll(async () => {
  await database?.close();
});

describe.each(Object.entries(loggers))("%s logger", (_service, build) => {
  it("the failed queries really carry the secrets (else this test proves nothing)", () => {
    expect(`${failures.user!.message}`).toContain(secrets.hash);
    expect(`${failures.user!.message}`).toContain(secrets.email);
    expect(`${failures.push!.message}`).toContain(secrets.p256dh);
  });

  it("keeps the SQL of a failed query and drops its parameters, as err, nested, as a cause and as the message", () => {
    const { logger, lines } = capture(build);
    for (const error of [failures.user!, failures.push!]) {
      logger.error({ err: error }, "request failed");
      logger.error({ error }, "mail not sent");
      logger.error({ job: { step: { failure: error } } }, "job failed");
      logger.error({ err: new Error("outer", { cause: error }) }, "wrapped");
      logger.error(error.message);
      logger.error(error);
    }
    expect(lines).toHaveLength(12);
    expect(leaks(lines)).toEqual([]);
    expect(lines.filter((line) => line.includes("Failed query: insert into"))).not.toHaveLength(0);
    expect(lines.filter((line) => line.includes("params: [redacted]"))).not.toHaveLength(0);
  });

  it("censors secrets by key at any depth, in arrays and in child bindings", () => {
    const { logger, lines } = capture(build);
    logger.info({ password: secrets.password, email: secrets.email, token: secrets.session }, "top level");
    logger.info({ user: { old_password: secrets.password, newPassword: secrets.password, passwordHash: secrets.hash, emailAddress: secrets.email } }, "one down");
    logger.info({ a: { b: { c: { d: { sessionToken: secrets.session, "Set-Cookie": [secrets.cookie], headers: { cookie: secrets.cookie, Authorization: `Bearer ${secrets.linkToken}` } } } } } }, "deep");
    logger.info({ subscriptions: [{ endpoint: "https://push.example.com/x", keys: { p256dh: secrets.p256dh, auth: secrets.auth } }, { p256dh: secrets.p256dh, auth: secrets.auth }] }, "push");
    logger.info({ query: "insert into users ...", params: [1, secrets.email, secrets.hash] }, "query");
    logger.child({ email: secrets.email, member: { password: secrets.password } }).info("child");
    const reqLike = { id: "req-1", method: "POST", url: `/api/activate.php?token=${secrets.linkToken}`, headers: { cookie: secrets.cookie } };
    logger.info({ req: reqLike }, "request");
    expect(lines).toHaveLength(7);
    expect(leaks(lines)).toEqual([]);
    // What an operator needs stays: the message, the non-secret fields, the shape.
    expect(JSON.parse(lines[3]!)).toMatchObject({ msg: "push", subscriptions: [{ keys: "[redacted]" }, { p256dh: "[redacted]", auth: "[redacted]" }] });
    expect(JSON.parse(lines[4]!)).toMatchObject({ query: "insert into users ...", params: "[redacted]" });
  });

  it("scrubs secrets out of free text: messages, values under harmless keys, format arguments", () => {
    const { logger, lines } = capture(build);
    logger.info(`login failed for ${secrets.email}`);
    logger.info({ note: `stored ${secrets.hash} for ${secrets.email}`, reason: `session ${secrets.session}` }, "values");
    logger.info({ list: [[`link ${secrets.linkToken}`]] }, "nested text");
    logger.warn("mail to %s with %s", secrets.email, secrets.linkToken);
    expect(lines).toHaveLength(4);
    expect(leaks(lines)).toEqual([]);
  });

  it("leaves an ordinary request line as it is", () => {
    const { logger, lines } = capture(build);
    const line = { req: { id: "5a1c3f0e-3c1b-4a57-9d2e-1f0c2b3a4d5e", method: "GET", url: "/nl/members?country=NL&page=2" }, res: { statusCode: 200 }, responseTime: 12, memberId: 42, upstream: [{ method: "GET", path: "/api/members.php", status: 200, ms: 5, attempt: 1 }] };
    logger.info(line, "request completed");
    expect(JSON.parse(lines[0]!)).toMatchObject({ ...line, msg: "request completed" });
  });
});

describe("scrubText and redactLine", () => {
  it("take out addresses, hashes, SQL parameters and long tokens, and nothing else", () => {
    expect(scrubText(`Failed query: select 1\nparams: 7,${secrets.email},${secrets.hash}`)).toBe("Failed query: select 1\nparams: [redacted]");
    expect(scrubText(`to ${secrets.email}, key ${secrets.p256dh}`)).toBe("to [redacted], key [redacted]");
    expect(scrubText("GET /api/members.php?page=2 5a1c3f0e-3c1b-4a57-9d2e-1f0c2b3a4d5e push_subscriptions_endpoint_idx")).toBe(
      "GET /api/members.php?page=2 5a1c3f0e-3c1b-4a57-9d2e-1f0c2b3a4d5e push_subscriptions_endpoint_idx",
    );
  });

  it("rewrite a finished line only when it may hold a secret, and keep it valid JSON", () => {
    const plain = '{"level":30,"msg":"request completed","memberId":1}\n';
    expect(redactLine(plain)).toBe(plain);
    const escaped = `${JSON.stringify({ level: 50, msg: `x\n${secrets.email}`, detail: "Key (email)=(a@b.co) already exists" })}\n`;
    const out = redactLine(escaped);
    expect(out.endsWith("\n")).toBe(true);
    expect(JSON.parse(out)).toEqual({ level: 50, msg: "x\n[redacted]", detail: "[redacted]" });
  });
});

/**
 * What logs never contain (docs/security.md): the sandbox checkout's token (24 random bytes, 32 characters: too short
 * for the long-token rule) is the path of its page, /sandbox-checkout/{token}, and was in web's URL log.
 */
describe("secrets in URLs", () => {
  const checkoutToken = randomBytes(24).toString("base64url");
  const linkToken = randomBytes(32).toString("base64url");

  it.each([
    [`/sandbox-checkout/${checkoutToken}`, "/sandbox-checkout/[redacted]"],
    [`/nl/sandbox-checkout/${checkoutToken}.data?_routes=root`, "/nl/sandbox-checkout/[redacted].data?_routes=root"],
    [`/sandbox-checkout/${checkoutToken}/`, "/sandbox-checkout/[redacted]/"],
    [`http://localhost/sandbox-checkout/${checkoutToken}?x=1`, "http://localhost/sandbox-checkout/[redacted]?x=1"],
    [`/activate?token=${linkToken}&lang=nl`, "/activate?token=[redacted]&lang=nl"],
    [`/profile/export?token=${linkToken}`, "/profile/export?token=[redacted]"],
    [`/api/unsubscribe.php?Token=${linkToken}`, "/api/unsubscribe.php?Token=[redacted]"],
    [`/x?%74oken=${linkToken}`, "/x?%74oken=[redacted]"],
    [`/reset-password/do?email=a%40b.example&old_password=x&session_token=y`, "/reset-password/do?email=[redacted]&old_password=[redacted]&session_token=[redacted]"],
  ])("redactUrl(%s)", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
    // Idempotent: a line checked twice stays the same.
    expect(redactUrl(expected)).toBe(expected);
  });

  it("leaves URLs without secrets as they are", () => {
    for (const url of ["/members?country=NL&page=2", "/credits/3?code=DEMO10", "/sandbox-checkout", "/payment/12?done=1", "/api/chat-image.php?message=5"]) expect(redactUrl(url)).toBe(url);
  });

  describe.each(Object.entries(loggers))("%s logger", (_service, build) => {
    it("writes no checkout token, whether a serializer redacted the URL or not, in a request line, a message or an error", () => {
      const { logger, lines } = capture(build);
      logger.info({ req: { id: "r1", method: "GET", url: `/sandbox-checkout/${checkoutToken}` }, res: { statusCode: 200 } }, "request completed");
      logger.warn({ req: { id: "r2", method: "POST", url: `/nl/sandbox-checkout/${checkoutToken}.data` } }, "request refused");
      logger.info(`GET /sandbox-checkout/${checkoutToken}`);
      logger.error({ err: new Error(`No route matches URL "/sandbox-checkout/${checkoutToken}/x"`) }, "unhandled error in loader or action");
      logger.info({ upstream: [{ path: `/sandbox-checkout/${checkoutToken}` }] }, "nested");
      expect(lines).toHaveLength(5);
      expect(lines.filter((line) => line.includes(checkoutToken))).toEqual([]);
      expect(JSON.parse(lines[0]!)).toMatchObject({ req: { url: "/sandbox-checkout/[redacted]" }, msg: "request completed" });
    });
  });
});

describe("request log levels (both services' pino-http)", () => {
  it.each([
    [200, "info"],
    [302, "info"],
    [304, "info"],
    [400, "warn"],
    [403, "warn"],
    [404, "warn"],
    [405, "warn"],
    [413, "warn"],
    [429, "warn"],
    [500, "error"],
    [503, "error"],
  ] as const)("status %i is logged at %s", (status, level) => {
    expect(requestLogLevel(status)).toBe(level);
  });

  it("a request that failed with an error is an error, whatever its status", () => {
    expect(requestLogLevel(200, new Error("aborted"))).toBe("error");
  });
});
