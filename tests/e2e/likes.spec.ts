import type { Page } from "@playwright/test";
import { clickAndWaitForPost, expect, expectPath, test } from "./fixtures";
import { membersDeletedAfterEach, newAccountDetails, signUp } from "./accounts-support";

/**
 * Likes: like and unlike on a member's page, the match modal, /likes with its tabs
 * received, sent and matches, the new-like flag and the nav badge, and the like modal (?t=).
 */

/** Active members of the test, deleted after it, so they do not crowd the newest members of other tests' searches. */
const activeMember = membersDeletedAfterEach();

function entryOf(page: Page, name: string) {
  return page.getByTestId("like-entry").filter({ hasText: name });
}

test("a like is sent and received, opening it clears the flag, and liking back makes a match", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  // Two sign-ups with activation and a dozen pages: more than the default time on a busy machine.
  test.slow();
  const js = test.info().project.use.javaScriptEnabled !== false;
  const alice = await activeMember(browser, baseURL ?? "");
  const bob = await activeMember(browser, baseURL ?? "");

  // Alice likes Bob on his page.
  await alice.page.goto(`/members/${bob.profileId}`);
  await clickAndWaitForPost(alice.page, alice.page.getByTestId("like-actions").getByRole("button", { name: "Like", exact: true }));
  await expect(alice.page.getByRole("button", { name: "Liked — unlike" })).toBeVisible();
  await expectPath(alice.page, `/members/${bob.profileId}`, { withSearch: true });
  await expect(alice.page.getByTestId("match-modal")).toHaveCount(0);

  // /likes opens the received tab; Alice received nothing, Bob is under sent.
  await alice.page.goto("/likes");
  await expectPath(alice.page, "/likes/received");
  await expect(alice.page.getByTestId("likes-empty")).toContainText("Nobody has liked you yet.");
  await expect(alice.page.getByTestId("likes-empty").getByRole("link", { name: "Search members" })).toHaveAttribute("href", "/members");
  await alice.page.getByTestId("likes-tabs").getByRole("link", { name: "Sent" }).click();
  await expectPath(alice.page, "/likes/sent");
  await expect(entryOf(alice.page, bob.name)).toHaveCount(1);
  await expect(entryOf(alice.page, bob.name)).toHaveAttribute("data-new", "false");

  // Bob sees Alice's like as new, with the nav badge; opening her clears both.
  await bob.page.goto("/likes/received");
  const received = entryOf(bob.page, alice.name);
  await expect(received).toHaveAttribute("data-new", "true");
  await expect(received.getByText("New", { exact: true })).toBeVisible();
  await expect(bob.page.getByTestId("badge-likes")).toHaveText("1");
  // docs/product.md §4: the page title carries unread messages plus new likes in brackets.
  await expect(bob.page).toHaveTitle(/^\(1\) /);
  await received.getByRole("link").click();
  await expectPath(bob.page, `/members/${alice.profileId}`);
  await expect(bob.page.getByTestId("likes-you")).toHaveText(`${alice.name} likes you`);
  await expect(bob.page.getByTestId("badge-likes")).toHaveCount(0);
  await bob.page.goto("/likes/received");
  await expect(entryOf(bob.page, alice.name)).toHaveAttribute("data-new", "false");
  await expect(bob.page.getByTestId("badge-likes")).toHaveCount(0);
  await expect(bob.page).not.toHaveTitle(/^\(\d+\) /);

  // Bob likes back: the match modal shows both, with the way to chat.
  await bob.page.goto(`/members/${alice.profileId}`);
  await bob.page.getByRole("button", { name: "Like back" }).click();
  const modal = bob.page.getByTestId("match-modal");
  await expect(modal.getByRole("heading", { name: "It's a match!" })).toBeVisible();
  await expect(modal).toContainText(`You and ${alice.name} like each other.`);
  await expect(modal.getByRole("link", { name: "Send a message" })).toHaveAttribute("href", `/members/${alice.profileId}/chat`);
  await expect(modal.getByRole("link", { name: "Keep browsing" })).toHaveAttribute("href", "/members");
  await expect(modal.getByTestId("match-photo")).toHaveCount(2);
  await expect(bob.page.getByTestId("match-badge")).toHaveText("It's a match");
  if (js) {
    // docs/product.md §4: a click on the photo keeps it open, a click anywhere else closes it.
    await expectPath(bob.page, `/members/${alice.profileId}`, { withSearch: true });
    await modal.getByTestId("match-photo").first().click();
    await expect(modal).toBeVisible();
    // The dialog is the full-screen layer: its corner is outside the panel.
    await modal.click({ position: { x: 5, y: 5 } });
    await expect(modal).toHaveCount(0);
  } else {
    await expectPath(bob.page, `/members/${alice.profileId}?match=1`, { withSearch: true });
    await modal.getByRole("link", { name: "Close" }).click();
    await expectPath(bob.page, `/members/${alice.profileId}`, { withSearch: true });
    await expect(bob.page.getByTestId("match-modal")).toHaveCount(0);
  }

  // Both find each other under matches.
  await bob.page.goto("/likes/matches");
  await expect(entryOf(bob.page, alice.name)).toHaveCount(1);
  await alice.page.goto("/likes/matches");
  await expect(entryOf(alice.page, bob.name)).toHaveCount(1);
  await expect(entryOf(alice.page, bob.name).getByText("Mutual like")).toBeVisible();

  // Alice takes her like back: the match is gone for both.
  await alice.page.goto(`/members/${bob.profileId}`);
  await clickAndWaitForPost(alice.page, alice.page.getByRole("button", { name: "Liked — unlike" }));
  await expect(alice.page.getByRole("button", { name: "Like back" })).toBeVisible();
  await bob.page.goto("/likes/matches");
  await expect(bob.page.getByTestId("likes-empty")).toContainText("No matches yet.");
});

