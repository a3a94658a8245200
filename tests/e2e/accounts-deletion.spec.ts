import { expect, expectPath, fillLogin, test, logout } from "./fixtures";
import { mailLink, signUp } from "./accounts-support";

const pendingDeletion = "Your account with this e-mail address was deleted. Use the link in the e-mail we sent you to reactivate it within 14 days.";

test.describe("account deletion", () => {
  test("is for members only", async ({ page }) => {
    await page.goto("/profile/delete");
    await expectPath(page, "/login");
  });

  test("alternatives first, then deletion, the login hint, and reactivation from the mail", { tag: "@nojs" }, async ({ page }) => {
    const account = await signUp(page.request);
    await page.goto("/profile/account");
    await page.getByRole("link", { name: "Delete my account" }).click();
    await expectPath(page, "/profile/delete");

    // docs/product.md §2: alternatives to leaving, the discount because the demo site sets delete_discount (50).
    const alternatives = page.getByTestId("deletion-alternatives");
    await expect(alternatives.getByText("Stay and get 50% off your next credits")).toBeVisible();
    await expect(page.getByTestId("alternative-discount").getByRole("link")).toHaveAttribute("href", "/credits");
    await expect(page.getByTestId("alternative-notifications").getByRole("link")).toHaveAttribute("href", "/notifications");
    await expect(page.getByTestId("alternative-invisible").getByRole("link")).toHaveAttribute("href", "/profile");

    await page.getByLabel("Current password").fill("not-my-password");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByText("The password is not correct.")).toBeVisible();
    await expect(page.getByLabel("Current password")).toHaveValue("");
    await expectPath(page, "/profile/delete");

    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel("Why are you leaving? (optional)").fill("Found someone");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expectPath(page, "/account-deleted");
    await expect(page.getByTestId("account-deleted")).toHaveText(
      "Your account has been deleted. You can reactivate it within 14 days with the link in the e-mail we sent you.",
    );
    await expect(page.getByTestId("account-menu")).toHaveCount(0);
    await page.goto("/members");
    await expectPath(page, "/login");

    // Logging in to the pending deletion gives the reactivation hint, not "login failed".
    await fillLogin(page, account.email, account.password);
    await expect(page.getByRole("alert")).toHaveText(pendingDeletion);
    await expectPath(page, "/login");

    // Opening the mailed link (as a mail scanner would) changes nothing: reactivation needs the button.
    const link = await mailLink(account.email, "reactivation");
    expect(link).toMatch(/^\/account-deleted\?token=/);
    await page.goto(link);
    await expect(page.getByRole("button", { name: "Reactivate my account" })).toBeVisible();
    await page.goto("/login");
    await fillLogin(page, account.email, account.password);
    await expect(page.getByRole("alert")).toHaveText(pendingDeletion);

    await page.goto(link);
    await page.getByRole("button", { name: "Reactivate my account" }).click();
    await expectPath(page, "/members");
    await expect(page.getByTestId("account-menu")).toContainText(account.name);

    // The link works once.
    await logout(page);
    await page.goto(link);
    await page.getByRole("button", { name: "Reactivate my account" }).click();
    await expect(page.getByRole("alert")).toHaveText("Link expired or invalid, request a new email");
    await expect(page.getByTestId("reactivation-hint")).toBeVisible();

    // And the account logs in normally again.
    await page.goto("/login");
    await fillLogin(page, account.email, account.password);
    await expectPath(page, "/members");
  });
});
