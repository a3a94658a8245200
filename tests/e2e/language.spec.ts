import type { BrowserContext } from "@playwright/test";
import { chooseLanguage, expect, expectHtmlLang, expectPath, header, readLocale, test, text } from "./fixtures";
import { createActivatedMember } from "./accounts-support";

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

/**
 * The locale prefix is the basename of the page's request handler (docs/decisions/013-the-locale-prefix-as-basename.md):
 * the routes name paths without it and Remix puts it in front of every link, form and redirect, once.
 */
test("on a Dutch page every link, form and redirect keeps the prefix, once", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const maker = await browser.newContext({ baseURL });
  const member = await createActivatedMember(maker.request);
  await maker.close();
  const context = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.use.javaScriptEnabled });
  await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "" }]);
  const page = await context.newPage();
  const nl = readLocale("nl");

  // A visitor who opens a member page is sent to log in under the prefix, and comes back there after.
  await page.goto("/nl/chats");
  await expectPath(page, "/nl/login");
  expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/chats");
  await page.getByLabel(text(nl, "login.email")).fill(member.email);
  await page.getByLabel(text(nl, "login.password")).fill(member.password);
  await page.getByRole("button", { name: text(nl, "login.submit"), exact: true }).click();
  await expectPath(page, "/nl/chats");

  await page.goto("/nl/members");
  await expectHtmlLang(page, "nl");
  const paths = await page.evaluate(() => [
    ...[...document.querySelectorAll("a[href^='/']")].map((a) => a.getAttribute("href") ?? ""),
    ...[...document.querySelectorAll("form[action^='/']")].map((form) => form.getAttribute("action") ?? ""),
  ]);
  expect(paths.length).toBeGreaterThan(10);
  // The language menu's form alone goes to the unprefixed /lang-config (it names the new language's path itself).
  const outside = paths.filter((path) => path !== "/lang-config" && !/^\/nl(\/|\?|#|$)/.test(path));
  expect(outside, "in-site links and forms without the prefix").toEqual([]);
  expect(paths.filter((path) => path.startsWith("/nl/nl")), "links with the prefix twice").toEqual([]);

  // A link followed (by the browser's router with JavaScript, as a document without) stays Dutch.
  await page.getByTestId("member-cards").getByRole("link").first().click();
  await expect(page).toHaveURL(/\/nl\/members\/\d+$/);
  await expectHtmlLang(page, "nl");
  await context.close();
});
