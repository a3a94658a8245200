/**
 * zod 4 compiles object parsers with `new Function` when it can, and finds out whether it can by trying once, which
 * the site's Content-Security-Policy (no 'unsafe-eval', server/app.ts) refuses and the browser reports as a CSP
 * violation on every page with a form. With `jitless` zod never tries (node_modules/zod/v4/core/util.js `allowsEval`
 * skips its probe) and parses without compiling.
 *
 * zod decides when an object schema is made, at module evaluation: app/root.tsx imports this module first, so it
 * runs before any module of the page defines a schema. zod keeps its settings in `globalThis.__zod_globalConfig`
 * and adopts an object already there (node_modules/zod/v4/core/core.js), so this sets it without importing zod.
 * zod's documented `z.config({ jitless: true })` from zod/v4/core brought 24 KB gzip of zod into every page's first
 * load (docs/decisions/029-zod-jitless-through-its-global-config.md); this way zod loads only with the parts that
 * parse in the browser. tests/unit/patches.test.ts pins the zod version and checks that z.config still reads and
 * writes that object. The server keeps the compiled parsers: it has no CSP to meet.
 */
type ZodGlobal = typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };

if (typeof document !== "undefined") {
  const global = globalThis as ZodGlobal;
  global.__zod_globalConfig = { ...global.__zod_globalConfig, jitless: true };
}
