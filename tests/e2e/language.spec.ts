import type { BrowserContext } from "@playwright/test";
import { chooseLanguage, expect, expectHtmlLang, expectPath, header, readLocale, test, text } from "./fixtures";

const day = 24 * 60 * 60;

async function languageCookie(context: BrowserContext) {
  const cookies = await context.cookies();
  return cookies.find((cookie) => cookie.name === "i18n_redirected");
}

for (const path of ["/pages/faq", "/login"]) {
  test(`switching the language on ${path} keeps the page and is remembered`, { tag: "@nojs" }, async ({ page, context }) => {
    await page.goto(path);
    await expectHtmlLang(page, "en");
    expect(await languageCookie(context)).toBeUndefined();

    await chooseLanguage(page, "Nederlands");
    await expectPath(page, `/nl${path}`);
    await expectHtmlLang(page, "nl");
    await expect(page.getByTestId("language-menu").locator("summary")).toContainText("NL");
    const nl = readLocale("nl");
    await expect(header(page).getByRole("link", { name: text(nl, "nav.login"), exact: true })).toHaveAttribute("href", "/nl/login");
    // The page's own heading is Dutch too (the FAQ's title is a page text, the login form's a common one).
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(path === "/login" ? text(nl, "login.title") : text(readLocale("nl", "pages"), "faq.title"));

    // docs/product.md §1: the choice is kept in i18n_redirected for 365 days.
    const cookie = await languageCookie(context);
    expect(cookie?.value).toBe("nl");
    expect(cookie?.path).toBe("/");
    const expectedExpiry = Date.now() / 1000 + 365 * day;
    expect(cookie?.expires ?? 0).toBeGreaterThan(expectedExpiry - day);
    expect(cookie?.expires ?? 0).toBeLessThan(expectedExpiry + day);

    // An unprefixed address now goes to the Dutch one.
    await page.goto("/");
    await expectPath(page, "/nl");
    await expectHtmlLang(page, "nl");

    // Back to English: no prefix, and the cookie says so.
    await page.goto(`/nl${path}`);
    await chooseLanguage(page, "English");
    await expectPath(page, path);
    await expectHtmlLang(page, "en");
    await expect(header(page).getByRole("link", { name: "Login", exact: true })).toHaveAttribute("href", "/login");
    expect((await languageCookie(context))?.value).toBe("en");

    await page.goto("/");
    await expectPath(page, "/");
    await expectHtmlLang(page, "en");
  });
}

test("the language menu lists the languages in their own names and marks the current one", async ({ page }) => {
  await page.goto("/");
  const menu = page.getByTestId("language-menu");
  await menu.locator("summary").click();
  await expect(menu.getByRole("button", { name: "English", exact: true })).toHaveAttribute("aria-current", "true");
  await expect(menu.getByRole("button", { name: "Nederlands", exact: true })).toBeVisible();
  await expect(menu.getByRole("button", { name: "Deutsch", exact: true })).toBeVisible();
  await expect(menu.getByRole("button", { name: "Nederlands", exact: true })).not.toHaveAttribute("aria-current", "true");
});
