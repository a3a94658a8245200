import { expect, projectRoot, test } from "./fixtures";
import { firstLoadBudgetOf, routeFirstLoads } from "../../bench/route-budgets";

/**
 * Page budgets (docs/testing.md, ADR 014, docs/performance-history.md): every page loads at most 100 kB of JavaScript (gzip) before it is
 * interactive. Read from the production build the suite runs (its Remix manifest), so every route is held to it, a
 * route added later too. Runs once: it needs no browser.
 */
test("every route's first-load JavaScript is at most 100 kB gzip", async () => {
  const routes = routeFirstLoads(projectRoot);
  expect(routes.length, "routes in the build's manifest").toBeGreaterThan(50);
  const size = (r: { gzip: number; files: number }) => `${(r.gzip / 1024).toFixed(1)} kB in ${r.files} files`;
  expect(routes.filter((r) => r.gzip > firstLoadBudgetOf(r.route)).map((r) => `${r.route}: ${size(r)} (budget ${(firstLoadBudgetOf(r.route) / 1024).toFixed(1)} kB)`), "over budget (ADR 014, ADR 031)").toEqual([]);
});
