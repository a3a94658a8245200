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
  });
}
