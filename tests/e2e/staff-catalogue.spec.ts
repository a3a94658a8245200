import { randomUUID } from "node:crypto";
import { expect, expectPath, test } from "./fixtures";
import { activeMember, newAccountDetails } from "./accounts-support";
import { adminMenuLink, staffLogin } from "./staff-support";

/**
 * The catalogue in the browser, with JavaScript and without: an admin creates a discount code in the console and a
 * member applies it on /credits at once; an admin makes an invite-only site and invites one person, who signs up on it
 * through the link (the site's domain is a name under localhost, which the browser sends to this server).
 */
test("an admin creates a discount code and a member applies it at once", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const code = `E2E${randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase()}`;
  await staffLogin(page, "admin");
  await expectPath(page, "/staff");
  await adminMenuLink(page, "Discount codes");
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

test("an admin makes an invite-only site, invites one person, and the link signs them up there", { tag: "@nojs" }, async ({ page, browser, javaScriptEnabled }) => {
  const label = `${javaScriptEnabled ? "js" : "nojs"}${randomUUID().slice(0, 6)}`;
  const domain = `invite-${label}.localhost`;
  await staffLogin(page, "admin");
  await page.goto("/staff/sites");
  await page.getByRole("link", { name: "New site" }).click();
  await page.getByLabel("Name", { exact: true }).fill(`Invite ${label}`);
  await page.getByLabel("Domain", { exact: true }).fill(domain);
  await page.getByLabel("Who may sign up").selectOption("other");
  await page.getByLabel("Show the adult-content warning on entry").uncheck();
  await page.getByRole("button", { name: "Create site" }).click();
  await expect(page.getByTestId("staff-site-done")).toHaveText("Site created.");
  await expect(page.getByLabel("Who may sign up")).toHaveValue("other");

  await adminMenuLink(page, "Invitations");
  await page.getByLabel("Site", { exact: true }).selectOption({ label: `Invite ${label} (invite-only)` });
  await page.getByRole("button", { name: "Create invitation" }).click();
  const link = (await page.getByTestId("staff-invitation-link").textContent())?.trim() ?? "";
  expect(link).toMatch(new RegExp(`^http://${domain}:\\d+/signup\\?invitation=[A-Z0-9]{12}$`));

  const visitor = await browser.newContext({ javaScriptEnabled });
  const invited = await visitor.newPage();
  const account = newAccountDetails();
  // Without the code the invite-only site asks for one.
  await invited.goto(new URL("/signup", link).toString());
  await expect(invited.getByTestId("invitation-form")).toBeVisible();
  await invited.goto(link);
  await invited.getByLabel("E-mail address").fill(account.email);
  await invited.getByLabel("Username").fill(account.name);
  await invited.getByLabel("Date of birth", { exact: true }).fill("1990-02-03");
  await invited.getByLabel("Password", { exact: true }).fill(account.password);
  await invited.getByRole("button", { name: "Create account" }).click();
  // Signed up on the new site: its next step (push first, since a new site has push keys of its own).
  await expect(invited).toHaveURL(new RegExp(`^http://${domain}:\\d+/signup/1$`));
  await expect(invited.getByRole("link", { name: `Invite ${label}` })).toHaveAttribute("href", "/members");
  await visitor.close();
});
