import type { Page } from "@playwright/test";
import { accounts, expect, expectPath, login, readLocale, test, text } from "./fixtures";
import { newAccountDetails } from "./accounts-support";

/**
 * Landers, JavaScript on and off: the nine designs in the lander layout with members, the signup at
 * their end creating the account (tinderswipe swiped by its buttons, and the gallery), copy variants by slug,
 * 404 for unknown designs, a member sent to the members area, and the entry warning for NL and DE visitors only.
 */

const landers = ["tinderswipe", "alonetonight", "collagelanding", "gallery", "iconslanding", "maplanding", "socialnetwork", "transitionsvideolanding", "video"];
const en = readLocale("en", "landers");

async function expectLanderLayout(page: Page, design: string) {
  await expect(page.getByTestId("lander"), design).toHaveAttribute("data-design", design);
  const banner = page.getByRole("banner");
  // The brand bar only: the brand link, no member navigation, no login button.
  await expect(banner.getByRole("link"), design).toHaveCount(1);
  await expect(page.getByRole("navigation", { name: "Main navigation" }), design).toHaveCount(0);
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Complaints" }), design).toBeVisible();
}

async function fillSignup(page: Page) {
  const account = newAccountDetails();
  const form = page.getByTestId("lander-signup");
  await form.getByLabel("E-mail address").fill(account.email);
  await form.getByLabel("Username").fill(account.name);
  await form.getByLabel("Date of birth", { exact: true }).fill("1989-09-23");
  await form.getByLabel("Password", { exact: true }).fill(account.password);
  await form.getByRole("button", { name: "Create account" }).click();
  return account;
}

// One test a design: each loads a page full of photos, and together they would outlast one test's timeout on a busy machine.
for (const design of landers) {
  test(`the ${design} lander shows members in the lander layout and ends in the signup form`, async ({ page }) => {
    const path = design === "tinderswipe" ? "/landers/tinderswipe" : `/landers/${design}/summer-campaign`;
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expectLanderLayout(page, design);
    expect(await page.getByTestId("lander-member").count(), `${design} shows members`).toBeGreaterThan(0);
    await expect(page.getByRole("heading", { level: 1 }), design).toHaveText(text(en, `${design}.headline`));
    await expect(page, design).toHaveTitle(`${text(en, `${design}.headline`)} | Rendezvous`);
    // Every photo is the site's own (nothing from third parties) and every image has an alt attribute.
    for (const src of await page.locator("img").evaluateAll((images) => images.map((img) => (img as HTMLImageElement).src))) expect(new URL(src).host, src).toBe(new URL(page.url()).host);
    expect(await page.locator("img:not([alt])").count(), design).toBe(0);
    if (design !== "tinderswipe") await expect(page.getByTestId("lander-signup").getByRole("button", { name: "Create account" }), design).toBeVisible();
  });
}

test("the map lander lists members by region, site-run profiles with their label", async ({ page }) => {
  // The map lists 24 members, among them the demo data's fictional ones.
  await page.goto("/landers/maplanding");
  expect(await page.getByTestId("fictional-badge").count()).toBeGreaterThan(0);
  await expect(page.getByTestId("member-map").getByRole("img")).toHaveAccessibleName(text(en, "maplanding.mapLabel"));
  expect(await page.getByTestId("map-region").count()).toBeGreaterThan(1);
});

