import { demoPassword } from "../../api/db/seed";
import { expect, expectPath, test } from "./fixtures";
import { adminMenuLink, demoStaffEmail, freshStaffCode, staffLogin } from "./staff-support";
import { activeMember } from "./accounts-support";

/**
 * The staff side's login (password and the authenticator's code, or a recovery code), its frame and the
 * audit log, with JavaScript and without. The demo's staff accounts (README) with the demo TOTP secret.
 */
test.describe("staff login", () => {
  test("a wrong code is refused with the reason; the right one opens the dashboard, which logs out", { tag: "@nojs" }, async ({ page }) => {
    await page.goto("/staff");
    await expectPath(page, "/staff/login");
    await page.getByLabel("E-mail address").fill(demoStaffEmail("moderator"));
    await page.getByLabel("Password").fill(demoPassword);
    await page.getByLabel("Code from your authenticator app").fill("000000");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByTestId("form-error")).toHaveText("The e-mail address, the password or the code is not correct. A code works once: wait for the next one.");
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page.getByLabel("E-mail address")).toHaveValue(demoStaffEmail("moderator"));

    await page.getByLabel("Password").fill(demoPassword);
    await page.getByLabel("Code from your authenticator app").fill(await freshStaffCode("moderator"));
    await page.getByRole("button", { name: "Log in" }).click();
    await expectPath(page, "/staff");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
    await expect(page.getByTestId("staff-who")).toHaveText("Mo Moderator, moderator");
    await expect(page.getByTestId("staff-dashboard-site").first()).toBeVisible();
    // A moderator has no audit log: no link, and the page itself is refused.
    await expect(page.getByRole("link", { name: "Audit log" })).toHaveCount(0);
    const refused = await page.goto("/staff/audit");
    expect(refused?.status()).toBe(403);

    await page.goto("/staff");
    await page.getByRole("button", { name: "Log out" }).click();
    await expectPath(page, "/staff/login");
    await page.goto("/staff");
    await expectPath(page, "/staff/login");
  });

  test("the browser checks the form before any request when JavaScript runs", async ({ page }) => {
    await page.goto("/staff/login");
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await page.getByLabel("E-mail address").fill("not-an-address");
    await page.getByLabel("Code from your authenticator app").fill("12");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("Please enter a valid e-mail address.")).toBeVisible();
    await expect(page.getByText("The code has 6 digits, a recovery code 10 letters and digits.")).toBeVisible();
    await page.getByLabel("E-mail address").fill(demoStaffEmail("support"));
    await page.getByLabel("Code from your authenticator app").fill("123456");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("Please enter your password.")).toBeVisible();
    expect(posts).toEqual([]);
  });
});

test("an admin's login is in the audit log, which filters by action", { tag: "@nojs" }, async ({ page }) => {
  await staffLogin(page, "admin", { fresh: true });
  await expectPath(page, "/staff");
  await adminMenuLink(page, "Audit log");
  await expectPath(page, "/staff/audit");
  const entries = page.getByTestId("staff-audit-entry");
  // Other tests log staff in and out beside this one: the admin's own login is among the newest entries.
  await expect(entries.filter({ hasText: "admin@example.com" }).filter({ hasText: "staff.login" }).first()).toBeVisible();
  await page.getByLabel("Action").selectOption("staff.login");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/action=staff\.login/);
  await expect(entries.first()).toContainText("staff.login");
  await expect(entries.filter({ hasText: "staff.logout" })).toHaveCount(0);
  // A date range: today (UTC) holds the login, a day long past holds nothing.
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel("From (UTC day)").fill(today);
  await page.getByLabel("To (UTC day)").fill(today);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
  await expect(entries.first()).toContainText("staff.login");
  await page.getByLabel("From (UTC day)").fill("2001-01-01");
  await page.getByLabel("To (UTC day)").fill("2001-01-31");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No entries match.")).toBeVisible();
  // A staff id that is no number is refused by the contract: the page says which filter.
  await page.goto("/staff/audit?staff_id=abc");
  await expect(page.getByTestId("form-error")).toContainText("staff_id");
});

test("a member's session opens no staff page", async ({ browser, baseURL }) => {
  const member = await activeMember(browser, baseURL ?? "");
  await member.page.goto("/staff");
  await expectPath(member.page, "/staff/login");
  await member.page.context().close();
});

test("the staff side has one address, in English: a language prefix is dropped, and a Dutch visitor is not sent to /nl", async ({ page, context, baseURL }) => {
  const prefixed = await page.request.get("/nl/staff/login?x=1", { maxRedirects: 0 });
  expect(prefixed.status()).toBe(302);
  expect(prefixed.headers().location).toBe("/staff/login?x=1");
  // A visitor who chose Dutch (the language cookie) still gets the staff login where its cookie is scoped.
  await context.addCookies([{ name: "i18n_redirected", value: "nl", url: baseURL ?? "" }]);
  await page.goto("/staff/login");
  await expectPath(page, "/staff/login");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});
