import { expect, expectHtmlLang, header, readLocale, test, text } from "./fixtures";

/** docs/product.md §2, navigation: the footer links, in this order. */
const footerLinks = [
  ["Terms and conditions", "/pages/terms"],
  ["Privacy policy", "/pages/privacy"],
  ["Cookie policy", "/pages/cookies"],
  ["Access ban", "/pages/ban"],
  ["Pricing", "/pricing"],
  ["Complaints", "/complaints"],
  ["Return policy", "/pages/return-policy"],
  ["FAQ", "/pages/faq"],
  ["Customer service", "/pages/service"],
] as const;

const englishHeadline = "Meet exciting singles near you";

test.describe("home", () => {
  test("in English: no prefix, Login button, footer links and the US footer", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expectHtmlLang(page, "en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(englishHeadline);
    // The site's index_title (docs/product.md §3 settings) is the home page's title.
    await expect(page).toHaveTitle("Rendezvous: meet and chat with singles near you");

    const loginLink = header(page).getByRole("link", { name: "Login", exact: true });
    await expect(loginLink).toBeVisible();
    await expect(loginLink).toHaveAttribute("href", "/login");
    await expect(page.getByTestId("account-menu")).toHaveCount(0);

    const footer = page.getByRole("contentinfo");
    const links = footer.getByRole("navigation").getByRole("link");
    await expect(links).toHaveText(footerLinks.map(([name]) => name));
    for (const [name, href] of footerLinks) {
      await expect(footer.getByRole("link", { name, exact: true }), `footer link ${name}`).toHaveAttribute("href", href);
    }

    const usFooter = page.getByTestId("us-footer");
    await expect(usFooter).toBeVisible();
    await expect(usFooter).toContainText("2257");
    await expect(usFooter.getByRole("link")).toHaveAttribute("href", "/pages/2257-compliance-statement");
  });

  test("the Login button leads to the login form", async ({ page }) => {
    await page.goto("/");
    await header(page).getByRole("link", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
    await expect(page.getByLabel("E-mail address")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeVisible();
  });

  test("in Dutch: /nl has lang nl, Dutch text and no US footer", async ({ page }) => {
    const response = await page.goto("/nl");
    expect(response?.status()).toBe(200);
    await expectHtmlLang(page, "nl");
    await expect(page.getByTestId("us-footer")).toHaveCount(0);
    await expect(page.getByText(englishHeadline)).toHaveCount(0);

    const nl = readLocale("nl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text(nl, "home.headline"));
    const loginLink = header(page).getByRole("link", { name: text(nl, "nav.login"), exact: true });
    await expect(loginLink).toBeVisible();
    await expect(loginLink).toHaveAttribute("href", "/nl/login");
    const terms = page.getByRole("contentinfo").getByRole("link", { name: text(nl, "footer.terms"), exact: true });
    await expect(terms).toHaveAttribute("href", "/nl/pages/terms");
    await expect(page.getByRole("contentinfo").getByRole("link", { name: text(nl, "footer.privacy"), exact: true })).toHaveAttribute(
      "href",
      "/nl/pages/privacy",
    );
  });
});
