import { z } from "zod";
import { appModeOf, type AppMode } from "#contract/app-mode";
import { parseApiUrls } from "./api-instances";

const WebEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** The api: one URL, or several separated by commas (instances taken in turn, server/api-instances.ts). */
  API_URL: z
    .string()
    .default("http://127.0.0.1:3001")
    .transform((value, ctx) => {
      try {
        return parseApiUrls(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `must be one URL or several separated by commas: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Express "trust proxy": set it to the load balancer in front of web; unset, the connection's address is the client's. */
  TRUST_PROXY: z.string().default("false"),
  /** Seconds a site's settings are reused per domain before asking the api again. */
  SETTINGS_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  /**
   * docs/product.md §9 user refetch when the live stream cannot be used: every 60 s (300 s with push). Tests shorten it;
   * unset, the constants of docs/product.md §9 apply.
   */
  USER_REFETCH_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
  /** The bearer token of GET /metrics (docs/operations.md, Metrics), as the api's; unset (or empty): 404. */
  METRICS_TOKEN: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(24, "METRICS_TOKEN must be at least 24 characters").optional()),
});
/** APP_MODE is resolved as the api resolves it (contract/app-mode.ts): NODE_ENV here only picks the build. */
export type WebConfig = z.infer<typeof WebEnv> & { APP_MODE: AppMode };

export function loadWebConfig(env: NodeJS.ProcessEnv = process.env): WebConfig {
  const parsed = WebEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid web configuration: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  try {
    return { ...parsed.data, APP_MODE: appModeOf(env) };
  } catch (error) {
    throw new Error(`Invalid web configuration: ${(error as Error).message}`);
  }
}

export function trustProxyValue(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
