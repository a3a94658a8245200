import pino, { type DestinationStream, type Logger } from "pino";
import { redactingLoggerOptions } from "#contract/log-redaction";

/**
 * JSON lines. SQL parameters, passwords and hashes, tokens, cookies, e-mail addresses and push keys never
 * reach a log line, whatever a caller passes and at any depth (contract/log-redaction.ts, shared with web).
 * `destination` is for tests, which read the lines the api writes.
 */
export function createLogger(service: string, level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service }, ...redactingLoggerOptions() };
  return destination ? pino(options, destination) : pino(options);
}
