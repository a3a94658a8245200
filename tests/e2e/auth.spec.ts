import { accounts, brandLink, expect, expectHtmlLang, expectPath, fillLogin, header, login, openAccountMenu, test, unknownEmail } from "./fixtures";

test.describe("login", () => {
  test("a wrong password shows the error and keeps the e-mail address", { tag: "@nojs" }, async ({ page }) => {
    const email = unknownEmail();
    await page.goto("/login");
    await fillLogin(page, email, "not-the-password");

    const error = page.getByRole("alert");
    await expect(error).toHaveText("Login failed, please try again");
    await expect(page.getByTestId("form-error")).toBeVisible();
    await expectPath(page, "/login");
    await expect(page.getByLabel("E-mail address")).toHaveValue(email);
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page.getByTestId("account-menu")).toHaveCount(0);
  });

  test("a free member lands on the member search with the member navigation", { tag: "@nojs" }, async ({ page }) => {
    const account = accounts.free;
    await login(page, account);

    const nav = header(page).getByRole("navigation");
    await expect(nav.getByRole("link", { name: "Search", exact: true })).toHaveAttribute("href", "/members");
    // The demo member has unread messages: the link's name carries its badge ("Messages 3 unread messages").
    await expect(nav.getByRole("link", { name: /^Messages\b/ })).toHaveAttribute("href", "/chats");
    await expect(nav.getByRole("link", { name: "Likes", exact: true })).toHaveAttribute("href", "/likes");
    const premium = page.getByTestId("nav-premium");
    await expect(premium).toBeVisible();
    await expect(premium).toContainText("Get Premium");
    await expect(page.getByTestId("nav-credits")).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Login", exact: true })).toHaveCount(0);

    const menu = page.getByTestId("account-menu");
    await expect(menu.locator("summary")).toContainText(account.name);
    await openAccountMenu(page);
    await expect(menu.getByRole("link", { name: "My profile", exact: true })).toHaveAttribute("href", "/profile");
    await expect(menu.getByRole("link", { name: "Settings", exact: true })).toHaveAttribute("href", "/notifications");
    await expect(menu.getByRole("button", { name: "Logout", exact: true })).toBeVisible();

    // Member cards: a photo (or a placeholder for the few without), name and age. Other tests sign up
    // (photo-less) men who are newest in the search, so look at the women, who are nearly all demo members.
    await page.goto("/members?gender=female");
    // The live-cam tiles among them are advertising, not members (search.spec.ts).
    const cards = page.getByTestId("member-cards").getByRole("listitem").filter({ hasNot: page.getByTestId("cam-tile") });
    await expect(cards.first()).toBeVisible();
    const count = await cards.count();
    expect(count).toBeGreaterThanOrEqual(10);
    let photos = 0;
    for (let i = 0; i < Math.min(count, 12); i++) {
      const card = cards.nth(i);
      const line = (await card.locator("p").first().innerText()).trim();
      const match = /^(.+), (\d+)$/.exec(line);
      expect(match, `card ${i} shows "name, age", got "${line}"`).not.toBeNull();
      const age = Number(match?.[2]);
      expect(age).toBeGreaterThanOrEqual(18);
      expect(age).toBeLessThan(100);
      await expect(card.getByRole("link")).toHaveAttribute("href", /^\/members\/\d+$/);
      const image = card.getByRole("img");
      if ((await image.count()) > 0) {
        await expect(image).toHaveAttribute("alt", match?.[1] ?? "");
        photos++;
      }
    }
    expect(photos, "most members have a photo").toBeGreaterThan(5);

    // A photo is really served.
    const src = await cards.getByRole("img").first().getAttribute("src");
    expect(src).toBeTruthy();
    const photo = await page.request.get(new URL(src ?? "", page.url()).href);
    expect(photo.status()).toBe(200);
    expect(photo.headers()["content-type"]).toMatch(/^image\//);
  });

  test("a premium member sees the Credits link with the balance and no Get Premium", async ({ page }) => {
    const account = accounts.premium;
    await login(page, account);
    const credits = page.getByTestId("nav-credits");
    await expect(credits).toBeVisible();
    await expect(credits).toContainText("Credits");
    await expect(credits).toContainText(String(account.credits));
    await expect(credits).toHaveAttribute("href", "/credits");
    await expect(page.getByTestId("nav-premium")).toHaveCount(0);
    await expect(page.getByTestId("account-menu").locator("summary")).toContainText(account.name);
  });

  test("the brand link goes home when logged out and to the members when logged in", async ({ page }) => {
    await page.goto("/pages/faq");
    await expect(brandLink(page)).toHaveAttribute("href", "/");
    await brandLink(page).click();
    await expectPath(page, "/");

    await login(page, accounts.free);
    await page.goto("/pages/faq");
    await expect(brandLink(page)).toHaveAttribute("href", "/members");
    await brandLink(page).click();
    await expectPath(page, "/members");
    await expect(page.getByTestId("member-cards")).toBeVisible();
  });

  test("the member search asks a visitor to log in first, then returns there", { tag: "@nojs" }, async ({ page }) => {
    await page.goto("/members?page=2");
    await expectPath(page, "/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/members?page=2");
    await fillLogin(page, accounts.free.email, accounts.free.password);
    await expectPath(page, "/members?page=2", { withSearch: true });
    await expect(page.getByRole("heading", { level: 1, name: "Newest members" })).toBeVisible();
  });
});

test.describe("logout", () => {
  test("via the account menu: back home, logged out, members need a login again", { tag: "@nojs" }, async ({ page }) => {
    await login(page, accounts.free);
    const menu = await openAccountMenu(page);
    await menu.getByRole("button", { name: "Logout", exact: true }).click();

    await expectPath(page, "/");
    await expectHtmlLang(page, "en");
    await expect(header(page).getByRole("link", { name: "Login", exact: true })).toBeVisible();
    await expect(page.getByTestId("account-menu")).toHaveCount(0);
    await expect(brandLink(page)).toHaveAttribute("href", "/");

    await page.goto("/members");
    await expectPath(page, "/login");
    await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  });
});
