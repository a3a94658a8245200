import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as reactI18next from "react-i18next";
import * as jotai from "jotai";
import * as browserI18n from "../../app/utils/i18n-browser";
import { StoreScope } from "../../app/utils/store-scope";
import { standInFor } from "../../server/patches/browser-stand-ins";

/**
 * Each module of server/patches/ stands in for, or reaches into, a package at the version checked here
 * (docs/decisions/027-*.md onward). An upgrade of that package fails this file: check the patch against the new
 * version (its ADR says what it relies on), then move the version here.
 */
const require = createRequire(import.meta.url);
const installedVersion = (name: string) => (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;

/** Every name app/ imports from a package, e.g. ["I18nextProvider", "useTranslation"] for react-i18next. */
function namesImportedFrom(pkg: string): string[] {
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts")) {
        const source = readFileSync(file, "utf8");
        for (const match of source.matchAll(new RegExp(`import\\s+(?:type\\s+)?\\{([^}]*)\\}\\s+from\\s+"${pkg}"`, "g"))) {
          for (const part of match[1]!.split(",")) {
            const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!;
            if (name && !part.trim().startsWith("type ")) names.add(name);
          }
        }
      }
    }
  };
  visit(path.resolve("app"));
  return [...names].sort();
}

describe("server/patches/browser-stand-ins.ts", () => {
  it("stands in for the react-i18next and jotai versions it was checked against", () => {
    expect(installedVersion("react-i18next")).toBe("15.7.4");
    expect(installedVersion("jotai")).toBe("2.20.3");
    expect(Object.keys(standInFor).sort()).toEqual(["./utils/store-scope", "react-i18next"]);
  });

  it("exports, as functions, every name app/ imports from react-i18next, and so does react-i18next", () => {
    const names = namesImportedFrom("react-i18next");
    expect(names).toContain("useTranslation");
    for (const name of names) {
      expect(typeof (browserI18n as Record<string, unknown>)[name], `the stand-in's ${name}`).toBe("function");
      expect(typeof (reactI18next as Record<string, unknown>)[name], `react-i18next's ${name}`).toBe("function");
    }
  });

  it("swaps the store scope whose server side is jotai's Provider", () => {
    expect(StoreScope).toBe(jotai.Provider);
    expect(typeof jotai.Provider).toBe("function");
  });
});

describe("server/patches/route-matching.ts", () => {
  it("replaces exports of the @remix-run/router version, read at call time by the @remix-run/server-runtime version, it was checked against", () => {
    expect(installedVersion("@remix-run/router")).toBe("1.23.3");
    expect(installedVersion("@remix-run/server-runtime")).toBe("2.17.5");
    const router = require("@remix-run/router") as Record<string, unknown>;
    for (const name of ["matchRoutes", "createStaticHandler"]) {
      // A plain, writable property of the CommonJS module object: what the patch replaces.
      const property = Object.getOwnPropertyDescriptor(router, name);
      expect(property?.writable, name).toBe(true);
      expect(typeof property?.value, name).toBe("function");
    }
    // Remix's server runtime looks both up on the module object when it calls them, so it gets the replacements.
    const runtime = path.dirname(require.resolve("@remix-run/server-runtime/package.json"));
    expect(readFileSync(path.join(runtime, "dist/routeMatching.js"), "utf8")).toContain("router.matchRoutes(routes, pathname, basename)");
    expect(readFileSync(path.join(runtime, "dist/server.js"), "utf8")).toContain("router.createStaticHandler(dataRoutes, {");
  });
});

describe("server/patches/zod-jitless.ts", () => {
  it("writes the global object in which the zod version it was checked against keeps z.config's settings", async () => {
    expect(installedVersion("zod")).toBe("4.6.7");
    const { z } = await import("zod");
    const global = globalThis as typeof globalThis & { __zod_globalConfig?: Record<string, unknown> };
    // z.config() answers the settings object, which zod keeps on globalThis (and adopts when the page set it first).
    expect(z.config()).toBe(global.__zod_globalConfig);
    const before = global.__zod_globalConfig?.jitless;
    try {
      z.config({ jitless: true });
      expect(global.__zod_globalConfig?.jitless).toBe(true);
    } finally {
      z.config({ jitless: before as boolean | undefined });
    }
  });
});

describe("api/db/named-statements.ts", () => {
  it("overrides query on its own subclass of the pg Client version it was checked against, which pg's pool takes", async () => {
    expect(installedVersion("pg")).toBe("8.23.1");
    const pg = (await import("pg")).default;
    const { NamedStatementClient } = await import("../../api/db/named-statements");
    // pg's own Client keeps its query; the pool is given the subclass through its documented `Client` option.
    expect(Object.getPrototypeOf(NamedStatementClient.prototype)).toBe(pg.Client.prototype);
    expect(NamedStatementClient.prototype.query).not.toBe(pg.Client.prototype.query);
    expect(Object.prototype.hasOwnProperty.call(pg.Client.prototype, "query")).toBe(true);
    const pool = new pg.Pool({ Client: NamedStatementClient });
    expect((pool as unknown as { Client: unknown }).Client).toBe(NamedStatementClient);
    await pool.end();
  });
});
