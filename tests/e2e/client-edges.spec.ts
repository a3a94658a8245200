import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page, type Route } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { expect, expectPath, hydrated, test } from "./fixtures";
import { activeMember, signUp } from "./accounts-support";

/**
 * Client edges, JavaScript only: the loading bar's timings (docs/product.md §9: throttle 200 ms, hides 500 ms after
 * finishing), a lazy chunk that fails reloads the page once and not again within 60 s (docs/product.md §8 ChunkLoadError),
 * the manifest makes the site installable (docs/product.md §1), and the service worker shows the offline page; and a
 * form used while a slow phone is still hydrating the page works without React throwing (docs/decisions/014); and the
 * member cards, plain links navigated through their list's one handler (app/components/ui/plain-links.ts), behave as
 * <Link>s do.
 */
test.skip(() => test.info().project.use.javaScriptEnabled === false, "browser code: JavaScript only");

/**
 * Holds the next page data request (Remix single fetch, *.data) until `release` is called; `arrived` resolves when the
 * request was made, that is when the navigation has started (a link's route may first be discovered: lazy route
 * discovery fetches its manifest before the navigation begins).
 */
async function holdNextData(page: Page): Promise<{ arrived: Promise<void>; release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const arrived = new Promise<void>((resolve) => (held = resolve));
  await page.route(/\.data(\?|$)/, async (route: Route) => {
    held();
    await released;
    await route.continue();
  }, { times: 1 });
  return {
    arrived,
    release: async () => {
      await arrived;
      release();
    },
  };
}

test("the loading bar shows after 200 ms of a navigation and hides 500 ms after it finishes", async ({ page }) => {
  await page.clock.install();
  await page.goto("/");
  const bar = page.getByTestId("loading-bar");
  const loginLink = page.locator('header a[href="/login"]').first();
  await hydrated(loginLink);
  // Stop the page's clock so that only runFor moves it: a loaded CI machine must not age the timers between steps.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));

  // A slow navigation: nothing for 200 ms, then the bar; it stays 500 ms after the page arrives.
  let data = await holdNextData(page);
  await loginLink.click();
  // The page's clock counts from the navigation's start, not from a route discovery before it.
  await data.arrived;
  await page.clock.runFor(150);
  await expect(bar).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute("data-state", "running");
  await data.release();
  await expectPath(page, "/login");
  await expect(bar).toHaveAttribute("data-state", "done");
  await page.clock.runFor(400);
  await expect(bar).toBeVisible();
  await page.clock.runFor(150);
  await expect(bar).toHaveCount(0);

  // A quick one (under 200 ms) never shows it.
  const home = page.locator('header a[href="/"]').first();
  data = await holdNextData(page);
  await home.click();
  await data.arrived;
  await page.clock.runFor(100);
  await data.release();
  await expectPath(page, "/");
  await page.clock.runFor(1000);
  await expect(bar).toHaveCount(0);
});

test("a member card opens the profile in the app, under the language prefix, and a ctrl-click opens a new tab", async ({ browser, baseURL }) => {
  const { page } = await activeMember(browser, baseURL ?? "");
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
  });
  await page.goto("/nl/members");
  const card = page.getByTestId("member-cards").locator("a.member-card").first();
  await hydrated(card);
  const href = (await card.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/nl\/members\/\d+$/);

  // A ctrl-click is the browser's: a new tab with the profile, this page stays.
  const [tab] = await Promise.all([page.context().waitForEvent("page"), card.click({ modifiers: ["ControlOrMeta"] })]);
  // The new tab opens at about:blank and then navigates: wait for the profile itself, not the first load state.
  await tab.waitForURL((url) => url.pathname === href);
  await tab.close();
  await expectPath(page, "/nl/members");

  // A plain click navigates in the app: the profile without a new document.
  documents.length = 0;
  await card.click();
  await expectPath(page, href);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(documents, "documents loaded by the card's click").toEqual([]);
  await page.context().close();
});

