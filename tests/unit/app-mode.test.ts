import { describe, expect, it } from "vitest";
import { appModeOf } from "#contract/app-mode";
import { loadWebConfig as loadWebConfigOf } from "../../server/config";
import { serviceEnvs } from "../../scripts/start-env";

/** One mode: `npm start` runs api and web in one mode (docs/security.md, Modes). */
describe("the mode npm start gives both services", () => {
  const start = (env: Record<string, string>, dev = false) => serviceEnvs(env, { dev, apiPort: "3001" });

  it("is demo by default, for the api as for web, with the production build", () => {
    const { mode, api, web } = start({});
    expect(mode).toBe("demo");
    expect(api).toEqual({ APP_MODE: "demo", NODE_ENV: "production", API_PORT: "3001", API_HOST: "127.0.0.1" });
    expect(web).toEqual({ APP_MODE: "demo", NODE_ENV: "production", API_URL: "http://127.0.0.1:3001" });
  });

  it("is production for both with APP_MODE=production, or with NODE_ENV=production and no APP_MODE", () => {
    for (const env of [{ APP_MODE: "production" }, { NODE_ENV: "production" }, { APP_MODE: "production", NODE_ENV: "development" }] as Record<string, string>[]) {
      const { api, web } = start(env);
      expect([api.APP_MODE, web.APP_MODE], JSON.stringify(env)).toEqual(["production", "production"]);
    }
  });

  it("keeps an explicit demo when NODE_ENV=production is inherited, and gives both the dev build with --dev", () => {
    const inherited = start({ APP_MODE: "demo", NODE_ENV: "production" });
    expect([inherited.api.APP_MODE, inherited.web.APP_MODE]).toEqual(["demo", "demo"]);
    const dev = start({}, true);
    expect([dev.api.NODE_ENV, dev.web.NODE_ENV, dev.api.APP_MODE, dev.web.APP_MODE]).toEqual(["development", "development", "demo", "demo"]);
  });

  it("refuses another mode with one line", () => {
    expect(() => start({ APP_MODE: "staging" })).toThrow(/^APP_MODE must be demo or production, not "staging"$/);
  });
});

describe("web's mode", () => {
  const loadWebConfig = (env: Record<string, string>) => loadWebConfigOf(env as NodeJS.ProcessEnv);
  it("is read as the api reads it: NODE_ENV=production alone is the production build of a demo only with APP_MODE=demo", () => {
    expect(loadWebConfig({}).APP_MODE).toBe("demo");
    expect(loadWebConfig({}).NODE_ENV).toBe("production");
    expect(loadWebConfig({ NODE_ENV: "production" }).APP_MODE).toBe("production");
    expect(loadWebConfig({ NODE_ENV: "production", APP_MODE: "demo" }).APP_MODE).toBe("demo");
    expect(() => loadWebConfig({ APP_MODE: "Production" })).toThrow(/^Invalid web configuration: APP_MODE must be demo or production, not "Production"$/);
    expect(appModeOf({ APP_MODE: "", NODE_ENV: "test" })).toBe("demo");
  });
});
