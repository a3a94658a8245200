import { expect, expectNoAxeViolations, test } from "./fixtures";
import { activeMember } from "./accounts-support";
import { adminMenuLink, staffLogin } from "./staff-support";

/**
 * The staff console's frame at 1280 px: the admin's navigation is one row (the admin pages in one "Administration"
 * menu), a page the role may not open is a translated page inside the console, and the site settings say what the home
 * page title changes.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const axe = async (page: Parameters<typeof expectNoAxeViolations>[0]) => {
  if (test.info().project.name === "js") await expectNoAxeViolations(page);
};

test("an admin's navigation is one row at 1280 px and reaches every admin page", { tag: "@nojs" }, async ({ page }) => {
  await staffLogin(page, "admin");
  const nav = page.getByRole("navigation", { name: "Staff navigation" });
  const tops = await nav.evaluate((el) => [...el.children].map((child) => Math.round(child.getBoundingClientRect().top)));
  expect(tops.length).toBeGreaterThan(4);
  expect(new Set(tops).size, `one row of navigation items (tops ${tops.join(", ")})`).toBe(1);
  // The whole header (brand, navigation, who is logged in, log out) is one row too.
  const header = await page.getByRole("banner").boundingBox();
  const navBox = await nav.boundingBox();
  expect(header!.height).toBeLessThan(navBox!.height * 2);
  await axe(page);

  await adminMenuLink(page, "Sites");
  await expect(page).toHaveURL(/\/staff\/sites$/);
  // The menu's button shows where the admin is.
  await expect(page.getByTestId("staff-admin-menu").locator("summary")).toHaveClass(/bg-gray-900/);
});

test("support opening the audit log gets a translated page inside the console, not a bare error", { tag: "@nojs" }, async ({ page }) => {
  await staffLogin(page, "support");
  const answer = await page.goto("/staff/audit");
  expect(answer?.status()).toBe(403);
  const error = page.getByTestId("staff-error");
  await expect(error.getByRole("heading", { level: 1 })).toHaveText("Not open to your role");
  await expect(error).toContainText("This page is not part of the support role.");
  await expect(page.getByRole("navigation", { name: "Staff navigation" })).toBeVisible();
  await expect(page.getByTestId("staff-who")).toHaveText("Sam Support, support");
  await axe(page);
  await error.getByRole("link", { name: "Back to the dashboard" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
});

test("the site settings say the home page title is the browser's title, not the headline", { tag: "@nojs" }, async ({ page }) => {
  await staffLogin(page, "admin");
  await page.goto("/staff/sites/1");
  const title = page.getByLabel("Home page title");
  await expect(title).toBeVisible();
  await expect(title.locator("xpath=..")).toContainText("The title in the browser tab and in search results for the home page. The headline on the page itself does not change");
});

test("the audit log filters by an action chosen from a list and links a member target to the member's page", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const member = await activeMember(browser, baseURL ?? "");
  await staffLogin(page, "admin");
  await page.goto("/staff/members");
  await page.getByLabel("E-mail, name, id or payment id").fill(member.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByTestId("staff-member-row").getByRole("link").click();
  await expect(page).toHaveURL(/\/staff\/members\/\d+$/);
  const memberPath = new URL(page.url()).pathname;
  const userId = memberPath.split("/").pop()!;
  await page.getByLabel("Credits (negative to deduct)").fill("1");
  await page.getByLabel("Reason (shown in the ledger)").fill("Audit link check");
  await page.getByRole("button", { name: "Book" }).click();
  await expect(page.getByTestId("staff-member-done")).toBeVisible();

  await page.goto("/staff/audit");
  await page.getByLabel("Action").selectOption("member.credits_grant");
  await page.getByLabel("Target id").fill(userId);
  await page.getByRole("button", { name: "Apply" }).click();
  const entry = page.getByTestId("staff-audit-entry");
  await expect(entry).toHaveCount(1);
  await axe(page);
  await entry.getByRole("link", { name: `member #${userId}` }).click();
  await expect(page).toHaveURL(new RegExp(`${memberPath}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(member.name);
});
