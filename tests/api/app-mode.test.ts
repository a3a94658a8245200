import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configErrorExitCode } from "#contract/app-mode";
import { loadApiConfig as loadApiConfigOf } from "../../api/config";
import type { Database } from "../../api/db/client";
import { configuredPaymentProviders } from "../../api/domain/payments/providers";
import { createLogger } from "../../api/logger";

/**
 * One mode for both services (docs/security.md, Modes): the sandbox checkout lets a member mark their own payment paid, so production
 * mode refuses it at start (one line, exit 78, no restart by npm start) and never registers it.
 */
const root = path.resolve(__dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "rdv-app-mode-"));
const secret = "s".repeat(40);
/** Production mode needs a mail transport: an address is enough to start (nothing here sends mail). */
const smtp = "smtp://127.0.0.1:2525";
const refusal =
  "Invalid api configuration: PAYMENT_SANDBOX=true is refused in production mode (the sandbox checkout lets members mark their own payments paid; set APP_MODE=demo for a demo)";

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The environment of a child: this one's without anything that would point it elsewhere or pick its mode. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "API_URL", "HOST", "PORT", "API_PORT", "API_HOST", "APP_MODE", "NODE_ENV", "PAYMENT_SANDBOX", "PAYMENT_ROUTES", "SESSION_SECRET", "SMTP_URL", "DEMO_DATA"]) delete env[name];
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: "warn", ...extra };
}

// Loading the api takes 5 s of CPU through tsx; on a busy 2-core machine 15-30 s.
const deadlineMs = 100_000;

/**
 * Runs `node --import tsx <args>` in a process group of its own to its end: exit code and output. A process
 * still running at the deadline (an api that was not refused, a start that restarts it) has its group
 * killed and reports code null.
 */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // The group ended meanwhile.
      }
    }, deadlineMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
  });
}

const loadApiConfig = (env: Record<string, string>) => loadApiConfigOf(env as NodeJS.ProcessEnv);

