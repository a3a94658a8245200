import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "./fixtures";

/**
 * The test server's log: web and api output (warn and up, as JSON lines, plus scripts/start.ts's own
 * lines), which playwright.config.ts tees into the run's data directory.
 */
export function serverLogLines(): string[] {
  const file = path.join(process.env.E2E_DATA_DIR ?? "", "server.log");
  if (!existsSync(file)) throw new Error(`no server log at ${file}`);
  return readFileSync(file, "utf8").split("\n").filter(Boolean);
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** Lines outside the JSON logger that are part of an error's stack trace (Express's or Node's default printing). */
export function stackTraceLines(): string[] {
  return serverLogLines().filter((line) => !isJson(line) && /^\s+at |\b\w*Error\b|\bUnhandled\b/.test(line));
}

export type LogLine = { level: number; service: string; msg?: string; req?: { id?: string }; res?: { statusCode?: number } };

/** Every JSON line of one request (by its X-Request-Id), once `service`'s request line for it is written. */
export async function requestLogLines(requestId: string, service: "web" | "api" = "web"): Promise<LogLine[]> {
  const lines = () => serverLogLines().filter((line) => line.includes(`"${requestId}"`) && isJson(line)).map((line) => JSON.parse(line) as LogLine);
  // The request line is written when the answer finishes, which may be just after the client has it.
  await expect.poll(() => lines().some((line) => line.service === service && line.res !== undefined), { message: `${service}'s request line for ${requestId}` }).toBe(true);
  return lines();
}
