import { appModeOf, type AppMode } from "#contract/app-mode";

/**
 * What scripts/start.ts gives each service on top of its own environment: one APP_MODE and one NODE_ENV for
 * both (the mode decides whether the sandbox checkout may take payments, docs/security.md). The mode is
 * APP_MODE, else production when NODE_ENV=production is set, else demo; a bad APP_MODE throws one line.
 */
export function serviceEnvs(env: Record<string, string | undefined>, options: { dev: boolean; apiPort: string }): { mode: AppMode; api: Record<string, string>; web: Record<string, string> } {
  const mode = appModeOf(env);
  // web needs NODE_ENV=production for its production build, in a demo too; the api reads the mode, not NODE_ENV.
  const shared = { APP_MODE: mode, NODE_ENV: options.dev ? "development" : "production" };
  return {
    mode,
    api: { ...shared, API_PORT: options.apiPort, API_HOST: "127.0.0.1" },
    web: { ...shared, API_URL: env.API_URL ?? `http://127.0.0.1:${options.apiPort}` },
  };
}

/**
 * Node's flags for web and the api (`npm start`, `npm run start:web`/`start:api` in package.json, and the bench): a young
 * generation of up to 64 MB a semi-space instead of V8's 16 MB. A page's objects (its api answers, the React tree, the
 * HTML) live from its request to its answer; with 50 pages at once they outlived the small young generation's
 * scavenges and were copied, then promoted and collected again by the full GC. Measured on PostgreSQL
 * (bench/profile.ts /members, 50 connections, docs/performance-history.md): web 26.8 → 22.0 ms of CPU a page, the api
 * 15.6 → 11.8 ms, at the cost of up to ~190 MB more memory per process under load.
 */
export const serviceNodeFlags = ["--max-semi-space-size=64"];
