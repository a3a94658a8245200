import type { RequestHandler } from "express";
import type { ServerBuild } from "@remix-run/node";
import { defaultLocale, locales } from "#contract/locales";
import { isStaffPath, splitLocale } from "../app/utils/paths";

/**
 * The locale prefix outside the route tree (docs/decisions/013-the-locale-prefix-as-basename.md): a page of another
 * language than English is the same route under `/<code>`, served by a request handler whose build has that prefix
 * as its basename. Remix matches the path after the basename, puts the basename into the page
 * (`window.__remixContext.basename`), so the browser's router matches the same way, and prefixes every `<Link>`,
 * `<Form>` and redirect of a loader or action with it. An unprefixed path (and `/en/...`, which the root loader
 * sends to the unprefixed address) goes to the handler without a basename.
 */
export function localeHandlers(handlerFor: (basename: string) => RequestHandler): RequestHandler {
  const unprefixed = handlerFor("/");
  const prefixed = new Map(locales.filter((locale) => locale !== defaultLocale).map((locale) => [locale, handlerFor(`/${locale}`)]));
  return (req, res, next) => {
    const { locale, path } = splitLocale(req.path);
    // The staff side has one address, without a language (its cookie is scoped to /staff).
    if (locale && isStaffPath(path) && (req.method === "GET" || req.method === "HEAD")) {
      const query = req.originalUrl.indexOf("?");
      return res.redirect(302, path + (query === -1 ? "" : req.originalUrl.slice(query)));
    }
    const handler = (locale && prefixed.get(locale)) || unprefixed;
    handler(req, res, next);
  };
}

const withBasenames = new WeakMap<ServerBuild, Map<string, ServerBuild>>();

/** The build with this basename ("/" or "/nl"); one object per build and basename. */
export function withBasename(build: ServerBuild, basename: string): ServerBuild {
  let byBasename = withBasenames.get(build);
  if (!byBasename) withBasenames.set(build, (byBasename = new Map()));
  let result = byBasename.get(basename);
  if (!result) byBasename.set(basename, (result = { ...build, basename }));
  return result;
}
