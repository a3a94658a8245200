import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type * as RouterNamespace from "@remix-run/router";
import type { AgnosticRouteObject } from "@remix-run/router";
import { cacheRouteMatching } from "../../server/route-match-cache";

const router = createRequire(import.meta.url)("@remix-run/router") as typeof RouterNamespace;

/** A tree shaped like the app's: every route under an optional locale segment, with an index, params and a splat. */
function tree(): AgnosticRouteObject[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "index", path: ":lang?", index: false, children: [] },
        { id: "members", path: ":lang?/members", children: [{ id: "members-index", index: true }] },
        { id: "member", path: ":lang?/members/:id" },
        { id: "likes", path: ":lang?/likes/:type" },
        { id: "splat", path: ":lang?/*" },
      ],
    },
  ];
}

const paths = ["/", "/members", "/de/members", "/members/12", "/nl/members/7", "/likes/sent", "/fr/likes/received", "/nope/deeper/still", "/members/12?x=1"];

function plain(matches: ReturnType<typeof router.matchRoutes>) {
  return matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase })) ?? null;
}

describe("cacheRouteMatching", () => {
  it("answers as matchRoutes does, for a tree asked again and for an equal tree built afresh", () => {
    const original = router.matchRoutes;
    const expected = paths.map((path) => plain(original(tree(), path)));
    cacheRouteMatching();
    expect(router.matchRoutes).not.toBe(original);
    const stable = tree();
    for (let round = 0; round < 3; round++) {
      const fresh = tree();
      paths.forEach((path, i) => {
        expect(plain(router.matchRoutes(stable, path))).toEqual(expected[i]);
        const matches = router.matchRoutes(fresh, { pathname: path.split("?")[0] });
        expect(plain(matches)).toEqual(expected[i]);
        // The route objects are those of the tree asked about, and params are not shared between calls.
        const objects = new Set<AgnosticRouteObject>();
        const collect = (list: AgnosticRouteObject[]) => list.forEach((route) => (objects.add(route), collect(route.children ?? [])));
        collect(fresh);
        for (const match of matches ?? []) expect(objects.has(match.route)).toBe(true);
        if (matches?.[0]) (matches[0].params as Record<string, string>).lang = "changed";
      });
    }
    expect(plain(router.matchRoutes(stable, "/de/members"))).toEqual(expected[2]);
  });
});
