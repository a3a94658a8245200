import { expect, test } from "@playwright/test";
import { accounts, expectPath, login } from "./fixtures";

/** docs/product.md §2: the site-entry warning of the default layout, with JavaScript on and off. */
test.describe("site-entry warning", () => {
  test("shows to a new visitor, lets them in, and stays away after that", { tag: "@nojs" }, async ({ page, context }) => {
    await page.goto("/pages/faq");
    const warning = page.getByTestId("entry-warning");
    await expect(page.getByRole("dialog", { name: "Adults only" })).toBeVisible();
    await expect(warning.getByRole("heading", { name: "Adults only" })).toBeVisible();
    // No footer and no close button: only the way in, or out.
    await expect(warning.getByRole("button")).toHaveCount(1);

    await warning.getByRole("button", { name: "I am 18 or older: enter" }).click();
    await expect(warning).toHaveCount(0);
    await expectPath(page, "/pages/faq");
    // With JavaScript the warning hides at once and the cookie arrives with the fetcher's answer.
    const skippedAt = async () => decodeURIComponent((await context.cookies()).find((c) => c.name === "site_entry_skipped")?.value ?? "");
    await expect.poll(async () => Number.isNaN(Date.parse(await skippedAt())), { message: "a skipped timestamp is stored" }).toBe(false);

    await page.goto("/");
    await expect(page.getByTestId("entry-warning")).toHaveCount(0);
  });

  test("is shown in the visitor's language", async ({ page }) => {
    await page.goto("/nl");
    await expect(page.getByTestId("entry-warning")).toBeVisible();
    await expect(page.getByTestId("entry-warning").getByRole("button")).not.toHaveText("I am 18 or older: enter");
  });

  test("does not show to a logged-in member", async ({ page, context }) => {
    await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: test.info().project.use.baseURL ?? "http://localhost:4100" }]);
    await login(page, accounts.free);
    await context.clearCookies({ name: "site_entry_skipped" });
    await page.goto("/members");
    await expect(page.getByTestId("account-menu")).toBeVisible();
    await expect(page.getByTestId("entry-warning")).toHaveCount(0);
  });
});
