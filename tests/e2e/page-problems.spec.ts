import { expect, test } from "./fixtures";

/**
 * The suite's watch on every page (tests/e2e/fixtures.ts) must be able to fail a test: each of these
 * provokes one problem and is marked `test.fail()`, so it passes only when the fixture fails it.
 */
test.describe("a test fails when its page", () => {
  test.fail();

  test("logs console.error", async ({ page }) => {
    await page.goto("/pages/faq");
    const logged = page.waitForEvent("console", (message) => message.text() === "a problem");
    await page.evaluate(() => console.error("a problem"));
    await logged;
  });

  test("throws an uncaught error", async ({ page }) => {
    await page.goto("/pages/faq");
    const thrown = page.waitForEvent("pageerror");
    await page.evaluate(() => setTimeout(() => {
      throw new Error("an uncaught problem");
    }, 0));
    await thrown;
  });

  test("has an image that is not found, also in a context the test made itself", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto("/pages/faq");
    const missing = page.waitForResponse((response) => response.url().endsWith("/no-such-image.png"));
    const logged = page.waitForEvent("console", (message) => message.type() === "error" && message.text().includes("404"));
    await page.evaluate(() => {
      const image = document.createElement("img");
      image.src = "/no-such-image.png";
      image.alt = "";
      document.body.append(image);
    });
    expect((await missing).status()).toBe(404);
    await logged;
    await context.close();
  });
});