describe("production mode and the sandbox", () => {
  const base = { SESSION_SECRET: secret, DATA_DIR: dataDir, SMTP_URL: smtp };

  it("refuses PAYMENT_SANDBOX=true, whether production comes from APP_MODE or from NODE_ENV", () => {
    expect(() => loadApiConfig({ ...base, APP_MODE: "production", PAYMENT_SANDBOX: "true" })).toThrow(refusal);
    expect(() => loadApiConfig({ ...base, NODE_ENV: "production", PAYMENT_SANDBOX: "true" })).toThrow(refusal);
    // A demo on web's production build keeps its sandbox.
    expect(loadApiConfig({ ...base, APP_MODE: "demo", NODE_ENV: "production", PAYMENT_SANDBOX: "true" }).APP_MODE).toBe("demo");
    expect(() => loadApiConfig({ ...base, APP_MODE: "live" })).toThrow('Invalid api configuration: APP_MODE must be demo or production, not "live"');
    // Everything production mode misses, one line each, at once.
    expect(() => loadApiConfig({ DATA_DIR: dataDir, APP_MODE: "production" })).toThrow(
      [
        "Invalid api configuration: SESSION_SECRET is required in production mode (32 or more random characters, e.g. from `openssl rand -base64 32`)",
        "Invalid api configuration: SMTP_URL is required in production mode (without it mails are only written to files in DATA_DIR/mail and never reach members)",
      ].join("\n"),
    );
    expect(() => loadApiConfig({ ...base, SESSION_SECRET: "short", API_PORT: "x" })).toThrow(/^Invalid api configuration: API_PORT: .*\nInvalid api configuration: SESSION_SECRET: SESSION_SECRET must be at least 32 characters$/);
  });

  it("never registers the sandbox in production mode, and refuses a route to it", () => {
    const logger = createLogger("api", "silent");
    const database = {} as Database;
    const production = configuredPaymentProviders(database, loadApiConfig({ ...base, APP_MODE: "production" }), logger);
    expect(production.sandboxEnabled).toBe(false);
    expect(production.byId("sandbox")).toBeNull();
    expect(production.forMethod("ideal")).toBeNull();
    const off = configuredPaymentProviders(database, loadApiConfig({ ...base, APP_MODE: "production", PAYMENT_SANDBOX: "false" }), logger);
    expect(off.byId("sandbox")).toBeNull();
    expect(() => configuredPaymentProviders(database, loadApiConfig({ ...base, APP_MODE: "production", PAYMENT_ROUTES: "cards=sandbox" }), logger)).toThrow(
      "Invalid api configuration: PAYMENT_ROUTES names sandbox, which production mode refuses",
    );
    const demo = configuredPaymentProviders(database, loadApiConfig({ ...base, APP_MODE: "demo" }), logger);
    expect(demo.byId("sandbox")?.id).toBe("sandbox");
  });

  it("stops the api with that one line on stderr and exit code 78", async () => {
    const result = await run(["api/main.ts"], childEnv({ APP_MODE: "production", PAYMENT_SANDBOX: "true", SESSION_SECRET: secret, SMTP_URL: smtp, API_PORT: "0" }));
    expect(result).toEqual({ code: configErrorExitCode, stdout: "", stderr: `${refusal}\n` });
  }, deadlineMs + 10_000);

  it("stops npm start on a configuration the api would refuse, also in demo mode, before starting anything (never a restart loop)", async () => {
    // --dev: no production build needed. npm start checks the whole configuration of both services first.
    const result = await run(["scripts/start.ts", "--dev"], childEnv({ APP_MODE: "demo", VAPID_PUBLIC_KEY: "BPublicKeyOnly", SESSION_SECRET: secret, API_PORT: "0", PORT: "5990", HOST: "127.0.0.1" }));
    expect(result.code).toBe(configErrorExitCode);
    expect(result.stderr).toContain("Invalid api configuration: VAPID_PUBLIC_KEY: VAPID_PUBLIC_KEY must be a base64url P-256 public key\n");
    expect(result.stdout).not.toContain("restarting api");
    expect(result.stdout).not.toContain("Rendezvous (");
  }, deadlineMs + 10_000);

  it("NODE_ENV=production npm start without settings refuses with one line per missing setting, before building or starting anything", async () => {
    const result = await run(["scripts/start.ts"], childEnv({ NODE_ENV: "production", API_PORT: "0", PORT: "5991" }));
    expect(result.code).toBe(configErrorExitCode);
    expect(result.stderr.trim().split("\n")).toEqual([
      "Invalid api configuration: SESSION_SECRET is required in production mode (32 or more random characters, e.g. from `openssl rand -base64 32`)",
      "Invalid api configuration: SMTP_URL is required in production mode (without it mails are only written to files in DATA_DIR/mail and never reach members)",
    ]);
    expect(result.stdout).not.toContain("building");
    expect(result.stdout).not.toContain("Rendezvous (");
  }, deadlineMs + 10_000);

  it("checks the payment settings with the rest of the configuration: a sandbox route, PAY.'s test mode, a provider without its keys and http provider URLs are refused in production mode, all at once", () => {
    expect(() =>
      loadApiConfig({ ...base, APP_MODE: "production", PAYMENT_ROUTES: "cards=sandbox,ideal=paynl", PAYNL_TEST_MODE: "true", VEROTEL_URL: "http://secure.verotel.example", PAYNL_API_URL: "http://connect.pay.example", PAYNL_REST_URL: "http://rest.pay.example" }),
    ).toThrow(
      [
        "Invalid api configuration: PAYMENT_ROUTES names sandbox, which production mode refuses",
        "Invalid api configuration: PAYMENT_ROUTES names paynl but PAYNL_SERVICE_ID, PAYNL_TOKEN_CODE or PAYNL_API_TOKEN is unset",
        "Invalid api configuration: PAYNL_TEST_MODE=true is refused in production mode (PAY.'s test orders would credit members without payment)",
        "Invalid api configuration: VEROTEL_URL must be an https:// address in production mode",
        "Invalid api configuration: PAYNL_API_URL must be an https:// address in production mode",
        "Invalid api configuration: PAYNL_REST_URL must be an https:// address in production mode",
      ].join("\n"),
    );
    // A demo may talk to a local test server over http.
    expect(loadApiConfig({ ...base, APP_MODE: "demo", VEROTEL_URL: "http://127.0.0.1:9999", PAYNL_API_URL: "http://127.0.0.1:9998" }).APP_MODE).toBe("demo");
  });

  it("npm start in production mode refuses a sandbox route before building or starting anything", async () => {
    const result = await run(["scripts/start.ts"], childEnv({ NODE_ENV: "production", SESSION_SECRET: secret, SMTP_URL: smtp, PAYMENT_ROUTES: "cards=sandbox", API_PORT: "0", PORT: "5992" }));
    expect(result.code).toBe(configErrorExitCode);
    expect(result.stderr.trim().split("\n")).toEqual(["Invalid api configuration: PAYMENT_ROUTES names sandbox, which production mode refuses"]);
    expect(result.stdout).not.toContain("building");
    expect(result.stdout).not.toContain("Rendezvous (");
  }, deadlineMs + 10_000);

  it("makes demo data only in demo mode, or in production mode when asked for by name", () => {
    expect(loadApiConfig({ ...base, APP_MODE: "demo" }).DEMO_DATA).toBe(true);
    expect(loadApiConfig({ ...base, APP_MODE: "production" }).DEMO_DATA).toBe(false);
    expect(loadApiConfig({ ...base, APP_MODE: "production", DEMO_DATA: "true" }).DEMO_DATA).toBe(true);
    expect(loadApiConfig({ ...base, APP_MODE: "demo", DEMO_DATA: "false" }).DEMO_DATA).toBe(false);
  });
});
