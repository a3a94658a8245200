import { accounts, expect, expectPath, test, sameOrigin } from "./fixtures";
import { mailLink, newAccountDetails, signUp } from "./accounts-support";

/** The signup funnel with JavaScript on and off. */
test.describe("signup", () => {
  test("a visitor signs up, walks the steps skipping one, activates by mail and lands on the matches", { tag: "@nojs" }, async ({ page, context }) => {
    const account = newAccountDetails();
    await page.goto("/?network=partner1&ref=campaign7&sub1=banner");
    expect((await context.cookies()).find((c) => c.name === "rdv_tracking")?.value).toContain("partner1");

    await page.goto("/signup");
    await page.getByLabel("E-mail address").fill(account.email);
    await page.getByLabel("Username").fill(account.name);
    await page.getByLabel("Date of birth", { exact: true }).fill("1991-04-12");
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Create account" }).click();

    // Step 2 (photo) and step 3 (personal info) are skipped, step 4 (about me) is filled in.
    await expectPath(page, "/signup/2");
    await expect(page.getByTestId("activation-reminder")).toBeVisible();
    await page.getByTestId("skip-step").click();
    await expectPath(page, "/signup/3");
    await page.getByTestId("skip-step").click();
    await expectPath(page, "/signup/4");
    await page.getByLabel("About me").fill("I like long walks and good wine.");
    await page.getByText("Travel", { exact: true }).click();
    await page.getByRole("button", { name: "Save and continue" }).click();

    await expectPath(page, "/complete-signup");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${account.name}!`);
    await expect(page.getByTestId("confirm-email-notice")).toBeVisible();
    await expect(page.getByTestId("language-menu")).toHaveCount(0);

    await page.getByRole("link", { name: "See who fits you" }).click();
    await expectPath(page, "/signup-matches");
    await expect(page.getByTestId("signup-matches").getByRole("listitem").first()).toBeVisible();

    // The activation link of the mail confirms the address; a second use fails.
    const link = await mailLink(account.email, "activation");
    expect(link).toMatch(/^\/activate\/done\?token=/);
    await page.goto(link);
    await expectPath(page, "/activate/done");
    await expect(page.getByTestId("activation-done")).toBeVisible();
    await page.goto("/members");
    await expect(page.getByTestId("activation-reminder")).toHaveCount(0);
    await page.goto(link);
    await expectPath(page, "/activate/error");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Activation failed");
  });

  test("every validation message appears where it should", { tag: "@nojs" }, async ({ page }) => {
    const account = newAccountDetails();
    await page.goto("/signup");
    const fill = async (values: { email: string; name: string; dob: string; password: string }) => {
      await page.getByLabel("E-mail address").fill(values.email);
      await page.getByLabel("Username").fill(values.name);
      await page.getByLabel("Date of birth", { exact: true }).fill(values.dob);
      await page.getByLabel("Password", { exact: true }).fill(values.password);
      await page.getByRole("button", { name: "Create account" }).click();
    };

    await fill({ email: account.email, name: account.email, dob: "1990-01-01", password: account.password });
    await expect(page.getByText("Your username may not be your e-mail address.")).toBeVisible();

    await fill({ email: account.email, name: "@tester", dob: "1990-01-01", password: account.password });
    await expect(page.getByText("Your username may not start with @.")).toBeVisible();

    const tooYoung = `${new Date().getUTCFullYear() - 16}-06-01`;
    await fill({ email: account.email, name: account.name, dob: tooYoung, password: account.password });
    const popup = page.getByTestId("dob-popup");
    await expect(page.getByRole("alertdialog", { name: "Invalid date of birth." })).toBeVisible();
    await expect(popup).toContainText("Invalid date of birth.");
    await popup.getByText("OK", { exact: true }).click();
    await expect(popup).toBeHidden();

    await fill({ email: "someone@gmial.com", name: account.name, dob: "1990-01-01", password: account.password });
    await expect(page.getByText("Did you mean someone@gmail.com?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, use someone@gmail.com" }).click();
    await expect(page.getByLabel("E-mail address")).toHaveValue("someone@gmail.com");
  });

  test("an existing account gets a log-in prompt, one pending deletion the reactivation hint", { tag: "@nojs" }, async ({ page, request }) => {
    await page.goto("/signup");
    await page.getByLabel("E-mail address").fill(accounts.free.email);
    await page.getByLabel("Username").fill("Another name");
    await page.getByLabel("Date of birth", { exact: true }).fill("1990-01-01");
    await page.getByLabel("Password", { exact: true }).fill("some-password");
    await page.getByRole("button", { name: "Create account" }).click();
    const alert = page.getByTestId("form-error");
    await expect(alert).toContainText("You already have an account with this e-mail address.");
    await expect(alert.getByRole("link", { name: "Log in" })).toBeVisible();

    // A member who deleted their account within 14 days.
    const deleted = await signUp(request);
    const removal = await request.post("/api/delete-account.php", { headers: sameOrigin, data: { password: deleted.password } });
    expect(removal.status()).toBe(200);
    await page.getByLabel("E-mail address").fill(deleted.email);
    await page.getByLabel("Username").fill("New name");
    await page.getByLabel("Date of birth", { exact: true }).fill("1990-01-01");
    await page.getByLabel("Password", { exact: true }).fill("some-password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByTestId("form-error")).toContainText("reactivate it within 14 days");
  });

  test("with JavaScript the signup opens as a modal that Escape closes while idle", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Sign up free" }).click();
    const modal = page.getByTestId("signup-modal");
    await expect(modal).toBeVisible();
    await expectPath(page, "/");
    await page.keyboard.press("Escape");
    await expect(modal).toBeHidden();
  });
});
