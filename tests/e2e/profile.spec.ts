import type { Page } from "@playwright/test";
import { UserResponse } from "#contract/user";
import { expect, expectPath, test, sameOrigin } from "./fixtures";
import { signUp } from "./accounts-support";

/** The own profile page (/profile): every field, validation, invisible mode and the location block. */

function profileForm(page: Page) {
  return page.locator("#profile-form");
}

async function save(page: Page): Promise<void> {
  await profileForm(page).getByRole("button", { name: "Save profile" }).click();
}

/** The member as the api answers them (through web's /api proxy, with the page's session). */
async function apiProfile(page: Page) {
  const response = await page.request.get("/api/user.php");
  const { user } = UserResponse.parse(await response.json());
  if (!user) throw new Error("not logged in");
  return user.profile;
}

/** A country's regions: with JavaScript they load on choosing it; without, the form is posted to list them. */
async function chooseCountry(page: Page, label: string, javaScriptEnabled: boolean | undefined): Promise<void> {
  const form = profileForm(page);
  await form.getByLabel("Country").selectOption({ label });
  if (!javaScriptEnabled) await form.getByRole("button", { name: "Show the regions of this country" }).click();
}

test.describe("own profile", () => {
  test("is for members only", async ({ page }) => {
    await page.goto("/profile");
    await expectPath(page, "/login?redirectTo=%2Fprofile", { withSearch: true });
  });

  test("a new member edits every field, saves, and sees the values after a reload", { tag: "@nojs" }, async ({ page, javaScriptEnabled }) => {
    const account = await signUp(page.request);
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "My profile" })).toBeVisible();
    const form = profileForm(page);
    await expect(form.getByLabel("Username")).toHaveValue(account.name);
    await expect(form.getByLabel("Date of birth")).toHaveValue("1990-05-17");

    await form.getByLabel("Username").fill("Renamed Member");
    await form.getByLabel("Date of birth").fill("1988-03-04");
    await form.getByRole("radio", { name: "Woman" }).check();
    await form.getByLabel("I am interested in").selectOption({ label: "Men and women (bi)" });
    await chooseCountry(page, "Germany", javaScriptEnabled);
    await form.getByLabel("State", { exact: true }).selectOption({ label: "Berlin" });
    await form.getByLabel("City").fill("Berlin");
    await form.getByRole("textbox", { name: "About me" }).fill("I love the theatre.");
    await form.getByText("Music", { exact: true }).click();
    await form.getByText("Theatre", { exact: true }).click();
    await form.getByLabel("Hair colour").selectOption({ label: "Red" });
    await form.getByLabel("Eye colour").selectOption({ label: "Green" });
    await form.getByLabel("Body type").selectOption({ label: "Athletic" });
    await form.getByLabel("Relationship status").selectOption({ label: "Divorced" });
    // The default site shows neither tattoos nor the reason for signing up (settings.visible_profile_fields).
    await expect(form.getByLabel("Tattoos")).toHaveCount(0);
    await expect(form.getByLabel("I am here for")).toHaveCount(0);
    await save(page);
    await expect(page.getByRole("status").filter({ hasText: "Your profile has been saved." })).toBeVisible();

    // A fresh load (a reload could post the form again without JavaScript).
    await page.goto("/profile");
    await expect(form.getByLabel("Username")).toHaveValue("Renamed Member");
    await expect(form.getByLabel("Date of birth")).toHaveValue("1988-03-04");
    await expect(form.getByRole("radio", { name: "Woman" })).toBeChecked();
    await expect(form.getByLabel("I am interested in")).toHaveValue("bi");
    await expect(form.getByLabel("Country")).toHaveValue("DE");
    await expect(form.getByLabel("State", { exact: true })).toHaveValue("BE");
    await expect(form.getByLabel("City")).toHaveValue("Berlin");
    await expect(form.getByRole("textbox", { name: "About me" })).toHaveValue("I love the theatre.");
    await expect(form.getByRole("checkbox", { name: "Music" })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: "Theatre" })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: "Travel" })).not.toBeChecked();
    await expect(form.getByLabel("Hair colour")).toHaveValue("red");
    await expect(form.getByLabel("Eye colour")).toHaveValue("green");
    await expect(form.getByLabel("Body type")).toHaveValue("athletic");
    await expect(form.getByLabel("Relationship status")).toHaveValue("divorced");
    // The account menu shows the new name.
    await expect(page.getByTestId("account-menu")).toContainText("Renamed Member");

    // A blank choice clears the value again.
    await form.getByLabel("Hair colour").selectOption({ label: "Not specified" });
    await form.getByText("Music", { exact: true }).click();
    await save(page);
    await expect(page.getByRole("status").filter({ hasText: "Your profile has been saved." })).toBeVisible();
    const profile = await apiProfile(page);
    expect(profile.hair_color).toBeNull();
    expect(profile.interests).toHaveLength(1);
  });

  test("an invalid date of birth and a name starting with @ are refused with a message on the field", { tag: "@nojs" }, async ({ page }) => {
    await signUp(page.request);
    await page.goto("/profile");
    const form = profileForm(page);
    const tenYearsAgo = new Date(Date.now() - 10 * 365.25 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await form.getByLabel("Date of birth").fill(tenYearsAgo);
    await form.getByLabel("Username").fill("@someone");
    await save(page);
    await expect(form.getByText("Invalid date of birth.")).toBeVisible();
    await expect(form.getByText("Your username may not start with @.")).toBeVisible();
    await expect(form.getByLabel("Date of birth")).toHaveAttribute("aria-invalid", "true");
    await page.goto("/profile");
    await expect(form.getByLabel("Date of birth")).toHaveValue("1990-05-17");
    expect((await apiProfile(page)).date_of_birth).toBe("1990-05-17");
  });

  test("invisible mode is turned on and off", { tag: "@nojs" }, async ({ page }) => {
    await signUp(page.request);
    await page.goto("/profile");
    const block = page.getByTestId("invisible-mode");
    await expect(block.getByTestId("invisible-state")).toHaveText("Invisible mode is off: other members can find you.");
    await block.getByRole("button", { name: "Turn invisible mode on" }).click();
    await expect(block.getByRole("status")).toHaveText("You are invisible now.");
    await expect(block.getByTestId("invisible-state")).toHaveText("Invisible mode is on: other members do not see you.");
    expect((await apiProfile(page)).invisible).toBe(true);

    await block.getByRole("button", { name: "Turn invisible mode off" }).click();
    await expect(block.getByRole("status")).toHaveText("You are visible again.");
    await expect(block.getByTestId("invisible-state")).toHaveText("Invisible mode is off: other members can find you.");
    expect((await apiProfile(page)).invisible).toBe(false);
  });

  test("links to photos, account settings and deletion; the account page shows the current e-mail", async ({ page }) => {
    const account = await signUp(page.request);
    await page.goto("/profile");
    await expect(page.getByTestId("manage-photos")).toHaveAttribute("href", "/profile/photos");
    const links = page.getByTestId("account-links");
    await expect(links.getByRole("link", { name: "Delete account" })).toHaveAttribute("href", "/profile/delete");
    await links.getByRole("link", { name: "E-mail address and password" }).click();
    await expectPath(page, "/profile/account");
    await expect(page.getByTestId("current-email")).toHaveText(`Current e-mail address: ${account.email}`);
  });

  test("a region of the old country is refused after the country changed, with the new country's regions to choose from", { tag: "@nojs" }, async ({ page, javaScriptEnabled }) => {
    test.skip(Boolean(javaScriptEnabled), "with JavaScript the region list follows the country at once");
    await signUp(page.request);
    const put = await page.request.put("/api/profile.php", { headers: sameOrigin, data: { country: "NL", region: "NH" } });
    expect(put.status()).toBe(200);
    await page.goto("/profile");
    const form = profileForm(page);
    await expect(form.getByRole("button", { name: "Use my location" })).toHaveCount(0);
    await expect(form.getByLabel("Province", { exact: true })).toHaveValue("NH");
    await form.getByLabel("Country").selectOption({ label: "Germany" });
    await save(page);
    await expect(form.getByText("This region is not in the chosen country. Please choose a region from the list.")).toBeVisible();
    await form.getByLabel("State", { exact: true }).selectOption({ label: "Bavaria" });
    await save(page);
    await expect(page.getByRole("status").filter({ hasText: "Your profile has been saved." })).toBeVisible();
    expect(await apiProfile(page)).toMatchObject({ country: "DE", region: "BY" });
  });
});

