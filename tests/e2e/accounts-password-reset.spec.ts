import { expect, expectPath, fillLogin, test, unknownEmail, sameOrigin, logout } from "./fixtures";
import { mailCount, mailLink, signUp } from "./accounts-support";

const differ = "The entered passwords are not the same.";
const linkInvalid = "Link expired or invalid, request a new email";

test.describe("password reset", () => {
  test("from the login page to a new password that logs in", { tag: "@nojs" }, async ({ page, request }) => {
    const account = await signUp(request);
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expectPath(page, "/reset-password");
    // docs/product.md §2: no site-entry warning on the reset pages (checked further in the no-cookie test below).
    await page.getByLabel("E-mail address").fill(account.email);
    await page.getByRole("button", { name: "Send the link" }).click();

    await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    await expect(page.getByTestId("reset-mail-sent")).toContainText("We have sent you an e-mail");
    await expectPath(page, "/reset-password?sent=1", { withSearch: true });

    const link = await mailLink(account.email, "password_reset");
    expect(link).toMatch(/^\/reset-password\/do\?token=/);
    await page.goto(link);
    const newPassword = `new-${account.password}`;
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Repeat the new password").fill(newPassword);
    await page.getByRole("button", { name: "Save the new password" }).click();

    await expectPath(page, "/login?reset=done", { withSearch: true });
    await expect(page.getByTestId("password-reset-done")).toHaveText("Your password has been changed. You can log in now.");
    await fillLogin(page, account.email, newPassword);
    await expectPath(page, "/members");
    await expect(page.getByTestId("account-menu")).toBeVisible();

    // The link is used up: a second try says so and offers a new mail.
    await logout(page);
    await page.goto(link);
    await page.getByLabel("New password", { exact: true }).fill("another-password-1");
    await page.getByLabel("Repeat the new password").fill("another-password-1");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByRole("alert")).toHaveText(linkInvalid);
    await page.getByRole("link", { name: "Request a new e-mail" }).click();
    await expectPath(page, "/reset-password");
  });

  test("different passwords are refused with the specified message, and the link still works after", { tag: "@nojs" }, async ({ page, request }) => {
    const account = await signUp(request);
    await page.goto("/reset-password");
    await page.getByLabel("E-mail address").fill(account.email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByTestId("reset-mail-sent")).toBeVisible();
    const link = await mailLink(account.email, "password_reset");

    await page.goto(link);
    await page.getByLabel("New password", { exact: true }).fill("first-password-1");
    await page.getByLabel("Repeat the new password").fill("second-password-2");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByText(differ)).toBeVisible();
    await expect(page.getByLabel("Repeat the new password")).toHaveAttribute("aria-invalid", "true");
    expect(new URL(page.url()).pathname).toBe("/reset-password/do");

    await page.getByLabel("New password", { exact: true }).fill("first-password-1");
    await page.getByLabel("Repeat the new password").fill("first-password-1");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expectPath(page, "/login?reset=done", { withSearch: true });
  });

  test("a made-up or missing token says the link is invalid, without the entry warning", async ({ browser, baseURL }) => {
    // A visitor who never passed the site-entry warning: the reset pages do not show it (docs/product.md §2).
    const context = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    const page = await context.newPage();
    await page.goto("/reset-password/do?token=this-token-was-never-issued");
    await expect(page.getByTestId("entry-warning")).toHaveCount(0);
    await page.getByLabel("New password", { exact: true }).fill("some-password-1");
    await page.getByLabel("Repeat the new password").fill("some-password-1");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByRole("alert")).toHaveText(linkInvalid);
    await expect(page.getByRole("link", { name: "Request a new e-mail" })).toHaveAttribute("href", "/reset-password");
    // A link cut short, or none at all, is refused at once.
    for (const path of ["/reset-password/do?token=abc", "/reset-password/do"]) {
      await page.goto(path);
      await expect(page.getByRole("alert")).toHaveText(linkInvalid);
      await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
    }
    await page.goto("/reset-password");
    await expect(page.getByLabel("E-mail address")).toBeVisible();
    await expect(page.getByTestId("entry-warning")).toHaveCount(0);
    await context.close();
  });

  test("the repeat check speaks the page's language, in the browser before any request when JavaScript runs", { tag: "@nojs" }, async ({ page }) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await page.goto("/nl/reset-password/do?token=a-token-long-enough-to-try");
    await page.getByLabel("Nieuw wachtwoord", { exact: true }).fill("eerste-wachtwoord");
    await page.getByLabel("Herhaal het nieuwe wachtwoord").fill("tweede-wachtwoord");
    await page.getByRole("button", { name: "Nieuw wachtwoord opslaan" }).click();
    await expect(page.getByText("De ingevoerde wachtwoorden zijn niet gelijk.")).toBeVisible();
    expect(posts.length > 0).toBe(test.info().project.name === "nojs");
  });

  test("an unknown address and too many requests get the specified messages", { tag: "@nojs" }, async ({ page, request }) => {
    await page.goto("/reset-password");
    await page.getByLabel("E-mail address").fill(unknownEmail());
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByRole("alert")).toHaveText("E-mail address not found");
    await expectPath(page, "/reset-password");

    const account = await signUp(request);
    for (let i = 0; i < 3; i++) {
      const response = await request.post("/api/password-reset.php", { headers: sameOrigin, data: { email: account.email } });
      expect(response.status()).toBe(200);
    }
    await page.getByLabel("E-mail address").fill(account.email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByRole("alert")).toHaveText("Too many password reset emails sent, please try again tomorrow.");
    expect(await mailCount(account.email, "password_reset")).toBe(3);
  });
});