test("a form filled in and sent while a slow phone hydrates the page works, and React throws nothing", async ({ page }) => {
  // A fresh member: /profile/account then shows the activation reminder, a `whenShown` part. Before the fix, 11 runs
  // in 20 threw here: React #345 (a key or click before the document was committed, while RemixBrowser waited for the
  // page's data) or #421 (Remix's router state reaching the reminder's boundary before React had hydrated it). The
  // fixture fails the test on either.
  const account = await signUp(page.request);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
  await page.goto("/profile/account", { waitUntil: "commit" });
  const section = page.getByTestId("email-change");
  await section.getByLabel("New e-mail address").fill(`changed-${randomUUID()}@example.com`);
  await section.getByLabel("Current password").fill(account.password);
  await section.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(section.getByRole("status")).toHaveText("We sent a confirmation link to the new address.", { timeout: 20_000 });
  await expect(page.getByTestId("activation-reminder")).toBeVisible();
  // React reports a #421 on its next commit: the form's checks (conform, loaded on focus) make one and show their message.
  const field = section.getByLabel("New e-mail address");
  await hydrated(field);
  await field.fill("not-an-address");
  await field.blur();
  await expect(section.getByText("Please enter a valid e-mail address.")).toBeVisible();
});

test.describe("a lazy chunk that fails", () => {
  test.use({
    expectedConsoleErrors: {
      "the test aborts every request for the chunk": /^Failed to load resource: net::ERR_FAILED$/,
      "React reports the failed import it renders the error boundary for": /Failed to fetch dynamically imported module/,
    },
  });

  test("reloads the page once, not again within 60 s", async ({ page }) => {
    // An unknown legal page (/pages/...) shows the root's error page, whose code is a lazy chunk (app/root.tsx): make it
    // fail every time. (The splat route of other unknown paths has the error page in its own code.)
    let chunkRequests = 0;
    await page.route(/\/assets\/error-page-[\w-]+\.js$/, (route) => {
      chunkRequests++;
      return route.abort();
    });
    let documents = 0;
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.url().endsWith("/pages/no-such-page-chunk")) documents++;
    });
    // app/utils/chunk-reload.ts says so when it declines: the decision after the second failure is made.
    const declined = page.waitForEvent("console", { predicate: (message) => message.type() === "warning" && message.text().includes("not reloading again"), timeout: 20_000 });
    await page.goto("/pages/no-such-page-chunk");
    await declined;
    expect(chunkRequests, "the chunk was asked for before and after the reload").toBeGreaterThanOrEqual(2);
    expect(documents).toBe(2);
    expect(await page.evaluate(() => Number(sessionStorage.getItem("chunk-reload-at")))).toBeGreaterThan(0);
  });
});

test.describe("installable app", () => {
  test.use({ serviceWorkers: "allow" });

  async function withServiceWorker(page: Page): Promise<void> {
    await page.goto("/");
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
  }

  test("the manifest, icons and service worker pass Chromium's installability check", async ({ page, baseURL }) => {
    const manifest = await page.request.get("/manifest.webmanifest");
    expect(manifest.headers()["content-type"]).toContain("application/manifest+json");
    expect(await manifest.json()).toMatchObject({ name: "Rendezvous", start_url: "/members", display: "standalone" });
    // Chromium never offers to install from an incognito profile (a test context is one): a profile on disk.
    const profile = await mkdtemp(path.join(tmpdir(), "pw-installable-"));
    const persistent = await chromium.launchPersistentContext(profile, { ...test.info().project.use.launchOptions, baseURL, serviceWorkers: "allow" });
    try {
      const installable = persistent.pages()[0] ?? (await persistent.newPage());
      await withServiceWorker(installable);
      const cdp = await persistent.newCDPSession(installable);
      const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await persistent.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  test("without network a page shows the offline page", async ({ page, context }) => {
    await withServiceWorker(page);
    // The worker cached the offline pages at install; it controls the page once it has claimed it.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await context.setOffline(true);
    try {
      await page.goto("/members");
      await expect(page.getByTestId("offline-page")).toContainText("You are offline");
      await page.goto("/de/login");
      await expect(page.getByTestId("offline-page")).toContainText("Du bist offline");
    } finally {
      await context.setOffline(false);
    }
  });
});
