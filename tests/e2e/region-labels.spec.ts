import type { Page } from "@playwright/test";
import { expect, hydrated, test, sameOrigin } from "./fixtures";
import { membersDeletedAfterEach } from "./accounts-support";

/**
 * Region labels (docs/product.md §9): the region field and filter are named as the country names its regions
 * (contract/region-kinds.ts), in the page's language, on /profile, /signup/3 and the search on /members; the
 * region lists hold only the regions people live in.
 */

const member = membersDeletedAfterEach();

function profileForm(page: Page) {
  return page.locator("#profile-form");
}

/** With JavaScript the region field follows the chosen country at once; without, the form is posted to list its regions. */
async function chooseCountry(page: Page, label: string, javaScriptEnabled: boolean | undefined): Promise<void> {
  const form = profileForm(page);
  // A choice made before hydration is kept (the test below); here the choice is made with the page's code running.
  if (javaScriptEnabled) await hydrated(form.getByLabel("Country"));
  await form.getByLabel("Country").selectOption({ label });
  if (!javaScriptEnabled) await form.getByRole("button", { name: "Show the regions of this country" }).click();
}

async function save(page: Page): Promise<void> {
  await profileForm(page).getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your profile has been saved." })).toBeVisible();
}

test("the profile's region field says State for the US and Canton for Switzerland, and the Dutch words on /nl/profile", { tag: "@nojs" }, async ({ browser, baseURL, javaScriptEnabled }) => {
  const { page } = await member(browser, baseURL);
  const form = profileForm(page);
  await page.goto("/profile");

  await chooseCountry(page, "United States", javaScriptEnabled);
  const state = form.getByLabel("State", { exact: true });
  await expect(state.getByRole("option", { name: "Texas" })).toHaveCount(1);
  // The states, DC and the inhabited territories; not the uninhabited islands.
  await expect(state.getByRole("option", { name: "District of Columbia" })).toHaveCount(1);
  for (const island of ["Baker Island", "Wake Island", "Midway Atoll", "United States Minor Outlying Islands"]) await expect(state.getByRole("option", { name: island })).toHaveCount(0);
  await expect(form.getByLabel("Region", { exact: true })).toHaveCount(0);
  await state.selectOption({ label: "Texas" });
  await save(page);

  await page.goto("/profile");
  await expect(form.getByLabel("State", { exact: true })).toHaveValue("TX");
  await page.goto("/nl/profile");
  await expect(form.getByLabel("Staat", { exact: true })).toHaveValue("TX");

  await page.goto("/profile");
  await chooseCountry(page, "Switzerland", javaScriptEnabled);
  await expect(form.getByLabel("State", { exact: true })).toHaveCount(0);
  await form.getByLabel("Canton", { exact: true }).selectOption({ label: "Zürich" });
  await save(page);

  await page.goto("/profile");
  await expect(form.getByLabel("Canton", { exact: true })).toHaveValue("ZH");
  await page.goto("/nl/profile");
  await expect(form.getByLabel("Kanton", { exact: true })).toHaveValue("ZH");
  await page.goto("/de/profile");
  await expect(form.getByLabel("Kanton", { exact: true })).toHaveValue("ZH");
});

test("a country chosen and a city typed before the page's code has run are kept, with that country's regions", async ({ browser, baseURL }) => {
  const { page } = await member(browser, baseURL);
  const form = profileForm(page);
  // The page's code waits until the member has chosen: a slow phone that shows the HTML long before its scripts.
  let release: () => void = () => undefined;
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto("/profile", { waitUntil: "commit" });
  await form.getByLabel("Country").selectOption({ label: "Switzerland" });
  await form.getByLabel("City", { exact: true }).fill("Basel");
  release();

  await hydrated(form.getByLabel("Country"));
  await expect(form.getByLabel("Canton", { exact: true }).getByRole("option", { name: "Zürich" })).toHaveCount(1);
  await expect(form.getByLabel("Country")).toHaveValue("CH");
  await expect(form.getByLabel("City", { exact: true })).toHaveValue("Basel");
  await form.getByLabel("Canton", { exact: true }).selectOption({ label: "Zürich" });
  await save(page);
  await page.goto("/profile");
  await expect(form.getByLabel("Canton", { exact: true })).toHaveValue("ZH");
  await expect(form.getByLabel("City", { exact: true })).toHaveValue("Basel");
});

test("signup step 3 and the search filter name the regions of their country", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const { page } = await member(browser, baseURL);
  const put = await page.request.put("/api/profile.php", { headers: sameOrigin, data: { country: "CH", region: "BE" } });
  expect(put.status(), await put.text()).toBe(200);

  // Signup step 3 lists the regions of the member's country.
  await page.goto("/signup/3");
  await expect(page.getByLabel("Canton", { exact: true })).toHaveValue("BE");
  await page.goto("/nl/signup/3");
  await expect(page.getByLabel("Kanton", { exact: true })).toHaveValue("BE");

  // The search: a region filter once a country is searched, named after that country's regions.
  await page.goto("/members");
  const search = page.getByTestId("search-form");
  await expect(search.getByLabel("Region", { exact: true })).toBeDisabled();
  await search.getByLabel("Country").selectOption({ label: "United States" });
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/country=US/);
  await expect(search.getByLabel("State", { exact: true })).toBeEnabled();
  await expect(search.getByLabel("State", { exact: true }).getByRole("option", { name: "Wake Island" })).toHaveCount(0);

  const labels: [string, string][] = [
    ["/members?country=CH", "Canton"],
    ["/members?country=PL", "Voivodeship"],
    ["/members?country=GB", "County"],
    ["/nl/members?country=US", "Staat"],
    ["/nl/members?country=NL", "Provincie"],
    ["/de/members?country=DE", "Bundesland"],
    ["/de/members?country=US", "Bundesstaat"],
    ["/pl/members?country=PL", "Województwo"],
  ];
  for (const [path, label] of labels) {
    await page.goto(path);
    await expect(search.getByLabel(label, { exact: true }), path).toBeEnabled();
  }
});
