import { randomUUID } from "node:crypto";
import { accounts, expect, expectPath, fillLogin, test, logout } from "./fixtures";
import { mailLink, signUp } from "./accounts-support";

test.describe("account settings", () => {
  test("is for members only", async ({ page }) => {
    await page.goto("/profile/account");
    await expectPath(page, "/login?redirectTo=%2Fprofile%2Faccount", { withSearch: true });
  });

  test("changing the password: old password checked, repeat checked, then the new one logs in", { tag: "@nojs" }, async ({ page }) => {
    const account = await signUp(page.request);
    await page.goto("/profile/account");
    const section = page.getByTestId("password-change");
    const submit = section.getByRole("button", { name: "Change password" });

    await section.getByLabel("Old password").fill("not-my-old-password");
    await section.getByLabel("New password", { exact: true }).fill("brand-new-password");
    await section.getByLabel("Repeat the new password").fill("brand-new-password");
    await submit.click();
    await expect(section.getByText("Please check your old password.")).toBeVisible();
    await expect(section.getByLabel("Old password")).toHaveValue("");
    await expect(section.getByLabel("New password", { exact: true })).toHaveValue("");

    await section.getByLabel("Old password").fill(account.password);
    await section.getByLabel("New password", { exact: true }).fill("brand-new-password");
    await section.getByLabel("Repeat the new password").fill("brand-new-passwort");
    await submit.click();
    await expect(section.getByText("The entered passwords are not the same.")).toBeVisible();

    await section.getByLabel("Old password").fill(account.password);
    await section.getByLabel("New password", { exact: true }).fill("brand-new-password");
    await section.getByLabel("Repeat the new password").fill("brand-new-password");
    await submit.click();
    await expect(section.getByRole("status")).toHaveText("Your password has been changed.");
    await expect(section.getByLabel("Old password")).toHaveValue("");
    // The current session stays.
    await expect(page.getByTestId("account-menu")).toBeVisible();

    await logout(page);
    await page.goto("/login");
    await fillLogin(page, account.email, "brand-new-password");
    await expectPath(page, "/members");
  });

  test("changing the e-mail address: confirmation mail to the new address, then it logs in", { tag: "@nojs" }, async ({ page }) => {
    const account = await signUp(page.request);
    const newEmail = `changed-${randomUUID()}@example.com`;
    await page.goto("/profile/account");
    const section = page.getByTestId("email-change");
    await section.getByLabel("New e-mail address").fill(newEmail);
    await section.getByLabel("Current password").fill(account.password);
    await section.getByRole("button", { name: "Send the confirmation link" }).click();
    await expect(section.getByRole("status")).toHaveText("We sent a confirmation link to the new address.");
    await expect(section.getByLabel("New e-mail address")).toHaveValue("");

    const link = await mailLink(newEmail, "email_change");
    expect(link).toMatch(/^\/mail-change\/do\?token=/);
    await page.goto(link);
    await expect(page.getByTestId("mail-changed")).toHaveText("Your e-mail address has been changed.");
    // A reload after the change still says it worked (the one-time link is not asked again).
    await page.reload();
    await expect(page.getByTestId("mail-changed")).toHaveText("Your e-mail address has been changed.");

    // The link works once.
    await page.goto(link);
    await expect(page.getByRole("alert")).toHaveText("Link expired or invalid, request a new email");

    await logout(page);
    await page.goto("/login");
    await fillLogin(page, newEmail, account.password);
    await expectPath(page, "/members");
  });

  test("an address in use and a wrong password are refused", { tag: "@nojs" }, async ({ page }) => {
    const account = await signUp(page.request);
    await page.goto("/profile/account");
    const section = page.getByTestId("email-change");
    // Only used as an address here: no password is ever tried on the demo account.
    await section.getByLabel("New e-mail address").fill(accounts.free.email);
    await section.getByLabel("Current password").fill(account.password);
    await section.getByRole("button", { name: "Send the confirmation link" }).click();
    await expect(section.getByText("This e-mail address is already in use.")).toBeVisible();
    await expect(section.getByLabel("New e-mail address")).toHaveValue(accounts.free.email);
    await expect(section.getByLabel("Current password")).toHaveValue("");

    await section.getByLabel("New e-mail address").fill(`free-${randomUUID()}@example.com`);
    await section.getByLabel("Current password").fill("not-my-password");
    await section.getByRole("button", { name: "Send the confirmation link" }).click();
    await expect(section.getByText("The password is not correct.")).toBeVisible();
  });
});
