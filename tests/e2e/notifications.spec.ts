import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectPath, openAccountMenu, test } from "./fixtures";
import { mailLink, signUp, type TestAccount } from "./accounts-support";

/**
 * Notifications (JavaScript on and off, docs/notifications.md): the /notifications switches, the RFC 8058 one-click unsubscribe
 * of a mail's List-Unsubscribe header, and a bounce from the mail provider, each ending in the banner that
 * says why mail stopped and how to get it back.
 */

/** A fresh member, activated through the mail link, logged in on `page`. */
async function activatedMember(page: Page): Promise<TestAccount> {
  const account = await signUp(page.request);
  await page.goto(await mailLink(account.email, "activation"));
  await expectPath(page, "/activate/done");
  return account;
}

/** The List-Unsubscribe URL of the (first) activation mail to `to`, read from the .eml's headers. */
async function listUnsubscribeUrl(to: string): Promise<URL> {
  const dir = path.join(process.env.E2E_DATA_DIR!, "mail");
  for (const file of (await readdir(dir)).filter((f) => f.includes("-activation-")).sort()) {
    const raw = await readFile(path.join(dir, file), "utf8");
    const headers = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
    if (!new RegExp(`^To: ${to.replace(/[.+]/g, "\\$&")}$`, "mi").test(headers)) continue;
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const url = /^List-Unsubscribe: <(https?:\/\/[^>]+)>$/m.exec(headers)?.[1];
    expect(url, "List-Unsubscribe header").toBeTruthy();
    return new URL(url!);
  }
  throw new Error(`no activation mail to ${to}`);
}

const banner = (page: Page) => page.getByTestId("alert-hide-disabled-notifications-alert");

test("the account menu's Settings opens the switches; a saved choice is kept", { tag: "@nojs" }, async ({ page }) => {
  await activatedMember(page);
  await page.goto("/members");
  const menu = await openAccountMenu(page);
  await menu.getByRole("link", { name: "Settings" }).click();
  await expectPath(page, "/notifications");
  await expect(page.getByRole("heading", { name: "Notification settings" })).toBeVisible();

  const likesByMail = page.getByRole("checkbox", { name: "New likes: E-mail" });
  const newsByPush = page.getByRole("checkbox", { name: "News and offers: Push" });
  const messagesByMail = page.getByRole("checkbox", { name: "New messages: E-mail" });
  await expect(likesByMail).toBeChecked();
  await expect(newsByPush).toBeChecked();
  await likesByMail.uncheck();
  await newsByPush.uncheck();
  await page.getByTestId("notifications-save").click();
  await expect(page.getByTestId("notifications-saved")).toHaveText("Your settings have been saved.");

  await page.goto("/notifications");
  await expect(likesByMail).not.toBeChecked();
  await expect(newsByPush).not.toBeChecked();
  await expect(messagesByMail).toBeChecked();

  // And back on.
  await likesByMail.check();
  await page.getByTestId("notifications-save").click();
  await expect(page.getByTestId("notifications-saved")).toBeVisible();
  await page.goto("/notifications");
  await expect(likesByMail).toBeChecked();
  await expect(newsByPush).not.toBeChecked();
});

test("the one-click unsubscribe POST of a mail's List-Unsubscribe URL stops mail; the banner says so and e-mails can be turned back on", { tag: "@nojs" }, async ({ page, playwright, baseURL }) => {
  const account = await activatedMember(page);
  const url = await listUnsubscribeUrl(account.email);
  expect(url.pathname).toBe("/api/unsubscribe.php");

  // The mailbox provider's request: no cookie, no Origin, no Sec-Fetch-Site (RFC 8058).
  const provider = await playwright.request.newContext({ baseURL });
  const oneClick = await provider.post(url.pathname + url.search, {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(oneClick.status(), await oneClick.text()).toBe(200);
  // A forged token changes nothing and is no server error.
  const forged = await provider.post(`/api/unsubscribe.php?token=1.${"A".repeat(43)}`, { headers: { "Content-Type": "application/x-www-form-urlencoded" }, data: "List-Unsubscribe=One-Click" });
  expect(forged.status()).toBe(400);
  await provider.dispose();

  await page.goto("/members");
  await expect(banner(page)).toContainText("You unsubscribed from our e-mails.");
  await banner(page).getByRole("link", { name: "Turn e-mails back on" }).click();
  await expectPath(page, "/notifications");
  await expect(page.getByTestId("paused-reason-listunsubscribe")).toHaveText("You unsubscribed from our e-mails.");
  await page.getByTestId("notifications-resume").click();
  await expect(page.getByTestId("notifications-resumed")).toHaveText("E-mails are on again.");
  await expect(page.getByTestId("notifications-paused")).toHaveCount(0);
  await page.goto("/members");
  await expect(page.getByTestId("member-cards")).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
});

test("a person who opens the unsubscribe link confirms with a button", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const account = await activatedMember(page);
  const url = await listUnsubscribeUrl(account.email);
  // A visitor's browser (no session), as when the link is opened from a mail program.
  const visitor = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.use.javaScriptEnabled });
  await visitor.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "" }]);
  const tab = await visitor.newPage();
  await tab.goto(url.pathname + url.search);
  await expectPath(tab, "/unsubscribe");
  await expect(tab.getByTestId("unsubscribe-page")).toContainText("Do you no longer want to get e-mails");
  await tab.getByTestId("unsubscribe-confirm").click();
  await expect(tab.getByTestId("unsubscribed")).toContainText("You have been unsubscribed.");
  await tab.goto("/unsubscribe?token=1.not-a-token");
  await expect(tab.getByTestId("unsubscribe-invalid")).toBeVisible();
  await visitor.close();

  await page.goto("/members");
  await expect(banner(page)).toContainText("You unsubscribed from our e-mails.");
});

test("a bounce posted to /api/mail-events.php shows the banner with the reason and a link to change the e-mail address", async ({ page, playwright, baseURL }) => {
  const account = await activatedMember(page);
  const provider = await playwright.request.newContext({ baseURL });
  const unauthorised = await provider.post("/api/mail-events.php", { data: { events: [{ type: "bounce", email: account.email }] } });
  expect(unauthorised.status()).toBe(401);
  const posted = await provider.post("/api/mail-events.php", {
    headers: { Authorization: `Bearer ${process.env.E2E_MAIL_EVENTS_SECRET}` },
    data: { events: [{ type: "bounce", email: account.email, occurred_at: new Date().toISOString() }] },
  });
  expect(posted.status(), await posted.text()).toBe(200);
  expect(await posted.json()).toEqual({ applied: 1, unknown: 0, ignored: 0 });
  await provider.dispose();

  await page.goto("/members");
  await expect(banner(page)).toContainText("E-mails to your address could not be delivered: the address seems to be invalid.");
  // A bounce is fixed with another address, not by turning e-mails on.
  await expect(banner(page).getByRole("link", { name: "Turn e-mails back on" })).toHaveCount(0);
  const change = banner(page).getByRole("link", { name: "change e-mail address" });
  await expect(change).toHaveAttribute("href", "/profile/account");
  await change.click();
  await expectPath(page, "/profile/account");
  await expect(page.getByTestId("email-change")).toBeVisible();
});
