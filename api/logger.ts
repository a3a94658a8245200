import pino, { type Logger } from "pino";

/** JSON lines. Credentials and addresses never reach a log line, whatever a caller passes. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    redact: {
      paths: [
        "password",
        "*.password",
        "email",
        "*.email",
        "token",
        "*.token",
        "req.headers.cookie",
        "req.headers.authorization",
        'res.headers["set-cookie"]',
      ],
      censor: "[redacted]",
    },
    serializers: { err: serializeError },
  });
}

/** Drizzle puts a failed query's bound values (e-mails, hashes) into the error text: keep the SQL, drop the values. */
function scrubParams(text: string | undefined): string | undefined {
  return text?.replace(/\nparams: [^\n]*/g, "\nparams: [redacted]");
}

/** Only type, message, stack and code: a driver's error also carries the values and a "detail" naming the row. */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return {
    type: error.name,
    message: scrubParams(error.message),
    stack: scrubParams(error.stack),
    ...(typeof code === "string" ? { code } : {}),
  };
}
