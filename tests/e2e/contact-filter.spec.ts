import type { Browser, Page } from "@playwright/test";
import { expect, readLocale, test, text } from "./fixtures";
import { membersDeletedAfterEach, type ActiveMember } from "./accounts-support";
import { staffLogin } from "./staff-support";

/**
 * docs/staff.md, contact details in chat, in the browser with JavaScript on and off: an admin sets the default site's
 * contact filter in the console; a member sends a disguised phone number, shown masked to both members; with the
 * filter holding, a message with a handle waits (the sender is told in their chat, the recipient sees nothing) until a
 * moderator approves it in the queue. The filter is set back to off at the end, whatever happens.
 */
const chat = readLocale("en", "chat");
const heldNote = text(chat, "conversation.held");
const activeMember = membersDeletedAfterEach();

async function setFilter(page: Page, mode: "off" | "mask" | "hold") {
  await page.goto("/staff/sites/1");
  const labels = { off: "Allowed (no filter)", mask: "Masked: phone numbers, addresses, links and handles show as •••", hold: "Held: such a message waits for a moderator" };
  await page.getByLabel("Contact details in members' messages").selectOption({ label: labels[mode] });
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("staff-site-done")).toBeVisible();
  await expect(page.getByLabel("Contact details in members' messages")).toHaveValue(mode);
}

async function send(page: Page, body: string) {
  const composer = page.getByTestId("chat-composer");
  await composer.getByRole("textbox").fill(body);
  await composer.getByRole("button", { name: text(chat, "composer.send"), exact: true }).click();
}

const messages = (page: Page) => page.getByTestId("chat-message");

async function staffPage(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await staffLogin(page, "admin");
  return page;
}

test("contact details are masked for both members, or held until a moderator approves them", { tag: "@nojs" }, async ({ browser, baseURL, javaScriptEnabled }) => {
  const admin = await staffPage(browser, javaScriptEnabled);
  try {
    const alice: ActiveMember = await activeMember(browser, baseURL);
    const bob: ActiveMember = await activeMember(browser, baseURL);

    await setFilter(admin, "mask");
    await alice.page.goto(`/members/${bob.profileId}/chat`);
    await send(alice.page, "call me: zero six, 12 34 - 56 78 tonight");
    await expect(messages(alice.page).last()).toContainText("call me: ••• tonight");
    await bob.page.goto(`/members/${alice.profileId}/chat`);
    await expect(messages(bob.page).last()).toContainText("call me: ••• tonight");
    await expect(bob.page.getByTestId("chat-messages")).not.toContainText("56 78");

    await setFilter(admin, "hold");
    const handle = `my snap is anna_${Date.now() % 100000}`;
    await alice.page.goto(`/members/${bob.profileId}/chat`);
    await send(alice.page, handle);
    const held = messages(alice.page).filter({ hasText: handle });
    await expect(held.getByTestId("chat-moderation-note")).toHaveText(heldNote);
    await bob.page.reload();
    await expect(bob.page.getByTestId("chat-messages")).not.toContainText(handle);

    await admin.goto("/staff/held-messages");
    const row = admin.getByTestId("staff-held-message").filter({ hasText: handle });
    await row.getByRole("button", { name: /^Approve and deliver/ }).click();
    await expect(admin.getByTestId("staff-held-done")).toHaveText("Message delivered.");
    await expect(admin.getByTestId("staff-held-message").filter({ hasText: handle })).toHaveCount(0);

    await bob.page.reload();
    await expect(messages(bob.page).filter({ hasText: handle })).toHaveCount(1);
    await alice.page.reload();
    await expect(messages(alice.page).filter({ hasText: handle }).getByTestId("chat-moderation-note")).toHaveCount(0);
  } finally {
    await setFilter(admin, "off");
    await admin.context().close();
  }
});
