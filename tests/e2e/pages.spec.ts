import { expect, expectHtmlLang, header, pageText, readLocale, test, text } from "./fixtures";

/** The seed's company (api/db/seed.ts): added 2024-03-15, later than the 2023-12-01 floor of docs/product.md §9. */
const company = "Rendezvous Media B.V.";
const termsDate = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(new Date("2024-03-15T09:00:00Z"));

const staticPages = ["ban", "cookies", "faq", "privacy", "return-policy", "service", "terms", "2257-compliance-statement"];

test.describe("static pages", () => {
  test("the terms show their title with the company and the terms date filled in", async ({ page }) => {
    const response = await page.goto("/pages/terms");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms and conditions");
    await expect(page).toHaveTitle(/Terms and conditions/);
    const main = page.getByRole("main");
    await expect(main).toContainText(company);
    await expect(main).toContainText(termsDate);
    await expect(main).toContainText("Herengracht 182");
    const body = await pageText(page);
    expect(body).not.toContain("{{");
    expect(body).not.toContain("}}");
  });

  test("every static page renders with its placeholders filled", async ({ page }) => {
    for (const name of staticPages) {
      const response = await page.goto(`/pages/${name}`);
      expect(response?.status(), `/pages/${name}`).toBe(200);
      await expect(page.getByRole("heading", { level: 1 }), `/pages/${name}`).not.toBeEmpty();
      const body = await pageText(page);
      expect(body, `/pages/${name}`).not.toMatch(/\{\{|\}\}/);
    }
  });

  test("an unknown static page is a 404", async ({ page }) => {
    const response = await page.goto("/pages/unknown-page");
    expect(response?.status()).toBe(404);
    const errorPage = page.getByTestId("error-page");
    await expect(errorPage).toBeVisible();
    await expect(errorPage.getByRole("heading", { level: 1 })).toHaveText("This page could not be found");
  });
});

test.describe("404 page", () => {
  test("an unknown address answers 404 with the message and a link home", async ({ page }) => {
    for (const path of ["/no-such-page", "/some/deeper/unknown/path"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expectHtmlLang(page, "en");
      const errorPage = page.getByTestId("error-page");
      await expect(errorPage).toContainText("404");
      await expect(errorPage.getByRole("heading", { level: 1 })).toHaveText("This page could not be found");
      await expect(errorPage.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/");
    }
    // The layout is still there (navigation and footer), and the link works.
    await expect(header(page).getByRole("link", { name: "Login", exact: true })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await page.getByTestId("error-page").getByRole("link", { name: "Back to the home page" }).click();
    await expect(page).toHaveURL(/:\d+\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Meet exciting singles near you");
  });

  test("in Dutch: /nl/no-such-page answers 404 in Dutch with a link to the Dutch home", async ({ page }) => {
    const response = await page.goto("/nl/no-such-page");
    expect(response?.status()).toBe(404);
    await expectHtmlLang(page, "nl");
    const errorPage = page.getByTestId("error-page");
    await expect(errorPage).toContainText("404");
    await expect(errorPage.getByRole("heading", { level: 1 })).not.toHaveText("This page could not be found");
    const homeLink = errorPage.getByRole("link");
    await expect(homeLink).toHaveAttribute("href", "/nl");
    const nl = readLocale("nl");
    await expect(errorPage.getByRole("heading", { level: 1 })).toHaveText(text(nl, "errors.notFound"));
    await expect(homeLink).toHaveText(text(nl, "errors.backHome"));
  });
});
