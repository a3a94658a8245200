import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, expectPath, test, sameOrigin } from "./fixtures";
import { newAccountDetails } from "./accounts-support";
import { chromiumArgs, findFullChromium } from "../../scripts/chromium";

/**
 * Signup step 1 (docs/product.md §2 "optional push"): offered on a site with a push key (the demo niche sites;
 * the default site has none and starts at step 2). The browser is the only one that can subscribe,
 * so without JavaScript the step says so and is skipped; with it, a refused permission or a push
 * service that cannot be reached (this machine is offline) gives a clear message and the way on.
 */
/** Signs up through the signup page of the page's site (Node cannot resolve she.localhost; Chromium can). */
async function signUpHere(page: Page): Promise<void> {
  const account = newAccountDetails();
  await page.goto("/signup");
  await page.getByLabel("E-mail address").fill(account.email);
  await page.getByLabel("Username").fill(account.name);
  await page.getByLabel("Date of birth", { exact: true }).fill("1991-04-12");
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
}

// The full browser: the headless shell the other tests use has no PushManager, so it would get the "cannot" state.
test.use({ launchOptions: { executablePath: findFullChromium() ?? "/usr/bin/chromium", args: chromiumArgs } });

test.describe("signup push step", () => {
  test.use({ baseURL: `http://she.localhost:${process.env.E2E_PORT ?? 4100}`, serviceWorkers: "allow" });

  test("a new member of a site with push gets the step, can skip it, and the states are explained", { tag: "@nojs" }, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "" }]);
    await signUpHere(page);
    await expectPath(page, "/signup/1");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Never miss a message");
    const step = page.getByTestId("push-step");
    if (test.info().project.use.javaScriptEnabled) {
      // The default site has no push key, so accessibility.spec.ts cannot audit this page: axe does it here.
      const audit = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
      // Permission not granted: the browser refuses, and the step says how to allow it later.
      await page.getByRole("button", { name: "Turn on notifications" }).click();
      await expect(step).toHaveAttribute("data-state", /^(denied|failed)$/);
      await expect(step.getByRole("alert")).toBeVisible();
    } else {
      await expect(step).toContainText("Notifications need JavaScript in your browser.");
      await expect(page.getByRole("button", { name: "Turn on notifications" })).toHaveCount(0);
    }
    await page.getByTestId("skip-step").click();
    await expectPath(page, "/signup/2");
  });

  test.describe("without a push service", () => {
    test.use({ expectedConsoleErrors: { "Chromium's test contexts are incognito, where it has no push service: the failure this test is about": /does not support the Push API in incognito mode/ } });

    test("granted permission without a reachable push service fails clearly", async ({ page, context, baseURL }) => {
      await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "" }]);
      await context.grantPermissions(["notifications"], { origin: baseURL });
      await signUpHere(page);
      await expectPath(page, "/signup/1");
      await page.getByRole("button", { name: "Turn on notifications" }).click();
      const step = page.getByTestId("push-step");
      // The service worker registers (same origin, allowed by the CSP); the subscription itself needs the browser's push service.
      await expect(step).toHaveAttribute("data-state", "failed", { timeout: 20_000 });
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.scriptURL ?? null)).toMatch(/\/sw-push\.js$/);
    });
  });
});

test("the default site has no push key: the push step is no page there", async ({ page }) => {
  const { email, name, password } = newAccountDetails();
  const created = await page.request.post("/api/signup.php", { headers: sameOrigin, data: { email, name, password, date_of_birth: "1990-05-17", gender: "male", language: "en" } });
  expect(created.status()).toBe(201);
  const response = await page.goto("/signup/1");
  expect(response?.status()).toBe(404);
});
