import type { Level, Logger, LoggerOptions } from "pino";

/*
 * What never reaches a log line of web or the api (docs/security.md, What logs never contain): SQL parameters, passwords and
 * their hashes, tokens, cookies, e-mail addresses and push subscription keys, at any depth of the
 * logged object, in error messages and in the message itself. Both services build their pino logger
 * with redactingLoggerOptions(); the final line is checked once more just before it is written, so
 * a serializer or a message added later cannot bring one back. Plain data only (no pino at run time).
 */

export const censor = "[redacted]";

/** Keys whose values are never logged, compared without case, "-" and "_"; a key containing one of `secretParts` counts too. */
const secretKeys = new Set(["hash", "passwordhash", "auth", "p256dh", "keys", "params", "parameters", "detail", "subscription", "endpoint"]);
const secretParts = ["password", "token", "secret", "cookie", "authorization", "email"];

export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_\s]/g, "");
  return secretKeys.has(k) || secretParts.some((part) => k.includes(part));
}

const emailAddress = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const passwordHash = /scrypt\$[^\s"',;]+/g;
/** Drizzle's failed-query text ends with "params: <the bound values>" (e-mails, hashes, push keys). */
const sqlParams = /(^|\n)(\s*)params:[^\n]*/g;
/** Session and link tokens (32 random bytes in base64url are 43 characters) and push keys: any long base64url run. */
const longToken = /(?<![\w-])[A-Za-z0-9_-]{40,}={0,2}(?![\w-])/g;

/** A query parameter (`?token=`, `&old_password=`) whose name isSecretKey's: its value. */
const queryParam = /([?&])([^=&#\s"]*)=([^&#\s"]*)/g;
/** Path segments that are keys themselves: the sandbox checkout's token (app/routes/sandbox-checkout.$token.tsx), with or without `.data`. */
const secretPathSegment = /(\/sandbox-checkout\/)(?!\[redacted\])[^/?#\s"]+?(\.data)?(?=[/?#\s"]|$)/gi;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** A URL (or a text holding URLs) with the values of secret query parameters and secret path segments censored. */
export function redactUrl(url: string): string {
  return url
    .replace(queryParam, (whole, sep: string, name: string) => (isSecretKey(decodedName(name)) ? `${sep}${name}=${censor}` : whole))
    .replace(secretPathSegment, `$1${censor}$2`);
}

/** A text with e-mail addresses, password hashes, SQL parameters, secrets in URLs and token-like runs taken out. */
export function scrubText(text: string): string {
  return redactUrl(text)
    .replace(sqlParams, `$1$2params: ${censor}`)
    .replace(passwordHash, censor)
    .replace(emailAddress, censor)
    .replace(longToken, censor);
}

/** Only type, message, stack, code (and the cause's): a driver's error also carries the query's values and a "detail" naming the row. */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return redactDeep(error);
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const causeCode = (cause as { code?: unknown } | undefined)?.code;
  return {
    type: error.name,
    message: scrubText(error.message),
    ...(error.stack ? { stack: scrubText(error.stack) } : {}),
    ...(typeof code === "string" ? { code } : typeof causeCode === "string" ? { code: causeCode } : {}),
    ...(cause ? { cause: { type: cause.name, message: scrubText(cause.message), ...(typeof causeCode === "string" ? { code: causeCode } : {}) } } : {}),
  };
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of plain data (objects, arrays, strings) with secret keys censored and texts scrubbed; errors
 * become serializeError's shape. Other objects (a request, a response) are left to their serializers.
 */
export function redactDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error) return serializeError(value);
  if (depth > 10 || seen.has(value)) return censor;
  if (Array.isArray(value)) {
    seen.add(value);
    return value.map((item) => redactDeep(item, depth + 1, seen));
  }
  if (!isPlainObject(value)) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = isSecretKey(key) ? censor : redactDeep(item, depth + 1, seen);
  return out;
}

/** A written line that may hold a secret: a key of one, an "@", a hash, SQL parameters, a long token-like run or a secret in a URL. */
const suspicious = /@|scrypt\$|params:|[A-Za-z0-9_-]{40}|sandbox-checkout\/(?!\[redacted\])|[?&][^=&"\s]*(?:password|token|secret|cookie|authorization|email)[^=&"\s]*=(?!\[redacted\])|"[^"]*(?:password|token|secret|cookie|authorization|email|hash|auth|p256dh|keys|params|parameters|detail|subscription|endpoint)[^"]*"\s*:/i;

/** The last check on a finished JSON line: most lines pass untouched; one that may hold a secret is parsed, redacted and written anew. */
export function redactLine(line: string): string {
  if (!suspicious.test(line)) return line;
  const newline = line.endsWith("\n") ? "\n" : "";
  try {
    return JSON.stringify(redactDeep(JSON.parse(line))) + newline;
  } catch {
    return scrubText(line);
  }
}

/** pino options for both services: errors serialized without values, secrets censored at any depth, the final line checked. */
export function redactingLoggerOptions(): Pick<LoggerOptions, "redact" | "serializers" | "formatters" | "hooks"> {
  return {
    // The well-known places, censored by pino itself (cheap); the rest below.
    redact: { paths: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'], censor },
    serializers: { err: serializeError },
    formatters: {
      // pino serializes req, res and err after this; everything else a caller passes is plain data.
      log: (object) => {
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(object)) {
          out[key] = key === "req" || key === "res" || key === "err" ? value : isSecretKey(key) ? censor : redactDeep(value);
        }
        return out;
      },
    },
    hooks: { streamWrite: redactLine },
  };
}

/** The level of a request's log line in both services: a server error is an error, a client's mistake (4xx) a warning, the rest info. */
export function requestLogLevel(statusCode: number, error?: unknown): Level {
  if (error || statusCode >= 500) return "error";
  return statusCode >= 400 ? "warn" : "info";
}

/**
 * An uncaught exception or unhandled rejection is written as one JSON line through the service's logger
 * (redacted like every other), not as Node's stack trace on stderr; then the process stops, as Node's
 * default would have it.
 */
export function logProcessFailures(logger: Logger): void {
  process.on("uncaughtException", (error, origin) => {
    logger.fatal({ err: error, origin }, "uncaught exception");
    process.exit(1);
  });
  process.on("unhandledRejection", (reason) => {
    logger.fatal({ err: reason }, "unhandled rejection");
    process.exit(1);
  });
}
