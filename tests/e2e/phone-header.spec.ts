import { accounts, brandLink, expect, login, openAccountMenu, test } from "./fixtures";

/**
 * The member header on a phone (390×844) for a paying member: the account menu stays a full tap target and opens to
 * My profile, Settings and Logout, and the brand is not cut off. The screenshot goes with the test's report.
 */
test.use({ viewport: { width: 390, height: 844 } });

test("a paying member's header at 390×844 keeps the account menu usable and the brand readable", async ({ page }, testInfo) => {
  await login(page, accounts.premium);
  await expect(page.getByTestId("nav-credits")).toBeVisible();

  const button = page.getByTestId("account-menu-button");
  const box = await button.boundingBox();
  expect(box, "the account menu's button is laid out").not.toBeNull();
  expect(box!.width).toBeGreaterThanOrEqual(24);
  expect(box!.height).toBeGreaterThanOrEqual(24);
  // Inside the viewport, not pushed off its right edge.
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);

  const brand = brandLink(page);
  await expect(brand).toBeVisible();
  const cut = await brand.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(cut, "the brand is shown whole, not truncated").toBe(false);

  await testInfo.attach("paying member's header at 390x844", { body: await page.screenshot({ clip: { x: 0, y: 0, width: 390, height: 120 } }), contentType: "image/png" });

  const menu = await openAccountMenu(page);
  for (const name of ["My profile", "Settings"]) await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(menu.getByRole("button", { name: "Logout", exact: true })).toBeVisible();
  await testInfo.attach("account menu open at 390x844", { body: await page.screenshot(), contentType: "image/png" });
});
