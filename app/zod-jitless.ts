import { config } from "zod/v4/core";

/**
 * Issue 29: zod 4 compiles object parsers with `new Function` when it can, and finds out whether it can by
 * trying once, which the site's Content-Security-Policy (no 'unsafe-eval', server/app.ts) refuses
 * and the browser reports as a CSP violation on every page with a form. With `jitless` zod never tries
 * (node_modules/zod/v4/core/util.js `allowsEval` skips its probe) and parses without compiling.
 *
 * zod decides when an object schema is made, at module evaluation: app/root.tsx imports this module first, so it
 * runs before any module of the page defines a schema (root is the first route module the page imports). The
 * setting is global (`globalThis.__zod_globalConfig`), so it holds for every copy of zod. The server keeps the
 * compiled parsers: it has no CSP to meet.
 */
if (typeof document !== "undefined") config({ jitless: true });
