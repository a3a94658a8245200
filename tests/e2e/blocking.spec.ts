import type { Page } from "@playwright/test";
import { expect, expectPath, test } from "./fixtures";
import { activeMember } from "./accounts-support";

/**
 * Blocking from a member's page (a confirm dialog with JavaScript, a confirmation
 * page without), the blocked member's message, unblocking from /profile/blocked; and visitors' search on
 * a site with logged_out_search_trafficsource (the demo site bbw.localhost).
 */

/** Whether the newest members (page 1 of the search) include `profileId`. */
async function searchShows(page: Page, profileId: number): Promise<boolean> {
  await page.goto("/members");
  await expect(page.getByTestId("member-cards")).toBeVisible();
  return (await page.getByTestId("member-cards").locator(`a[href="/members/${profileId}"]`).count()) > 0;
}

test("a member blocks another from their page, the other is shut out, and unblocking lets them back", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const js = test.info().project.use.javaScriptEnabled !== false;
  // Made now, not taken from the pool: the search's first page shows the site's newest members.
  const alice = await activeMember(browser, baseURL ?? "", { fresh: true });
  const bob = await activeMember(browser, baseURL ?? "", { fresh: true });
  expect(await searchShows(bob.page, alice.profileId)).toBe(true);

  await alice.page.goto(`/members/${bob.profileId}`);
  const actions = alice.page.getByTestId("member-actions");
  await expect(actions.getByRole("link", { name: "Send a message" })).toHaveAttribute("href", `/members/${bob.profileId}/chat`);
  await expect(actions.getByRole("link", { name: "Send a gift" })).toHaveAttribute("href", `/members/${bob.profileId}/chat?gift=1`);
  const blockLink = actions.getByRole("link", { name: "Block", exact: true });
  if (js) {
    // Cancelling the dialog blocks nobody; accepting it blocks.
    alice.page.once("dialog", (dialog) => void dialog.dismiss());
    await blockLink.click();
    await alice.page.reload();
    await expect(alice.page.getByTestId("member-actions")).toBeVisible();
    await expect(alice.page.getByTestId("member-blocked")).toHaveCount(0);
    alice.page.once("dialog", (dialog) => {
      expect(dialog.message()).toContain(`Block ${bob.name}?`);
      void dialog.accept();
    });
    await blockLink.click();
  } else {
    await blockLink.click();
    await expectPath(alice.page, `/members/${bob.profileId}/block`);
    const confirmation = alice.page.getByTestId("block-confirmation");
    await expect(confirmation.getByRole("heading", { name: `Block ${bob.name}?` })).toBeVisible();
    await confirmation.getByRole("button", { name: "Yes, block" }).click();
  }
  await expectPath(alice.page, `/members/${bob.profileId}`);
  const blockedNotice = alice.page.getByTestId("member-blocked");
  await expect(blockedNotice).toContainText(`You blocked ${bob.name}.`);
  await expect(blockedNotice.getByRole("button", { name: "Unblock" })).toBeVisible();
  await expect(alice.page.getByTestId("member-actions")).toHaveCount(0);

  // Bob is shut out of Alice's page with the message of docs/product.md §8, and no longer finds her.
  const denied = await bob.page.goto(`/members/${alice.profileId}`);
  expect(denied?.status()).toBe(403);
  const message = bob.page.getByTestId("blocked-by-member");
  await expect(message.getByRole("heading")).toHaveText(`You're blocked by ${alice.name}. You do not have access to this page.`);
  await expect(bob.page.getByTestId("member-page")).toHaveCount(0);
  await message.getByRole("link", { name: "Back to the search" }).click();
  await expectPath(bob.page, "/members");
  expect(await searchShows(bob.page, alice.profileId)).toBe(false);

  // Alice unblocks Bob from her list of blocked members.
  await alice.page.goto("/profile/blocked");
  const list = alice.page.getByTestId("blocked-list");
  await expect(list.getByRole("link", { name: new RegExp(`^${bob.name},`) })).toBeVisible();
  await list.getByRole("button", { name: `Unblock ${bob.name}` }).click();
  await expect(alice.page.getByTestId("blocked-empty")).toContainText("You have not blocked anyone.");
  await expectPath(alice.page, "/profile/blocked");

  const back = await bob.page.goto(`/members/${alice.profileId}`);
  expect(back?.status()).toBe(200);
  await expect(bob.page.getByTestId("member-page").getByRole("heading", { level: 1 })).toContainText(alice.name);
  expect(await searchShows(bob.page, alice.profileId)).toBe(true);

  await alice.page.context().close();
  await bob.page.context().close();
});

test("the confirmation page unblocks too, and an unknown member cannot be blocked", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL ?? "");
  const bob = await activeMember(browser, baseURL ?? "");
  // The confirmation page works the same with JavaScript on: it is the no-JavaScript path of the Block button.
  await alice.page.goto(`/members/${bob.profileId}/block`);
  await alice.page.getByTestId("block-confirmation").getByRole("button", { name: "Yes, block" }).click();
  await expectPath(alice.page, `/members/${bob.profileId}`);
  // Opening the confirmation page again for someone already blocked goes back to their page.
  await alice.page.goto(`/members/${bob.profileId}/block`);
  await expectPath(alice.page, `/members/${bob.profileId}`);
  await alice.page.getByTestId("member-blocked").getByRole("button", { name: "Unblock" }).click();
  await expect(alice.page.getByTestId("member-actions")).toBeVisible();
  await expect(alice.page.getByTestId("member-blocked")).toHaveCount(0);

  const missing = await alice.page.goto("/members/999999/block");
  expect(missing?.status()).toBe(404);
  await alice.page.context().close();
  await bob.page.context().close();
});

test.describe("visitors", () => {
  test("are sent to log in before blocking", async ({ page }) => {
    await page.goto("/members/1/block");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmembers%2F1%2Fblock/);
    await page.goto("/profile/blocked");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile%2Fblocked/);
  });

  test("search on a logged_out_search_trafficsource site only when they came with a traffic source", async ({ page, baseURL }) => {
    const port = new URL(baseURL ?? "").port;
    const site = `http://bbw.localhost:${port}`;
    await page.context().addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: site }]);

    await page.goto(`${site}/members`);
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmembers$/);

    await page.goto(`${site}/members?network=x`);
    const cards = page.getByTestId("member-cards");
    await expect(cards.getByRole("link").first()).toBeVisible();
    // This site's search_fields leave the region out (docs/product.md §3): its search form has no region filter.
    const form = page.getByTestId("search-form");
    await expect(form.getByLabel("Looking for")).toBeVisible();
    await expect(form.locator('[name="region"]')).toHaveCount(0);
    // Nor live-cam tiles: the demo sets them on the default site only.
    await expect(page.getByTestId("cam-tile")).toHaveCount(0);
    // The traffic source is kept (cookie): the next pages need no ?network=.
    await page.goto(`${site}/members?page=2`);
    await expect(cards.getByRole("link").first()).toBeVisible();
    await cards.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/members\/\d+$/);
    const actions = page.getByTestId("member-actions");
    await expect(actions.getByRole("link", { name: "Log in" })).toHaveAttribute("href", /^\/login\?redirectTo=%2Fmembers%2F\d+$/);

    // The default site does not open its search to visitors, traffic source or not.
    await page.goto("/members?network=x");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
  });
});
