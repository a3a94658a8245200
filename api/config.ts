import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { appModeOf, type AppMode } from "#contract/app-mode";
import { paymentMethodIds } from "#contract/payments";
import { productionHashCost, setPasswordHashCost } from "./domain/passwords";
import { parsePaymentRoutes } from "./services/payments";

const LogLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

const ApiEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  API_HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().url().optional(),
  /** Keys the HMAC of session tokens; generated and kept in DATA_DIR when unset outside production. */
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  LOG_LEVEL: LogLevel.default("info"),
  /** Express "trust proxy": web sits in front on loopback by default. */
  TRUST_PROXY: z.string().default("loopback"),
  /** Multiplies every client limit (api/http/limits.ts): 1 in production; test servers that sign up hundreds of members from one address raise it. */
  CLIENT_LIMIT_SCALE: z.coerce.number().min(1).max(100_000).default(1),
  /** Multiplies the periodic jobs' intervals (api/jobs/schedule.ts): 1 in production; the scale-out test shortens them. */
  JOB_INTERVAL_SCALE: z.coerce.number().min(0.0001).max(1).default(1),
  /** log2 of scrypt's N for new password hashes (api/domain/passwords.ts); never below 17 in production. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(17),
  /** Demo data in an empty database: on in demo mode; in production mode only when asked for by name (DEMO_DATA=true). */
  DEMO_DATA: optional(z.enum(["true", "false"])),
  /** smtp(s)://user:pass@host:port; unset: every mail is written as an .eml file under DATA_DIR/mail. */
  SMTP_URL: optional(z.string().url()),
  /** Sender address of every mail; unset: noreply@<site domain>. The display name is always the site's mail_name. */
  MAIL_FROM: optional(z.string().email()),
  /**
   * Origin of web for links in mails and payment returns, `{domain}` standing for the site's domain
   * (https://{domain}; https://dates.example for one site); unset: see publicUrlOf. Never a request's host.
   */
  PUBLIC_URL: optional(
    z
      .string()
      .transform((v) => v.replace(/\/+$/, ""))
      .refine(isOriginTemplate, "PUBLIC_URL must be an http(s) origin without a path, {domain} standing for the site's domain"),
  ),
  /** web's port (scripts/start.ts gives both services one environment): the port of links outside production. */
  PORT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(65535).default(3000)),
  /**
   * Web push (api/services/push.ts, docs/push.md). A site's own VAPID pair (sites table) always wins; a site
   * without one has no push unless PUSH_KEYLESS_SITES is on, and then uses the deployment pair: these two
   * (base64url raw P-256 keys, both or neither), else a pair generated once into DATA_DIR/vapid.json.
   */
  VAPID_PUBLIC_KEY: optional(z.string().regex(/^[A-Za-z0-9_-]{86,88}$/, "VAPID_PUBLIC_KEY must be a base64url P-256 public key")),
  VAPID_PRIVATE_KEY: optional(z.string().regex(/^[A-Za-z0-9_-]{40,44}$/, "VAPID_PRIVATE_KEY must be a base64url P-256 private key")),
  /** The contact the push services see (mailto: or https:); unset: mailto:<the site's support address>. */
  VAPID_SUBJECT: optional(z.string().regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "VAPID_SUBJECT must be a mailto: or https: URL")),
  /** Whether sites without their own VAPID pair offer push with the deployment pair; default: on when VAPID_PUBLIC_KEY is set. */
  PUSH_KEYLESS_SITES: optional(z.enum(["true", "false"]).transform((v) => v === "true")),
  /** web-push (default): send to the browser's push service; files: write each push as JSON under DATA_DIR/push (offline). */
  PUSH_DELIVERY: z.enum(["web-push", "files"]).default("web-push"),
  /** Which provider takes which payment method ("cards=verotel,sdd=verotel,ideal=paynl"); unset methods go to the sandbox (docs/payments.md). */
  PAYMENT_ROUTES: optional(z.string().regex(/^[a-z0-9=, ]*$/, "PAYMENT_ROUTES must look like cards=verotel,sdd=verotel")),
  /** Verotel FlexPay: the website's shop ID and FlexPay signature key (Control Center), and the brand's URL. */
  VEROTEL_SHOP_ID: optional(z.string().regex(/^\d{1,12}$/, "VEROTEL_SHOP_ID must be digits")),
  VEROTEL_SIGNATURE_KEY: optional(z.string().min(8)),
  VEROTEL_URL: z.string().url().default("https://secure.verotel.com"),
  /**
   * PAY. (pay.nl): the sales location, the API token code and token (my.pay.nl), the sales location's secret (exchanges
   * signed with the SL code), the Order and transaction API URLs, and PAY.'s test mode (refused in production mode).
   */
  PAYNL_SERVICE_ID: optional(z.string().regex(/^SL-\d{4}-\d{4}$/, "PAYNL_SERVICE_ID must look like SL-1234-5678")),
  PAYNL_TOKEN_CODE: optional(z.string().regex(/^AT-\d{4}-\d{4}$/, "PAYNL_TOKEN_CODE must look like AT-1234-5678")),
  PAYNL_API_TOKEN: optional(z.string().min(16)),
  PAYNL_SERVICE_SECRET: optional(z.string().min(16)),
  PAYNL_API_URL: z.string().url().default("https://connect.pay.nl"),
  PAYNL_REST_URL: z.string().url().default("https://rest.pay.nl"),
  PAYNL_TEST_MODE: optional(z.enum(["true", "false"])),
  /** Whether the offline sandbox provider takes payments in demo mode (unset: yes); production mode refuses "true". */
  PAYMENT_SANDBOX: optional(z.enum(["true", "false"])),
  /** Signs the sandbox provider's notifications; unset: derived from SESSION_SECRET. */
  SANDBOX_WEBHOOK_SECRET: optional(z.string().min(16)),
  /** Delays (ms) of each sandbox notification's deliveries: late and more than once, as real providers do. */
  SANDBOX_NOTIFY_DELAYS_MS: z
    .string()
    .regex(/^(\d{1,7}(,\d{1,7})*)?$/, "SANDBOX_NOTIFY_DELAYS_MS must be a list of milliseconds")
    .default("300,2500")
    .transform((v) => (v ? v.split(",").map(Number) : [])),
  /** Direct debit: where the SMS code goes (files: DATA_DIR/sms), MessageBird's key, sender and URL. */
  SMS_PROVIDER: z.enum(["files", "messagebird"]).default("files"),
  MESSAGEBIRD_ACCESS_KEY: optional(z.string().min(8)),
  SMS_ORIGINATOR: z.string().regex(/^(\+?\d{3,15}|[A-Za-z0-9 ]{1,11})$/, "SMS_ORIGINATOR must be a number or up to 11 letters and digits").default("Rendezvous"),
  MESSAGEBIRD_URL: z.string().url().default("https://rest.messagebird.com"),
  /** Direct debit limit per member: the sum (minor units) of their direct debits in 30 days, pending or paid. */
  DEBIT_LIMIT_30D: z.coerce.number().int().min(0).default(30_000),
  /** Encrypts IBANs (32 bytes, base64); unset: derived from SESSION_SECRET (docs/decisions/010-direct-debit-mandates.md). */
  IBAN_KEY: optional(z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "IBAN_KEY must be 32 bytes in base64")),
  /**
   * The shared secret of POST /api/mail-events.php (bounces and spam complaints from the mail provider,
   * sent as `Authorization: Bearer <secret>`); unset: the endpoint answers 404 (docs/notifications.md).
   */
  MAIL_EVENTS_SECRET: optional(z.string().min(24, "MAIL_EVENTS_SECRET must be at least 24 characters")),
  /** Notification mails: at most one mail per kind (message, like, match) per member in this many minutes. */
  NOTIFICATION_MAIL_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  /**
   * The bearer token of GET /metrics (Prometheus' text format, docs/operations.md Metrics); unset: the
   * endpoint answers 404. The same value as web's, so one scrape configuration reads both.
   */
  METRICS_TOKEN: optional(z.string().min(24, "METRICS_TOKEN must be at least 24 characters")),
  /** A sandbox payment left pending settles as paid after this many ms. */
  SANDBOX_PENDING_SETTLE_MS: z.coerce.number().int().min(0).max(86_400_000).default(5000),
});

