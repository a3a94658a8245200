import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type * as RouterNamespace from "@remix-run/router";
import type { AgnosticRouteObject } from "@remix-run/router";
import { cacheRouteMatching } from "../../server/route-match-cache";

const router = createRequire(import.meta.url)("@remix-run/router") as typeof RouterNamespace;

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
