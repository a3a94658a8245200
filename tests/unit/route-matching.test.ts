import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type * as RouterNamespace from "@remix-run/router";
import type { AgnosticRouteObject } from "@remix-run/router";
import { cacheRouteMatching } from "../../server/patches/route-matching";

const router = createRequire(import.meta.url)("@remix-run/router") as typeof RouterNamespace;
/** The router's own, before cacheRouteMatching replaces it. */
const originalCreateStaticHandler = router.createStaticHandler;

/** A tree shaped like the app's: an index, params, an optional segment and a splat; asked with and without a basename (ADR 013). */
function tree(): AgnosticRouteObject[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "index", index: true },
        { id: "members", path: "members", children: [{ id: "members-index", index: true }] },
        { id: "member", path: "members/:id" },
        { id: "likes", path: "likes/:type" },
        { id: "lander", path: "landers/gallery/:slug?" },
        { id: "splat", path: "*" },
      ],
    },
  ];
}

const paths: [string, string][] = [
  ["/", "/"],
  ["/members", "/"],
  ["/de/members", "/de"],
  ["/members/12", "/"],
  ["/nl/members/7", "/nl"],
  ["/likes/sent", "/"],
  ["/fr/likes/received", "/fr"],
  ["/landers/gallery", "/"],
  ["/nl/landers/gallery/milf", "/nl"],
  ["/nope/deeper/still", "/"],
  ["/members/12?x=1", "/"],
  // The same path under another basename is another answer.
  ["/de/members", "/"],
];

function plain(matches: ReturnType<typeof router.matchRoutes>) {
  return matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase })) ?? null;
}

describe("cacheRouteMatching", () => {
  it("answers as matchRoutes does, for a tree asked again and for an equal tree built afresh", () => {
    const original = router.matchRoutes;
    const expected = paths.map(([path, basename]) => plain(original(tree(), path, basename)));
    cacheRouteMatching();
    expect(router.matchRoutes).not.toBe(original);
    const stable = tree();
    for (let round = 0; round < 3; round++) {
      const fresh = tree();
      paths.forEach(([path, basename], i) => {
        expect(plain(router.matchRoutes(stable, path, basename))).toEqual(expected[i]);
        const matches = router.matchRoutes(fresh, { pathname: path.split("?")[0] }, basename);
        expect(plain(matches)).toEqual(expected[i]);
        // The route objects are those of the tree asked about, and params are not shared between calls.
        const objects = new Set<AgnosticRouteObject>();
        const collect = (list: AgnosticRouteObject[]) => list.forEach((route) => (objects.add(route), collect(route.children ?? [])));
        collect(fresh);
        for (const match of matches ?? []) expect(objects.has(match.route)).toBe(true);
        if (matches?.[0]) (matches[0].params as Record<string, string>).id = "changed";
      });
    }
    expect(plain(router.matchRoutes(stable, "/de/members", "/de"))).toEqual(expected[2]);
    expect(expected[2]).not.toEqual(expected[paths.length - 1]);
  });
});

/** The tree with loaders and actions that say which route answered, as a static handler's query reports them. */
function dataTree(): AgnosticRouteObject[] {
  const named = (route: AgnosticRouteObject): AgnosticRouteObject => {
    const id = route.id as string;
    return {
      ...route,
      loader: ({ params }) => ({ loader: id, params }),
      action: () => ({ action: id }),
      hasErrorBoundary: id === "root",
      children: route.children?.map(named),
    } as AgnosticRouteObject;
  };
  return tree().map(named);
}

describe("the static handler of a matched branch", () => {
  it("answers every query as the whole tree's handler does: loader data, the action of an index or its layout, 404", async () => {
    cacheRouteMatching();
    const original = originalCreateStaticHandler;
    expect(router.createStaticHandler).not.toBe(original);
    const requests: [string, RequestInit?][] = [
      ["/"],
      ["/members"],
      ["/members/12"],
      ["/likes/sent?x=1"],
      ["/landers/gallery/milf"],
      ["/nope/deeper"],
      ["/members?index", { method: "POST", body: "a=1" }],
      ["/members", { method: "POST", body: "a=1" }],
      ["/members/12", { method: "POST", body: "a=1" }],
    ];
    const summary = (context: Awaited<ReturnType<ReturnType<typeof original>["query"]>>) =>
      context instanceof Response
        ? { response: context.status }
        : { status: context.statusCode, matches: context.matches.map((m) => m.route.id), loaderData: context.loaderData, actionData: context.actionData, errors: context.errors && Object.keys(context.errors) };
    for (const basename of ["/", "/de"]) {
      const whole = original(dataTree(), { basename });
      const branches = router.createStaticHandler(dataTree(), { basename });
      for (const [path, init] of requests) {
        const url = `http://localhost${basename === "/" ? "" : basename}${path}`;
        const expected = summary(await whole.query(new Request(url, init)));
        // Twice: a branch's handler is made on the first query and kept.
        for (let round = 0; round < 2; round++) expect(summary(await branches.query(new Request(url, init))), `${basename} ${init?.method ?? "GET"} ${path}`).toEqual(expected);
      }
    }
  });
});