/** An empty variable counts as unset, as in a .env file with `SMTP_URL=`. */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === "" ? undefined : v), schema.optional());
}

/** APP_MODE is resolved (contract/app-mode.ts): demo or production, never unset. */
export type ApiConfig = Omit<z.infer<typeof ApiEnv>, "SESSION_SECRET" | "PUBLIC_URL" | "DEMO_DATA"> & { SESSION_SECRET: string; PUBLIC_URL: string; APP_MODE: AppMode; DEMO_DATA: boolean };

/** "https://{domain}", "http://{domain}:3000", "https://dates.example": an http(s) origin, nothing after the host and port. */
function isOriginTemplate(value: string): boolean {
  return /^https?:\/\/[^/?#@\s\\]+$/.test(value) && URL.canParse(value.replaceAll("{domain}", "site.example"));
}

/**
 * The origin template of every link the api builds (docs/security.md "Links in mails"): PUBLIC_URL; unset,
 * https://{domain} in production mode, else http://{domain}:PORT (web on this machine, as `npm start` runs it).
 */
function publicUrlOf(config: z.infer<typeof ApiEnv>, mode: AppMode): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  return mode === "production" ? "https://{domain}" : `http://{domain}:${config.PORT}`;
}

/**
 * The api's configuration from the environment. Every refusal is one line of the thrown error, all of them at once
 * (an operator fixes them in one go): a malformed value, and in production mode what a live site must not run
 * without: a session secret of its own, a mail transport, and no payment sandbox.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const refuse = (lines: string[]): never => {
    throw new Error(lines.map((line) => `Invalid api configuration: ${line}`).join("\n"));
  };
  let mode: AppMode;
  try {
    mode = appModeOf(env);
  } catch (error) {
    return refuse([(error as Error).message]);
  }
  const parsed = ApiEnv.safeParse(env);
  if (!parsed.success) return refuse(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  const config = { ...parsed.data, APP_MODE: mode, PUBLIC_URL: publicUrlOf(parsed.data, mode), DEMO_DATA: parsed.data.DEMO_DATA === undefined ? mode === "demo" : parsed.data.DEMO_DATA === "true" };
  const problems: string[] = [];
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) problems.push("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together");
  problems.push(...paymentProblems(parsed.data, mode));
  if (mode === "production") problems.push(...productionProblems(config));
  if (problems.length) return refuse(problems);
  setPasswordHashCost(config.PASSWORD_HASH_COST);
  if (config.SESSION_SECRET) return { ...config, SESSION_SECRET: config.SESSION_SECRET };
  return { ...config, SESSION_SECRET: localSecret(config.DATA_DIR) };
}

/**
 * The payment providers' settings, checked here with the rest so `npm start` refuses them before it builds or starts
 * anything (docs/payments.md): every route names a provider whose keys are set; production mode takes no sandbox route,
 * no PAY. test mode, and talks to providers over https only.
 */
