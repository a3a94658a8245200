import type { Locator, Page } from "@playwright/test";
import { clickAndWaitForPost, expect, hydrated, test } from "./fixtures";
import { membersDeletedAfterEach, newAccountDetails, signUp } from "./accounts-support";

/**
 * Every dialog is the one Modal part (app/components/ui/modal.tsx, docs/ui.md), a native <dialog> opened
 * with showModal() once the page runs JavaScript: the page behind is inert (the dialog is :modal), focus moves
 * in when it opens and back to the opener when it closes, and Escape closes only the dialogs docs/product.md
 * lets close. (Without JavaScript each dialog is the server's open <dialog>: the feature specs test those flows.)
 */

const activeMember = membersDeletedAfterEach();

/** The one modal dialog of the page, which has the focus. */
async function expectModalWithFocus(page: Page, dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect(page.locator("dialog:modal")).toHaveCount(1);
  await expect(dialog).toHaveJSProperty("open", true);
  expect(await dialog.evaluate((node) => node.matches(":modal") && node.contains(document.activeElement) && document.activeElement !== node.ownerDocument.body)).toBe(true);
}

test.describe("the site-entry warning", () => {
  test.use({ entryWarningSkipped: false });

  test("is modal, and neither Escape nor a click outside closes it: only passing it", async ({ page }) => {
    await page.goto("/pages/faq");
    const warning = page.getByRole("dialog", { name: "Adults only" });
    await hydrated(warning);
    await expectModalWithFocus(page, warning);
    await expect(warning.getByRole("button", { name: "I am 18 or older: enter" })).toBeFocused();
    // Twice in a row: a browser may let a second Escape through when the page refused the first.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await warning.click({ position: { x: 5, y: 5 } });
    await expect(warning).toBeVisible();
    await expect(page.locator("dialog:modal")).toHaveCount(1);
    // The page behind is inert: its links cannot take the focus.
    const behind = page.getByRole("contentinfo").getByRole("link").first();
    expect(await behind.evaluate((link: HTMLElement) => (link.focus(), document.activeElement === link))).toBe(false);

    await warning.getByRole("button", { name: "I am 18 or older: enter" }).click();
    await expect(warning).toHaveCount(0);
    await expect(page.locator("dialog:modal")).toHaveCount(0);
  });
});

test.describe("the signup modal", () => {
  test("takes the focus, Escape closes it while idle and the focus returns to the link that opened it", async ({ page }) => {
    await page.goto("/");
    const opener = page.getByRole("banner").getByRole("link", { name: "Sign up free" });
    await hydrated(opener);
    await opener.click();
    const modal = page.getByRole("dialog", { name: "Create your free account" });
    await expectModalWithFocus(page, modal);
    await page.keyboard.press("Escape");
    await expect(modal).toBeHidden();
    await expect(page.locator("dialog:modal")).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  test("neither Escape nor the backdrop closes it while the account is being created", async ({ page }) => {
    const account = newAccountDetails();
    await page.goto("/");
    const opener = page.getByRole("banner").getByRole("link", { name: "Sign up free" });
    await hydrated(opener);
    await opener.click();
    const modal = page.getByTestId("signup-modal");
    await expectModalWithFocus(page, modal);
    await modal.getByLabel("E-mail address").fill(account.email);
    await modal.getByLabel("Username").fill(account.name);
    await modal.getByLabel("Date of birth", { exact: true }).fill("1991-04-12");
    await modal.getByLabel("Password", { exact: true }).fill(account.password);

    // The signup's request waits until the checks below are done.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = () => {};
    const posted = new Promise<void>((resolve) => (arrived = resolve));
    await page.route(/\/signup\.data/, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      arrived();
      await held;
      await route.continue();
    });
    await modal.getByRole("button", { name: "Create account" }).click();
    await posted;
    await expect(modal).toHaveAttribute("aria-busy", "true");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await modal.click({ position: { x: 5, y: 5 } });
    await expect(modal).toBeVisible();
    await expect(page.locator("dialog:modal")).toHaveCount(1);
    release();
    // Signed up: the modal gives way to the next step.
    await expect(modal).toHaveCount(0);
  });
});

test("the like modal takes the focus and Escape closes it", async ({ page }) => {
  await signUp(page.request, newAccountDetails());
  await page.goto("/members?t=0");
  const modal = page.getByTestId("like-modal");
  await expect(modal.getByRole("heading", { name: /likes you!$/ })).toBeVisible();
  await expectModalWithFocus(page, modal);
  await expect(page.getByRole("dialog", { name: /likes you!$/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(modal).toHaveCount(0);
  await expect(page.locator("dialog:modal")).toHaveCount(0);
});

test("the icebreaker modal takes the focus, Escape closes it and the focus returns to its button", async ({ browser, baseURL }) => {
  const [a, b] = [await activeMember(browser, baseURL), await activeMember(browser, baseURL)];
  await a.page.goto(`/members/${b.profileId}/chat`);
  // A first line from the empty conversation (as chat-extras.spec.ts does): then the conversation's page, hydrated.
  await a.page.getByTestId("chat-start-icebreakers").getByTestId("icebreaker").first().click();
  await expect(a.page).toHaveURL(/\/chats\/\d+/);
  await expect(a.page.getByTestId("chat-message")).toHaveCount(1);
  const opener = a.page.getByTestId("open-icebreakers");
  await hydrated(opener);
  await opener.click();
  const modal = a.page.getByTestId("chat-extras-icebreakers");
  await expectModalWithFocus(a.page, modal);
  await a.page.keyboard.press("Escape");
  await expect(modal).toHaveCount(0);
  await expect(a.page.locator("dialog:modal")).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test("the match modal takes the focus; Escape closes it", async ({ browser, baseURL }) => {
  const [alice, bob] = [await activeMember(browser, baseURL), await activeMember(browser, baseURL)];
  await alice.page.goto(`/members/${bob.profileId}`);
  await clickAndWaitForPost(alice.page, alice.page.getByTestId("like-actions").getByRole("button", { name: "Like", exact: true }));
  await expect(alice.page.getByRole("button", { name: "Liked — unlike" })).toBeVisible();

  await bob.page.goto(`/members/${alice.profileId}`);
  const likeBack = bob.page.getByRole("button", { name: "Like back" });
  await hydrated(likeBack);
  await likeBack.click();
  const modal = bob.page.getByRole("dialog", { name: "It's a match!" });
  await expectModalWithFocus(bob.page, modal);
  await bob.page.keyboard.press("Escape");
  await expect(modal).toHaveCount(0);
  await expect(bob.page.locator("dialog:modal")).toHaveCount(0);
});
