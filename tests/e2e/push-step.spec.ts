import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, expectPath, hydrated, test, sameOrigin } from "./fixtures";
import { mailLink, newAccountDetails, type TestAccount } from "./accounts-support";
import { chromiumArgs, findFullChromium } from "../../scripts/chromium";

/**
 * Signup step 1 (docs/product.md §2 "optional push"): offered on a site with a push key (the demo niche sites;
 * the default site has none and starts at step 2). The browser is the only one that can subscribe,
 * so without JavaScript the step says so and is skipped; with it, a refused permission or a push
 * service that cannot be reached (this machine is offline) gives a clear message and the way on.
 * Outside the signup: the members area's push alert, and the push switch of /notifications.
 */
/** Signs up through the signup page of the page's site (Node cannot resolve she.localhost; Chromium can). */
async function signUpHere(page: Page): Promise<TestAccount> {
  const account = newAccountDetails();
  await page.goto("/signup");
  await page.getByLabel("E-mail address").fill(account.email);
  await page.getByLabel("Username").fill(account.name);
  await page.getByLabel("Date of birth", { exact: true }).fill("1991-04-12");
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  return account;
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
      await expectNoAxeViolations(page);
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

test.describe("push outside the signup", () => {
  test.use({ baseURL: `http://she.localhost:${process.env.E2E_PORT ?? 4100}`, serviceWorkers: "allow" });

  test("a member who skipped the push step is offered push in the members area until they hide it", { tag: "@nojs" }, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "" }]);
    const account = await signUpHere(page);
    await expectPath(page, "/signup/1");
    await page.getByTestId("skip-step").click();
    await expectPath(page, "/signup/2");
    // Activated (before that, the activation reminder is the one request the members area makes).
    await page.goto(await mailLink(account.email, "activation"));
    await expectPath(page, "/activate/done");
    await page.goto("/members");
    await expect(page.getByTestId("member-cards")).toBeVisible();
    const alert = page.getByTestId("alert-hide-push-notification-alert");
    if (!test.info().project.use.javaScriptEnabled) {
      // Push needs JavaScript: no alert with a button that could not work.
      await expect(alert).toHaveCount(0);
      return;
    }
    await expect(alert).toContainText("Get notified of new messages");
    await expect(alert.getByRole("button", { name: "Turn on notifications" })).toBeVisible();
    await expectNoAxeViolations(page);

    // Permission denied in the browser: the alert says how to allow it again, and offers no button.
    const cdp = await context.newCDPSession(page);
    const { targetInfo } = await cdp.send("Target.getTargetInfo");
    await cdp.send("Browser.setPermission", { permission: { name: "notifications" }, setting: "denied", origin: baseURL, browserContextId: targetInfo.browserContextId });
    await page.reload();
    await expect(alert.getByTestId("push-alert-denied")).toHaveText(/blocked in this browser\. To allow them again, open the site settings/);
    await expect(alert.getByRole("button", { name: "Turn on notifications" })).toHaveCount(0);

    // The alert goes at once (the fetcher's pending state); the reload must wait for the dismissal to be stored.
    const stored = page.waitForResponse((response) => /\/dismiss(\.data)?$/.test(new URL(response.url()).pathname) && response.request().method() === "POST");
    await alert.getByRole("button", { name: "Hide" }).click();
    await expect(alert).toHaveCount(0);
    expect((await stored).ok()).toBe(true);
    await expectPath(page, "/members");
    // Stored by the api: after a reload the root's data no longer offers it (the alert itself would show only after hydration).
    await page.reload();
    await hydrated(page.getByTestId("member-cards"));
    type RootAlerts = { __remixContext: { state: { loaderData: { root: { alerts: { key: string }[] } } } } };
    const offered = await page.evaluate(() => (window as unknown as RootAlerts).__remixContext.state.loaderData.root.alerts.map((a) => a.key));
    expect(offered).not.toContain("hide-push-notification-alert");
    await expect(alert).toHaveCount(0);
  });

  test("the push switch of /notifications turns push on and off in this browser", { tag: "@nojs" }, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "" }]);
    await context.grantPermissions(["notifications"], { origin: baseURL });
    // Chromium's test contexts are incognito, without a push service: the browser's PushManager is played here (a
    // subscription kept in sessionStorage, its endpoint a public address), the api stores and forgets it for real.
    await page.addInitScript(() => {
      const key = "test-push-subscription";
      type Json = { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
      const subscription = (json: Json) => ({ endpoint: json.endpoint, toJSON: () => json, unsubscribe: () => Promise.resolve(sessionStorage.removeItem(key) === undefined) });
      PushManager.prototype.subscribe = function () {
        const json: Json = { endpoint: `https://1.1.1.1/push/${crypto.randomUUID()}`, expirationTime: null, keys: { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) } };
        sessionStorage.setItem(key, JSON.stringify(json));
        return Promise.resolve(subscription(json) as unknown as PushSubscription);
      };
      PushManager.prototype.getSubscription = function () {
        const stored = sessionStorage.getItem(key);
        return Promise.resolve(stored ? (subscription(JSON.parse(stored) as Json) as unknown as PushSubscription) : null);
      };
    });
    await signUpHere(page);
    await expectPath(page, "/signup/1");
    await page.goto("/notifications");
    const device = page.getByTestId("push-device");
    await expect(device.getByRole("heading", { name: "Push notifications in this browser" })).toBeVisible();
    const toggle = device.getByRole("switch", { name: "Show notifications in this browser" });
    if (!test.info().project.use.javaScriptEnabled) {
      await expect(device).toContainText("Push notifications need JavaScript in your browser.");
      await expect(toggle).toHaveCount(0);
      return;
    }
    await expect(toggle).not.toBeChecked();
    await expect(device.getByTestId("push-switch-state")).toHaveText("Off: this browser does not show our notifications.");
    await expectNoAxeViolations(page);

    const pushAnswer = () => page.waitForResponse((response) => response.url().endsWith("/api/user.php?push=1"));
    let answer = pushAnswer();
    await toggle.click();
    expect((await answer).status()).toBe(200);
    expect((await answer).request().postDataJSON()).toMatchObject({ subscription: { endpoint: expect.stringMatching(/^https:\/\/1\.1\.1\.1\/push\//) } });
    await expect(toggle).toBeChecked();
    await expect(device.getByTestId("push-switch-state")).toHaveText("On: this browser shows our notifications.");
    await page.reload();
    await expect(toggle).toBeChecked();

    answer = pushAnswer();
    await toggle.click();
    expect((await answer).status()).toBe(200);
    expect((await answer).request().postDataJSON()).toMatchObject({ subscription: null });
    await expect(toggle).not.toBeChecked();
    await expect(device.getByTestId("push-switch-state")).toHaveText("Off: this browser does not show our notifications.");
  });
});

test("the default site has no push key: the push step is no page there", async ({ page }) => {
  const { email, name, password } = newAccountDetails();
  const created = await page.request.post("/api/signup.php", { headers: sameOrigin, data: { email, name, password, date_of_birth: "1990-05-17", gender: "male", language: "en" } });
  expect(created.status()).toBe(201);
  const response = await page.goto("/signup/1");
  expect(response?.status()).toBe(404);
});
