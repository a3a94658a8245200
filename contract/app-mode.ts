import { z } from "zod";

/**
 * The one mode both services run in (docs/security.md, Modes): `demo` lets the offline sandbox checkout,
 * where the payer picks the outcome, take payments; `production` refuses it. NODE_ENV cannot be the mode:
 * it says which build web runs, and a demo runs web's production build.
 */
export const AppMode = z.enum(["demo", "production"]);
export type AppMode = z.infer<typeof AppMode>;

/** APP_MODE; unset (or empty): production when NODE_ENV=production is set, else demo. Throws one line on another value. */
export function appModeOf(env: { APP_MODE?: string; NODE_ENV?: string }): AppMode {
  const value = env.APP_MODE || (env.NODE_ENV === "production" ? "production" : "demo");
  const parsed = AppMode.safeParse(value);
  if (!parsed.success) throw new Error(`APP_MODE must be demo or production, not ${JSON.stringify(value)}`);
  return parsed.data;
}

/**
 * The exit code of a service that refuses its configuration (EX_CONFIG of sysexits.h): scripts/start.ts
 * stops instead of restarting it, since a restart would only be refused again.
 */
export const configErrorExitCode = 78;
