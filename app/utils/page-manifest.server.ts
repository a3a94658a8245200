import { createRequire } from "node:module";
import type * as RouterNamespace from "@remix-run/router";
import type { AgnosticRouteObject } from "@remix-run/router";
import type { EntryContext } from "@remix-run/node";

type Manifest = EntryContext["manifest"];
type ManifestRoutes = Manifest["routes"];

// Read from the module object at call time, so that a page gets the cached matching web installs at start
// (server/route-match-cache.ts) rather than the copy an import binding would hold.
const router = createRequire(import.meta.url)("@remix-run/router") as typeof RouterNamespace;

/** A build's routes as a tree, made once per manifest: what matchRoutes takes. */
const trees = new WeakMap<ManifestRoutes, AgnosticRouteObject[]>();

function treeOf(routes: ManifestRoutes): AgnosticRouteObject[] {
  let tree = trees.get(routes);
  if (tree) return tree;
  const children = new Map<string, AgnosticRouteObject[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const siblings = children.get(route.parentId ?? "") ?? [];
    siblings.push({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive } as AgnosticRouteObject);
    children.set(route.parentId ?? "", siblings);
  }
  const attach = (list: AgnosticRouteObject[]): AgnosticRouteObject[] =>
    list.map((route) => {
      const below = children.get(route.id!);
      return below ? ({ ...route, children: attach(below) } as AgnosticRouteObject) : route;
    });
  tree = attach(children.get("") ?? []);
  trees.set(routes, tree);
  return tree;
}

/**
 * The manifest <RemixServer> is given for one page: the routes it renders and those <Scripts> sends the browser
 * for route discovery, instead of all of the build's.
 *
 * <RemixServer> turns every route of the manifest into a route object and a data route on every render
 * (createServerRoutes, createStaticRouter), about a hundred here, though a page renders two or three; that was
 * about 4% of web's CPU on a logged-in /members (docs/performance-history.md). The page needs only:
 * - its matches, which the static handler found on the whole tree before the render;
 * - what <Scripts> puts in the browser's first manifest (@remix-run/react's getPartialManifest): the matches and the
 *   routes matching each parent path of the page ("/" and "/members" for "/members/5"). Matched on a subset that holds
 *   them, those paths find the same routes, so <Scripts> sends what it sent with the whole manifest.
 * The browser discovers every other route as before (lazy route discovery, /__manifest).
 */
export function pageManifest(context: EntryContext): Manifest {
  const { manifest, staticHandlerContext } = context;
  const ids = new Set(staticHandlerContext.matches.map((match) => match.route.id));
  const segments = staticHandlerContext.location.pathname.split("/").filter(Boolean);
  segments.pop();
  const tree = treeOf(manifest.routes);
  for (let depth = 0; depth <= segments.length; depth++) {
    const path = `/${segments.slice(0, depth).join("/")}`;
    for (const match of router.matchRoutes(tree, path, staticHandlerContext.basename) ?? []) ids.add(match.route.id!);
  }
  const routes: ManifestRoutes = {};
  for (const id of ids) {
    // A route's ancestors come with it: createServerRoutes builds the tree from the root down.
    for (let route = manifest.routes[id]; route && !routes[route.id]; route = route.parentId ? manifest.routes[route.parentId] : undefined) {
      routes[route.id] = route;
    }
  }
  return { ...manifest, routes };
}