test.describe("own profile: location with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the location button needs JavaScript");

  test("choosing a country loads its regions", async ({ page }) => {
    await signUp(page.request);
    await page.goto("/profile");
    const form = profileForm(page);
    await expect(form.getByRole("button", { name: "Show the regions of this country" })).toHaveCount(0);
    await form.getByLabel("Country").selectOption({ label: "Germany" });
    await expect(form.getByLabel("State", { exact: true }).getByRole("option", { name: "Bavaria" })).toHaveCount(1);
    await expect(form.getByLabel("State", { exact: true }).getByRole("option", { name: "North Holland" })).toHaveCount(0);
  });

  test("the geolocation button fills in country, region and city", async ({ page, context, baseURL }) => {
    await signUp(page.request);
    await context.grantPermissions(["geolocation"], { origin: baseURL });
    await context.setGeolocation({ latitude: 48.8566, longitude: 2.3522 });
    await page.goto("/profile");
    const block = page.getByTestId("location-block");
    await block.getByRole("button", { name: "Use my location" }).click();
    await expect(block.getByTestId("location-status")).toHaveText("Your location has been filled in. Check it and save your profile.");
    await expect(block).toHaveAttribute("data-state", "found");
    const form = profileForm(page);
    await expect(form.getByLabel("Country")).toHaveValue("FR");
    await expect(form.getByLabel("Region")).toHaveValue("IDF");
    await expect(form.getByLabel("City")).toHaveValue("Paris");
    await save(page);
    await expect(page.getByRole("status").filter({ hasText: "Your profile has been saved." })).toBeVisible();
    expect(await apiProfile(page)).toMatchObject({ country: "FR", region: "IDF", city: "Paris" });
  });

  test("the geolocation button shows the error state when access is denied", async ({ page, context }) => {
    await signUp(page.request);
    await context.clearPermissions();
    await page.goto("/profile");
    const block = page.getByTestId("location-block");
    await block.getByRole("button", { name: "Use my location" }).click();
    await expect(block).toHaveAttribute("data-state", "error");
    await expect(block.getByTestId("location-status")).toHaveText("You did not allow access to your location. Please choose your location yourself.");
    await expect(profileForm(page).getByLabel("Country")).toHaveValue("NL");
  });

  test("the geolocation button shows the error state when nothing is found there", async ({ page, context, baseURL }) => {
    await signUp(page.request);
    await context.grantPermissions(["geolocation"], { origin: baseURL });
    await context.setGeolocation({ latitude: 0, longitude: -30 });
    await page.goto("/profile");
    const block = page.getByTestId("location-block");
    await block.getByRole("button", { name: "Use my location" }).click();
    await expect(block).toHaveAttribute("data-state", "error");
    await expect(block.getByTestId("location-status")).toHaveText("Your location could not be found. Please choose your location yourself.");
  });
});