function paymentProblems(config: z.infer<typeof ApiEnv>, mode: AppMode): string[] {
  let routes: Record<string, string>;
  try {
    routes = parsePaymentRoutes(config.PAYMENT_ROUTES, paymentMethodIds);
  } catch (error) {
    return [(error as Error).message];
  }
  const named = new Set(Object.values(routes));
  const problems: string[] = [];
  if (mode === "production" && named.has("sandbox")) problems.push("PAYMENT_ROUTES names sandbox, which production mode refuses");
  if (named.has("verotel") && !(config.VEROTEL_SHOP_ID && config.VEROTEL_SIGNATURE_KEY)) problems.push("PAYMENT_ROUTES names verotel but VEROTEL_SHOP_ID or VEROTEL_SIGNATURE_KEY is unset");
  if (named.has("paynl") && !(config.PAYNL_SERVICE_ID && config.PAYNL_TOKEN_CODE && config.PAYNL_API_TOKEN)) {
    problems.push("PAYMENT_ROUTES names paynl but PAYNL_SERVICE_ID, PAYNL_TOKEN_CODE or PAYNL_API_TOKEN is unset");
  }
  if (mode !== "production") return problems;
  // A test order moves no money, yet in test mode it credits the member.
  if (config.PAYNL_TEST_MODE === "true") problems.push("PAYNL_TEST_MODE=true is refused in production mode (PAY.'s test orders would credit members without payment)");
  for (const name of ["VEROTEL_URL", "PAYNL_API_URL", "PAYNL_REST_URL", "MESSAGEBIRD_URL"] as const) {
    if (!config[name].startsWith("https://")) problems.push(`${name} must be an https:// address in production mode`);
  }
  return problems;
}

/** What production mode refuses, one line each (docs/security.md, Modes). */
function productionProblems(config: Omit<ApiConfig, "SESSION_SECRET"> & { SESSION_SECRET?: string }): string[] {
  const problems: string[] = [];
  // No default: outside production a secret is generated into DATA_DIR, which a second instance would not share.
  if (!config.SESSION_SECRET) problems.push("SESSION_SECRET is required in production mode (32 or more random characters, e.g. from `openssl rand -base64 32`)");
  if (config.PASSWORD_HASH_COST < productionHashCost) problems.push(`PASSWORD_HASH_COST must be at least ${productionHashCost} in production`);
  // The sandbox checkout lets a member mark their own payment paid: a production api never takes it (docs/payments.md).
  if (config.PAYMENT_SANDBOX === "true") {
    problems.push("PAYMENT_SANDBOX=true is refused in production mode (the sandbox checkout lets members mark their own payments paid; set APP_MODE=demo for a demo)");
  }
  if (!config.SMTP_URL) problems.push("SMTP_URL is required in production mode (without it mails are only written to files in DATA_DIR/mail and never reach members)");
  return problems;
}

function localSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
