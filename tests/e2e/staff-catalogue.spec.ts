import { randomUUID } from "node:crypto";
import { expect, expectPath, test } from "./fixtures";
import { activeMember } from "./accounts-support";
import { staffLogin } from "./staff-support";

/**
 * Issue 26 item 6 in the browser, with JavaScript and without: an admin creates a discount code in the console and a
 * member applies it on /credits at once. (Invitations: tests/api/staff-catalogue.test.ts signs up with a console-made
 * invitation on an invite-only site; the demo has no invite-only site to sign up on here.)
 */
test("an admin creates a discount code and a member applies it at once", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const code = `E2E${randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase()}`;
  await staffLogin(page, "admin");
  await expectPath(page, "/staff");
  await page.getByRole("link", { name: "Discount codes" }).click();
  await page.getByLabel("Code", { exact: true }).fill(code.toLowerCase());
  await page.getByLabel("Percentage off (1 to 90)").fill("35");
  await page.getByRole("button", { name: "Create code" }).click();
  await expect(page.getByTestId("staff-catalogue-done")).toBeVisible();
  await expect(page.getByTestId("staff-discount-code").filter({ hasText: code })).toContainText("35%");

  const member = await activeMember(browser, baseURL ?? "");
  await member.page.goto("/credits");
  await member.page.getByTestId("discount-code").fill(code.toLowerCase());
  await member.page.getByTestId("discount-apply").click();
  await expect(member.page.getByTestId("discount-applied")).toHaveText(`Code ${code}: 35% off.`);
  await member.page.context().close();
});
