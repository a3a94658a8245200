import { createRequire } from "node:module";
import type * as RouterNamespace from "@remix-run/router";
import type { AgnosticRouteMatch, AgnosticRouteObject, Location } from "@remix-run/router";

type RouterModule = typeof RouterNamespace;
type MatchRoutes = RouterModule["matchRoutes"];
type CreateStaticHandler = RouterModule["createStaticHandler"];
type StaticHandler = ReturnType<CreateStaticHandler>;
type Matches = AgnosticRouteMatch<string, AgnosticRouteObject>[];

/** Distinct paths remembered per route tree; the least recently used is dropped beyond it. */
const maxPathsPerTree = 2000;

type Tree = { key: string; byId: Map<string, AgnosticRouteObject> };
type Remembered = { params: Record<string, string | undefined>; matches: { id: string; pathname: string; pathnameBase: string }[] } | null;

/**
 * Remix asks @remix-run/router's matchRoutes for the same path four times per page (request handler,
 * static handler, <RemixServer>'s routes, <Scripts>' route discovery), and matchRoutes flattens and
 * ranks the whole route tree and compiles the patterns it tries on every call: with the locale prefix
 * outside the tree (ADR 013) that still measured 2.2 ms of web's 14 ms per /members page. A build's route
 * tree does not change, so neither does the answer for a path: this remembers, per tree (its route ids
 * and paths), basename and path, which routes matched (a bounded LRU), and answers with the route objects
 * of the tree it is asked about (Remix builds the tree for rendering afresh per request) and fresh params
 * objects. The module's export is replaced, which those callers read at call time
 * (`router.matchRoutes(...)`); the static handler's own call inside the module is not reached (the patch
 * that reached it is gone, ADR 013). Production only (a dev server's routes change): call once at start.
 *
 * The one module that replaces exports of @remix-run/router (docs/decisions/028-remembered-route-matching.md: without
 * it web spent 1.39 times the CPU a page). tests/unit/patches.test.ts pins the versions of @remix-run/router and
 * @remix-run/server-runtime it was checked against and how the latter calls the two functions;
 * tests/unit/route-matching.test.ts holds its answers to the router's own.
 */
export function cacheRouteMatching(): void {
  const require = createRequire(import.meta.url);
  const router = require("@remix-run/router") as RouterModule & { matchRoutes: MatchRoutes & { cached?: true }; createStaticHandler: CreateStaticHandler };
  if (router.matchRoutes.cached) return;
  const original = router.matchRoutes;
  const trees = new WeakMap<object, Tree | null>();
  const answers = new Map<string, Map<string, Remembered>>();

  /** The tree's fingerprint and routes by id; null when a route has no id (then nothing is cached). */
  const treeOf = (routes: AgnosticRouteObject[]): Tree | null => {
    let tree = trees.get(routes);
    if (tree !== undefined) return tree;
    const byId = new Map<string, AgnosticRouteObject>();
    let key = "";
    let complete = true;
    const visit = (list: AgnosticRouteObject[]) => {
      key += "[";
      for (const route of list) {
        if (typeof route.id !== "string") complete = false;
        else byId.set(route.id, route);
        key += `${route.id}\u0001${route.path ?? ""}\u0001${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}`;
        if (route.children) visit(route.children);
        key += ",";
      }
      key += "]";
    };
    visit(routes);
    tree = complete ? { key, byId } : null;
    trees.set(routes, tree);
    return tree;
  };

  const cached = ((routes: AgnosticRouteObject[], locationArg: Partial<Location> | string, basename = "/") => {
    const tree = treeOf(routes);
    if (!tree) return original(routes, locationArg, basename);
    const pathname = typeof locationArg === "string" ? (router.parsePath(locationArg).pathname ?? "/") : (locationArg.pathname ?? "/");
    let paths = answers.get(tree.key);
    if (!paths) {
      paths = new Map();
      answers.set(tree.key, paths);
    }
    const key = `${basename}\u0000${pathname}`;
    let remembered = paths.get(key);
    if (remembered === undefined) {
      const matches = original(routes, pathname, basename) as Matches | null;
      remembered = matches && {
        params: { ...matches[matches.length - 1]?.params },
        matches: matches.map((m) => ({ id: m.route.id as string, pathname: m.pathname, pathnameBase: m.pathnameBase })),
      };
      if (paths.size >= maxPathsPerTree) paths.delete(paths.keys().next().value!);
    } else {
      paths.delete(key);
    }
    paths.set(key, remembered);
    if (!remembered) return null;
    // As matchRoutes does: one params object shared by the matches of a path (a fresh one per call).
    const params = { ...remembered.params };
    return remembered.matches.map((m) => ({ params, pathname: m.pathname, pathnameBase: m.pathnameBase, route: tree.byId.get(m.id)! }));
  }) as MatchRoutes & { cached?: true };
  cached.cached = true;
  router.matchRoutes = cached;
  router.createStaticHandler = branchStaticHandlers(router.createStaticHandler, cached);
}

/** The routes of one matched branch: each route on it with its children cut down to the next one on it. */
function pruned(routes: AgnosticRouteObject[], ids: string[], depth = 0): AgnosticRouteObject[] {
  return routes
    .filter((route) => route.id === ids[depth])
    .map((route) => ({ ...route, children: route.children ? pruned(route.children, ids, depth + 1) : undefined }) as AgnosticRouteObject);
}

/** Distinct branches remembered per handler: a build has as many as it has leaf routes. */
const maxBranches = 500;

/**
 * The static handler's query (every page and every data request) matches the path against the whole tree with the
 * router's own matchRoutes, which the export above cannot reach: flattening and ranking about 70 routes took 1.8 ms of
 * web's 17.5 ms CPU per /members page (bench/profile.ts). The handler Remix creates answers a query with a handler made
 * for the matched branch alone (the remembered match above; made once per branch), which finds the same matches in a
 * tree of two or three routes. No match goes to the whole tree's handler as before.
 */
function branchStaticHandlers(original: CreateStaticHandler, match: MatchRoutes): CreateStaticHandler {
  return (routes, options) => {
    const whole = original(routes, options);
    const branches = new Map<string, StaticHandler>();
    const query: StaticHandler["query"] = (request, queryOptions) => {
      const matches = match(routes, new URL(request.url).pathname, options?.basename);
      const ids = matches?.map((m) => m.route.id);
      if (!ids?.length || ids.some((id) => typeof id !== "string")) return whole.query(request, queryOptions);
      const key = ids.join("\u0000");
      let handler = branches.get(key);
      if (!handler) {
        if (branches.size >= maxBranches) return whole.query(request, queryOptions);
        handler = original(pruned(routes, ids as string[]), options);
        branches.set(key, handler);
      }
      return handler.query(request, queryOptions);
    };
    return { dataRoutes: whole.dataRoutes, query, queryRoute: whole.queryRoute };
  };
}