test("an unknown likes tab is a 404, and a visitor is sent to log in", async ({ page }) => {
  await signUp(page.request, newAccountDetails());
  const missing = await page.goto("/likes/favourites");
  expect(missing?.status()).toBe(404);
  await expect(page.getByText("This page could not be found")).toBeVisible();
  // The 404 is the member's, not a visitor's: the new account is logged in on it.
  await expect(page.getByTestId("account-menu")).toBeVisible();
  await page.context().clearCookies();
  await page.goto("/likes/sent");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Flikes%2Fsent$/);
});

test("the like modal shows after t seconds and the likes badge counts the like", async ({ page }) => {
  test.skip(test.info().project.use.javaScriptEnabled === false, "the like modal is a JavaScript enhancement");
  await signUp(page.request, newAccountDetails());
  await page.goto("/members?t=0");
  const modal = page.getByTestId("like-modal");
  await expect(modal.getByRole("heading", { name: /likes you!$/ })).toBeVisible();
  await expect(page.getByTestId("badge-likes")).toHaveText("1");
  await modal.getByRole("link", { name: "View profile" }).click();
  await expect(page).toHaveURL(/\/members\/\d+\?from=likes$/);
  await expect(page.getByTestId("like-modal")).toHaveCount(0);
  // The next one waits a day: on a second visit the api has no like to give, and no modal shows.
  const asked = page.waitForResponse((response) => response.url().endsWith("/api/auto-like.php"));
  await page.goto("/members?t=0");
  const answer = await asked;
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { profile: unknown }).profile).toBeNull();
  await expect(page.getByTestId("like-modal")).toHaveCount(0);
});

test("a member's page sends one beacon when it becomes hidden, with lb or not", async ({ page }) => {
  test.skip(test.info().project.use.javaScriptEnabled === false, "page-bounce logging is a JavaScript enhancement");
  await signUp(page.request, newAccountDetails());
  // Every beacon the page sends, counted as it is sent: the listeners of visibilitychange run
  // while the event is dispatched, so the count is final when hide() returns.
  await page.addInitScript(() => {
    const sent: string[] = [];
    Object.defineProperty(window, "sentBeacons", { value: sent });
    const original = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      sent.push(String(url));
      return original(url, data);
    };
  });
  const hide = () =>
    page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
      return (window as unknown as { sentBeacons: string[] }).sentBeacons.map((url) => new URL(url, location.href).pathname);
    });
  // The api's answers to the beacon (its body is a Blob, which the browser does not report).
  const beacons: number[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith("/api/page-hidden.php") && response.request().method() === "POST") beacons.push(response.status());
  });
  // A member's page always tells the api it is hidden (the member counts as away), once, with ?lb or not.
  // The live client (which sends it) loads after hydration: hidden only once its stream is asked for.
  const live = () => page.waitForRequest((request) => request.url().includes("/api/events.php"));
  let started = live();
  await page.goto("/members");
  await expect(page.getByTestId("member-cards")).toBeVisible();
  await started;
  expect(await hide()).toEqual(["/api/page-hidden.php"]);
  await expect.poll(() => beacons).toEqual([204]);
  started = live();
  await page.goto("/members?lb=1");
  await expect(page.getByTestId("member-cards")).toBeVisible();
  await started;
  expect(await hide(), "one beacon with ?lb too (the live client's, not a second from the like modal's page-bounce logging)").toEqual(["/api/page-hidden.php"]);
  await expect.poll(() => beacons).toEqual([204, 204]);
});
