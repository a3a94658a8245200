import { randomUUID } from "node:crypto";
import { devices } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { TeasersResponse } from "#contract/members";
import { accounts, expect, expectNoAxeViolations, expectPath, login, sameOrigin, test } from "./fixtures";
import { mailLink, newAccountDetails } from "./accounts-support";

/**
 * Member funnels (/members/{id}/signup, /landing, /landing2/{slug?}, /landing3/{slug?}), with
 * JavaScript on and off: a visitor from a tracked URL signs up on the page and is in the chat with that
 * member; the tracking values are kept with the account (its data export shows them).
 */
test("a visitor signs up on a member landing and lands in the chat with that member, tracking kept", { tag: "@nojs" }, async ({ page }) => {
  const teasers = TeasersResponse.parse(await (await page.request.get("/api/teasers.php?count=1")).json());
  const member = teasers.members[0]!;
  const network = `net-${randomUUID().slice(0, 8)}`;
  await page.goto(`/members/${member.id}/landing2/bdsm?network=${network}&ref=camp9&sub1=banner-b`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Trust, play and chemistry: ${member.name} is ready to talk`);
  await expect(page.getByTestId("funnel-member")).toContainText(`${member.age} years`);
  await expect(page.getByTestId("funnel-others").getByRole("listitem")).toHaveCount(6);

  const account = newAccountDetails();
  const form = page.getByTestId("funnel-signup");
  await form.getByLabel("E-mail address").fill(account.email);
  await form.getByLabel("Username").fill(account.name);
  await form.getByLabel("Date of birth", { exact: true }).fill("1990-02-03");
  await form.getByLabel("Password", { exact: true }).fill("short");
  await form.getByRole("button", { name: "Create account" }).click();
  // A mistake is shown on the funnel page itself, with what was typed kept.
  await expect(form.getByText("Your password needs at least 8 characters.")).toBeVisible();
  await expectPath(page, `/members/${member.id}/landing2/bdsm`);
  await expect(form.getByLabel("Username")).toHaveValue(account.name);

  await form.getByLabel("Password", { exact: true }).fill(account.password);
  await form.getByRole("button", { name: "Create account" }).click();
  await expectPath(page, `/members/${member.id}/chat`);
  await expect(page.getByTestId("chat-name")).toContainText(member.name);

  // The account holds the funnel's tracking values: the member's own data export shows them.
  expect((await page.request.post("/api/dataexport.php", { headers: sameOrigin, data: {} })).status()).toBe(202);
  const link = await mailLink(account.email, "data_export");
  const files = unzipSync(new Uint8Array(await (await page.request.get(link)).body()));
  expect(JSON.parse(strFromU8(files["account.json"]!))).toMatchObject({ network, ref: "camp9", sub1: "banner-b" });
});

test("each member funnel design shows the member with the form; the slug picks the niche copy", async ({ page }) => {
  const { members } = TeasersResponse.parse(await (await page.request.get("/api/teasers.php?count=1")).json());
  const member = members[0]!;
  const designs = [
    { path: `/members/${member.id}/signup`, heading: `Sign up to chat with ${member.name}` },
    { path: `/members/${member.id}/landing`, heading: `Say hello to ${member.name}` },
    { path: `/members/${member.id}/landing2`, heading: `Say hello to ${member.name}` },
    { path: `/members/${member.id}/landing3/gay`, heading: `${member.name} wants to meet men like you` },
    // An unknown campaign slug keeps the site's own copy.
    { path: `/members/${member.id}/landing3/spring-sale`, heading: `Say hello to ${member.name}` },
    { path: `/de/members/${member.id}/landing`, heading: `Sag Hallo zu ${member.name}` },
  ];
  for (const design of designs) {
    const response = await page.goto(design.path);
    expect(response?.status(), design.path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }), design.path).toHaveText(design.heading);
    await expect(page.getByTestId("funnel-photo").first()).toBeVisible();
    await expect(page.getByTestId("funnel-signup").getByRole("button")).toBeVisible();
  }
  expect((await page.goto("/members/999999999/landing"))?.status()).toBe(404);
  expect((await page.goto(`/members/${member.id}/landing4`))?.status()).toBe(404);
});

test("a logged-in member who opens a funnel goes to the member's page", async ({ page }) => {
  const { members } = TeasersResponse.parse(await (await page.request.get("/api/teasers.php?count=1")).json());
  await login(page, accounts.free);
  await page.goto(`/members/${members[0]!.id}/landing3`);
  await expectPath(page, `/members/${members[0]!.id}`);
});

test.describe("on a phone", () => {
  // A phone's viewport, touch and user agent (the server tells a smartphone by its user agent); the worker's browser stays.
  const { defaultBrowserType: _browser, ...phone } = devices["Pixel 7"];
  test.use(phone);

  test("a funnel signup opens the chat with the activation reminder as a modal, which closes to the chat", { tag: "@nojs" }, async ({ page }) => {
    const { members } = TeasersResponse.parse(await (await page.request.get("/api/teasers.php?count=1")).json());
    const member = members[0]!;
    await page.goto(`/members/${member.id}/signup`);
    const account = newAccountDetails();
    const form = page.getByTestId("funnel-signup");
    await form.getByLabel("E-mail address").fill(account.email);
    await form.getByLabel("Username").fill(account.name);
    await form.getByLabel("Date of birth", { exact: true }).fill("1990-02-03");
    await form.getByLabel("Password", { exact: true }).fill(account.password);
    await form.getByRole("button", { name: "Create account" }).click();

    // docs/product.md §4: api_signup_complete on a smartphone makes the activation reminder a modal.
    await expectPath(page, `/members/${member.id}/chat?api_signup_complete=1`, { withSearch: true });
    const modal = page.getByRole("dialog", { name: "Please confirm your e-mail address" });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole("button", { name: "Send the e-mail again" })).toBeVisible();
    if (test.info().project.use.javaScriptEnabled) {
      await expectNoAxeViolations(page);
    }
    await modal.getByRole("link", { name: "Close" }).click();
    await expectPath(page, `/members/${member.id}/chat`, { withSearch: true });
    await expect(modal).toHaveCount(0);
    // The chat's own reminder stays.
    await expect(page.getByTestId("chat-confirm-yours")).toBeVisible();
  });
});
