import { accounts, expect, login, test } from "./fixtures";

/** A member's page, read-only: a member card opens the member's page; unknown members are a 404. */
test.describe("member page", () => {
  test("a card of the search opens the member's page with photo and profile", async ({ page }) => {
    await login(page, accounts.free);
    // Members signed up by other tests are newest, and parallel tests add and remove their photos: take the first demo woman with one.
    await page.goto("/members?gender=female");
    const card = page.getByTestId("member-cards").getByRole("link").filter({ has: page.getByRole("img") }).filter({ hasNotText: /^Tester / }).first();
    const name = (await card.locator("p.member-card-name").innerText()).split(",")[0]?.trim() ?? "";
    await card.click();
    await expect(page).toHaveURL(/\/members\/\d+$/);
    const member = page.getByTestId("member-page");
    await expect(member.getByRole("heading", { level: 1 })).toContainText(name);
    await expect(member.getByRole("img", { name })).toBeVisible();
    await expect(member.getByTestId("photo-count")).toHaveText(/^[1-9]\d* photos?$/);
    // Demo members have every detail; the demo site shows body type and hair colour, not tattoos.
    const details = member.getByTestId("member-details");
    await expect(details).toContainText("Body type");
    await expect(details).toContainText("Hair colour");
    await expect(details).not.toContainText("Tattoos");
    await member.getByRole("link", { name: /Back to the search/ }).click();
    await expect(page).toHaveURL(/\/members$/);
  });

  test("an unknown member is a 404, and a visitor is asked to log in", async ({ page }) => {
    await login(page, accounts.free);
    const missing = await page.goto("/members/999999");
    expect(missing?.status()).toBe(404);
    await expect(page.getByText("This page could not be found")).toBeVisible();
  });

  test("a visitor is sent to log in", async ({ page }) => {
    await page.goto("/members/1");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmembers%2F1/);
  });
});