test("a slug chooses a copy variant, the language comes from the URL, unknown designs are 404", async ({ page }) => {
  await page.goto("/landers/gallery/discreet");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(text(en, "variants.discreet.headline"));
  await page.goto("/landers/collagelanding/MILF");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(text(en, "variants.mature.headline"));

  const nl = readLocale("nl", "landers");
  await page.goto("/nl/landers/alonetonight");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(text(nl, "alonetonight.headline"));
  await expect(page.getByTestId("lander-signup").getByRole("heading")).toHaveText(text(nl, "shared.joinTitle"));
  await expect(page.locator("html")).toHaveAttribute("lang", "nl");

  for (const path of ["/landers/nosuchdesign", "/landers/nosuchdesign/slug", "/landers/tinderswipe/slug", "/landers/gallery/a/b", "/nl/landers/unknown"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
});

test("tinderswipe: Like and Pass buttons move through the cards, then the signup creates the account", { tag: "@nojs" }, async ({ page, context }) => {
  await page.goto("/landers/tinderswipe?network=lander-net&ref=swipe7");
  await expectLanderLayout(page, "tinderswipe");
  const progress = page.getByTestId("swipe-progress");
  await expect(progress).toHaveText(/^Profile 1 of (\d+)$/);
  const total = Number(/of (\d+)/.exec((await progress.textContent()) ?? "")![1]);
  expect(total).toBeGreaterThan(1);
  // No form before the last card.
  await expect(page.getByTestId("lander-signup")).toHaveCount(0);

  const firstName = await page.getByTestId("swipe-card").getByTestId("lander-member").textContent();
  await page.getByRole("link", { name: /^Like / }).click();
  await expect(progress).toHaveText(`Profile 2 of ${total}`);
  expect(await page.getByTestId("swipe-card").getByTestId("lander-member").textContent()).not.toBe(firstName);
  await page.getByRole("link", { name: /^Pass on / }).click();
  await expect(progress).toHaveText(`Profile 3 of ${total}`);
  let liked = 1;
  for (let card = 3; card <= total; card++) {
    await page.getByTestId("swipe-like").click();
    liked++;
    if (card < total) await expect(progress).toHaveText(`Profile ${card + 1} of ${total}`);
  }
  await expect(page.getByTestId("swipe-done")).toBeVisible();
  await expect(page.getByTestId("lander-signup").getByRole("heading")).toHaveText(text(en, "tinderswipe.doneTitle"));
  await expect(page.getByTestId("lander-signup")).toContainText(`You liked ${liked} members.`);

  await fillSignup(page);
  await expectPath(page, "/signup/2");
  expect((await context.cookies()).find((c) => c.name === "rdv_tracking")?.value).toContain("lander-net");
});

test("gallery: the signup at the end of the page creates the account and goes on to the next signup step", { tag: "@nojs" }, async ({ page }) => {
  await page.goto("/landers/gallery/discreet?network=lander-net&sub1=gallery");
  await expectLanderLayout(page, "gallery");
  await page.getByTestId("lander-cta").click();
  await fillSignup(page);
  await expectPath(page, "/signup/2");
  await expect(page.getByTestId("activation-reminder")).toBeVisible();
});

test("a logged-in member who opens a lander is sent to the members area", async ({ page }) => {
  await login(page, accounts.free);
  await page.goto("/landers/video");
  await expectPath(page, "/members");
});

test.describe("entry warning on landers", () => {
  test.use({ entryWarningSkipped: false });
  // web trusts X-Forwarded-For from loopback in the e2e run (TRUST_PROXY=loopback, playwright.config.ts): these addresses are in NL, DE and GB.
  const visitors = [
    { country: "NL", ip: "145.100.0.1", warned: true },
    { country: "DE", ip: "85.214.132.117", warned: true },
    { country: "GB", ip: "81.2.69.160", warned: false },
  ];
  for (const { country, ip, warned } of visitors) {
    test(`${warned ? "shows" : "does not show"} to a visitor from ${country}`, async ({ page }) => {
      await page.setExtraHTTPHeaders({ "X-Forwarded-For": ip });
      await page.goto("/landers/iconslanding");
      await expectLanderLayout(page, "iconslanding");
      await expect(page.getByTestId("entry-warning")).toHaveCount(warned ? 1 : 0);
      if (warned) await expect(page.getByRole("dialog").and(page.getByTestId("entry-warning"))).toBeVisible();
      else {
        // The same visitor is warned on a default-layout page: it is the lander layout that spares them.
        await page.goto("/pages/faq");
        await expect(page.getByRole("dialog").and(page.getByTestId("entry-warning"))).toBeVisible();
      }
    });
  }
});
