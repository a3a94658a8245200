import { expect, expectPath, fillLogin, test } from "./fixtures";
import { mailLink, signUp } from "./accounts-support";

/**
 * docs/product.md §2 warning banners with §4 dismissals: an activated member without a photo is asked to add
 * one; "Hide" hides the banner for good, on every device (the dismissal is stored by the api).
 */
test("the add-a-photo banner hides for good once dismissed, also on another device", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const account = await signUp(page.request);
  await page.goto(await mailLink(account.email, "activation"));
  await expectPath(page, "/activate/done");

  await page.goto("/members");
  const banner = page.getByTestId("alert-hide-enrich-alert");
  await expect(banner).toContainText("Add a photo to your profile");
  await expect(banner.getByRole("link", { name: "Add a photo" })).toHaveAttribute("href", "/profile/photos");
  await banner.getByRole("button", { name: "Hide" }).click();
  await expect(banner).toHaveCount(0);
  await expectPath(page, "/members");
  await page.reload();
  await expect(page.getByTestId("member-cards")).toBeVisible();
  await expect(banner).toHaveCount(0);

  // Another device: a fresh browser context that logs in.
  const other = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.use.javaScriptEnabled });
  await other.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "" }]);
  const second = await other.newPage();
  await second.goto("/login");
  await fillLogin(second, account.email, account.password);
  await expectPath(second, "/members");
  await expect(second.getByTestId("member-cards")).toBeVisible();
  await expect(second.getByTestId("alert-hide-enrich-alert")).toHaveCount(0);
  await other.close();
});

test("a member who has not activated yet sees the activation reminder, not the photo banner", async ({ page }) => {
  await signUp(page.request);
  await page.goto("/members");
  await expect(page.getByTestId("activation-reminder")).toBeVisible();
  await expect(page.getByTestId("alert-hide-enrich-alert")).toHaveCount(0);
});
