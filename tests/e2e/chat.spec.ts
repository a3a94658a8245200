import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectPath, hydrated, readLocale, sameOrigin, test, text } from "./fixtures";
import { membersDeletedAfterEach, type ActiveMember } from "./accounts-support";

/**
 * Chat, browser tests, with JavaScript on and off: send and see a message, the
 * not-enough-credits message, a free member's third conversation refused, deleting a conversation (with
 * JavaScript also its failure path), the recipient's unread badge and title count appearing and clearing,
 * and the blocked member's chat page. Every test uses members of its own: a fresh member is free with
 * the default site's 20 signup credits, and a message costs 10 (settings message_credits).
 */

const chat = readLocale("en", "chat");
const common = readLocale("en");
const t = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{{${k}}}`, String(v)), text(chat, key));
const notEnoughCredits = text(common, "errors.not_enough_credits");
const premiumOnly = text(common, "errors.premium_required");
const anErrorHasOccurred = text(common, "errors.internal_error");
const blockedBy = (name: string) => text(common, "errors.blocked_by_member").replace("{{name}}", name);

/** What a fresh member starts with, and what a message costs on the default site (demo data). */
const signupCredits = 20;
const messageCredits = 10;
/** "10 credits per message (at least €1.99 per message) · You have 20 credits": the minimum where the member's country has one. */
const costLine = (credits: number) => {
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const minimum = escape(t("composer.minimum", { amount: "AMOUNT" })).replace("AMOUNT", "[^)]+");
  return new RegExp(`${escape(t("composer.cost_other", { count: messageCredits }))}(?: \\(${minimum}\\))? · ${escape(t(credits === 1 ? "composer.balance_one" : "composer.balance_other", { count: credits }))}`);
};

/** Fresh, activated (free) members with browser pages of their own, deleted after each test. */
const activeMember = membersDeletedAfterEach();

type Sent = { message: { id: number; conversation_id: number; body: string }; credits: number };

/** `from` sends `body` to `to` through web's /api proxy, paying message_credits. */
async function sendByApi(from: ActiveMember, to: ActiveMember, body: string): Promise<Sent> {
  const response = await from.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: to.profileId, body, key: randomUUID() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Sent;
}

const js = () => test.info().project.use.javaScriptEnabled !== false;

function composer(page: Page) {
  return page.getByTestId("chat-composer");
}

async function typeAndSend(page: Page, body: string): Promise<void> {
  await composer(page).getByRole("textbox").fill(body);
  await composer(page).getByRole("button", { name: t("composer.send"), exact: true }).click();
}

/** The credits badge beside the list (the one in the conversation's header is for phones). */
function credits(page: Page) {
  return page.getByTestId("chat-credits").filter({ visible: true });
}

function sentMessages(page: Page) {
  return page.getByTestId("chat-message");
}

test("a member sends a message from the member's chat page and sees it, the balance going down", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const page = alice.page;
  const body = `Hello ${bob.name}, nice profile! ${randomUUID().slice(0, 6)}`;

  await page.goto(`/members/${bob.profileId}/chat`);
  await expect(page.getByTestId("chat-name")).toHaveText(bob.name);
  await expect(page.getByTestId("chat-start")).toHaveText(t("conversation.start", { name: bob.name }));
  await expect(sentMessages(page)).toHaveCount(0);
  await expect(page.getByTestId("chat-cost")).toContainText(costLine(signupCredits));
  await expect(credits(page)).toHaveText(String(signupCredits));

  if (js()) {
    // Hold the send until the pending bubble was seen: the message shows at once as sending.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/chat\.data(\?|$)/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await hydrated(composer(page));
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await typeAndSend(page, body);
    const pending = page.getByTestId("chat-pending");
    await expect(pending).toHaveAttribute("data-state", "sending");
    await expect(pending).toContainText(body);
    await expect(pending).toContainText(t("conversation.sending"));
    await expect(composer(page).getByRole("textbox")).toHaveValue("");
    release();
    await expect(pending).toHaveCount(0);
    await expect(sentMessages(page)).toHaveCount(1);
    // Sent without a page load.
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await page.unroute(/\/chat\.data(\?|$)/);
  } else {
    await typeAndSend(page, body);
    // The POST redirects to the new message in the conversation.
    await expect(page).toHaveURL(/\/chats\/\d+#m\d+$/);
    const [, conversation, message] = /\/chats\/(\d+)#m(\d+)$/.exec(page.url()) ?? [];
    await expect(page.locator(`#m${message}`)).toContainText(body);
    expect(Number(conversation)).toBeGreaterThan(0);
  }
  const mine = sentMessages(page).last();
  await expect(mine).toContainText(body);
  await expect(mine).toHaveAttribute("data-mine", "true");
  await expect(mine.getByTestId("chat-status")).toHaveText(t("conversation.sent"));
  await expect(page.getByTestId("chat-start")).toHaveCount(0);
  await expect(page.getByTestId("chat-cost")).toContainText(costLine(signupCredits - messageCredits));
  await expect(credits(page)).toHaveText(String(signupCredits - messageCredits));

  // Stored: the conversation shows it after a fresh load, in the list too.
  await page.goto("/chats");
  const row = page.getByTestId("chat-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(bob.name);
  await expect(row.getByTestId("chat-preview")).toHaveText(t("list.you", { text: body }));
});

test("without enough credits the send is refused with a link to buy credits, the text kept and nothing stored", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const page = alice.page;
  // Two messages spend a fresh member's credits.
  const first = await sendByApi(alice, bob, "First message");
  const second = await sendByApi(alice, bob, "Second message");
  expect(second.credits).toBe(signupCredits - 2 * messageCredits);
  const conversation = first.message.conversation_id;
  const body = `This one is not paid for ${randomUUID().slice(0, 6)}`;

  await page.goto(`/chats/${conversation}`);
  await expect(sentMessages(page)).toHaveCount(2);
  await expect(page.getByTestId("chat-cost")).toContainText(costLine(0));
  await expect(credits(page)).toHaveText("0");
  await expect(credits(page)).toHaveAttribute("data-tone", "danger");
  if (js()) await hydrated(composer(page));
  await typeAndSend(page, body);

  if (js()) {
    const failed = page.getByTestId("chat-pending");
    await expect(failed).toHaveAttribute("data-state", "failed");
    await expect(failed).toContainText(body);
    const alert = failed.getByRole("alert");
    await expect(alert).toContainText(`${t("conversation.failed")} ${notEnoughCredits}`);
    await expect(alert.getByRole("link", { name: t("composer.buyCredits") })).toHaveAttribute("href", "/credits");
    await expect(alert.getByRole("button", { name: t("conversation.retry") })).toBeVisible();
    await alert.getByRole("button", { name: t("conversation.edit") }).click();
    await expect(page.getByTestId("chat-pending")).toHaveCount(0);
    await expect(composer(page).getByRole("textbox")).toHaveValue(body);
  } else {
    await expectPath(page, `/chats/${conversation}`);
    const error = page.getByTestId("chat-error");
    await expect(error).toContainText(notEnoughCredits);
    await expect(error.getByRole("link", { name: t("composer.buyCredits") })).toHaveAttribute("href", "/credits");
    await expect(composer(page).getByRole("textbox")).toHaveValue(body);
  }
  await expect(sentMessages(page)).toHaveCount(2);

  // Nothing stored, nothing charged.
  await page.goto(`/chats/${conversation}`);
  await expect(sentMessages(page)).toHaveCount(2);
  await expect(page.getByTestId("chat-messages")).not.toContainText(body);
  await expect(credits(page)).toHaveText("0");
});

// docs/product.md §6: free members start up to 2 conversations; the third start is refused with the premium message even
// when their credits ran out on the first two (the more specific refusal comes first).
test("a free member who started two conversations is refused a third with the premium message", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const carol = await activeMember(browser, baseURL);
  const dave = await activeMember(browser, baseURL);
  await sendByApi(alice, bob, "Hi Bob");
  await sendByApi(alice, carol, "Hi Carol");
  const page = alice.page;
  const body = `A third conversation ${randomUUID().slice(0, 6)}`;

  await page.goto(`/members/${dave.profileId}/chat`);
  await expect(page.getByTestId("chat-start")).toBeVisible();
  if (js()) await hydrated(composer(page));
  await typeAndSend(page, body);
  if (js()) {
    const failed = page.getByTestId("chat-pending");
    await expect(failed).toHaveAttribute("data-state", "failed");
    const alert = failed.getByRole("alert");
    await expect(alert).toContainText(premiumOnly);
    await expect(alert.getByRole("link", { name: t("composer.getPremium") })).toHaveAttribute("href", "/premium");
  } else {
    await expectPath(page, `/members/${dave.profileId}/chat`);
    const error = page.getByTestId("chat-error");
    await expect(error).toContainText(premiumOnly);
    await expect(error.getByRole("link", { name: t("composer.getPremium") })).toHaveAttribute("href", "/premium");
    await expect(composer(page).getByRole("textbox")).toHaveValue(body);
  }
  // No conversation was created.
  await page.goto(`/members/${dave.profileId}/chat`);
  await expect(page.getByTestId("chat-start")).toBeVisible();
  await page.goto("/chats");
  await expect(page.getByTestId("chat-row")).toHaveCount(2);
});

test("a conversation is deleted from the list", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const page = alice.page;
  const { message } = await sendByApi(alice, bob, "Hello, to be deleted");
  const row = page.locator(`[data-testid="chat-row"][data-conversation="${message.conversation_id}"]`);

  await page.goto("/chats");
  await expect(row).toContainText(bob.name);
  const confirmation = row.getByTestId("chat-delete-confirm");
  await expect(confirmation).toHaveCount(0);
  const deleteLink = row.getByRole("link", { name: t("list.deleteLabel", { name: bob.name }) });
  if (js()) await hydrated(deleteLink);
  await deleteLink.click();
  await expect(confirmation).toContainText(t("list.confirmDelete", { name: bob.name }));
  if (js()) {
    // Asked in place, then gone at once, without a page load.
    await expectPath(page, "/chats", { withSearch: true });
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const deleted = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/chats.data");
    await confirmation.getByRole("button", { name: t("list.confirm"), exact: true }).click();
    await expect(row).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // The reload below must not overtake the deletion on the server.
    expect((await deleted).status()).toBe(200);
  } else {
    // The confirmation step is a page of its own.
    await expectPath(page, `/chats?delete=${message.conversation_id}`, { withSearch: true });
    await confirmation.getByRole("button", { name: t("list.confirm"), exact: true }).click();
    await expectPath(page, "/chats", { withSearch: true });
    await expect(row).toHaveCount(0);
  }
  await expect(page.getByTestId("chats-empty")).toContainText(t("list.empty"));

  // Deleted on the server: gone after a reload, and its page is a 404 for Alice; Bob keeps it.
  await page.reload();
  await expect(page.getByTestId("chat-page")).toBeVisible();
  await expect(row).toHaveCount(0);
  const gone = await page.goto(`/chats/${message.conversation_id}`);
  expect(gone?.status()).toBe(404);
  await bob.page.goto("/chats");
  await expect(bob.page.locator(`[data-testid="chat-row"][data-conversation="${message.conversation_id}"]`)).toContainText(alice.name);
});

// docs/product.md §4 Removing a chat, §8: a failed deletion shows an alert and the list reloads, the row back.
test("a failed deletion shows an alert and the conversation comes back", async ({ browser, baseURL }) => {
  test.skip(!js(), "deleting at once (and failing after) is what JavaScript does; without it the form answers a page");
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const page = alice.page;
  const { message } = await sendByApi(alice, bob, "Hello, not to be deleted");
  const row = page.locator(`[data-testid="chat-row"][data-conversation="${message.conversation_id}"]`);

  // The server's deletion fails: the fetcher's POST (single fetch: /chats.data) asks for a conversation that
  // is not Alice's, so the api answers 404 and the action the failure.
  const posts: string[] = [];
  await page.route(/\/chats\.data(\?|$)/, async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    posts.push(request.postData() ?? "");
    await route.continue({ postData: (request.postData() ?? "").replace(/conversation=\d+/, "conversation=2000000000") });
  });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });

  await page.goto("/chats");
  await expect(row).toContainText(bob.name);
  await hydrated(row.getByTestId("chat-delete"));
  await row.getByTestId("chat-delete").click();
  await row.getByTestId("chat-delete-confirm").getByRole("button", { name: t("list.confirm"), exact: true }).click();
  await expect.poll(() => dialogs).toEqual([anErrorHasOccurred]);
  expect(posts).toEqual([`intent=delete&conversation=${message.conversation_id}&js=1`]);
  await expect(row).toContainText(bob.name);

  // Still there on the server.
  await page.unroute(/\/chats\.data(\?|$)/);
  await page.reload();
  await expect(row).toContainText(bob.name);
});

test("the recipient's unread badge and title count appear, and clear once the conversation is opened", async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const page = bob.page;
  await page.goto("/members");
  await expect(page.getByTestId("account-menu")).toBeVisible();
  await expect(page.getByTestId("badge-unread")).toHaveCount(0);
  await expect(page).not.toHaveTitle(/^\(\d+\) /);

  const { message } = await sendByApi(alice, bob, "Hi Bob!");
  await sendByApi(alice, bob, "Are you there?");

  // The navigation's messages link and the title count both messages.
  await page.goto("/members");
  const messagesLink = page.getByRole("banner").getByRole("link", { name: /^Messages/ });
  await expect(messagesLink.getByTestId("badge-unread")).toHaveText("2");
  await expect(messagesLink.getByTestId("badge-unread")).toHaveAttribute("aria-label", "2 unread messages");
  await expect(page).toHaveTitle(/^\(2\) /);

  // The list: the total and the conversation's badge.
  await messagesLink.click();
  await expectPath(page, "/chats");
  await expect(page).toHaveTitle(/^\(2\) Messages \| /);
  await expect(page.getByTestId("chat-unread-total")).toHaveText("2");
  const row = page.locator(`[data-testid="chat-row"][data-conversation="${message.conversation_id}"]`);
  await expect(row).toHaveAttribute("data-unread", "2");
  await expect(row.getByTestId("chat-unread")).toHaveText("2");

  // Opening the conversation reads it: every count is gone.
  await row.locator(`a[href^="/chats/${message.conversation_id}"]`).click();
  await expectPath(page, `/chats/${message.conversation_id}`);
  await expect(sentMessages(page)).toHaveCount(2);
  await expect(page).toHaveTitle(new RegExp(`^${alice.name} \\| Messages \\| `));
  await expect(page.getByTestId("chat-unread-total")).toHaveCount(0);

  await page.getByTestId("chat-home").click();
  await expectPath(page, "/members");
  await expect(page.getByTestId("account-menu")).toBeVisible();
  await expect(page.getByTestId("badge-unread")).toHaveCount(0);
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
  await page.goto("/chats");
  await expect(row).toHaveAttribute("data-unread", "0");
  await expect(row.getByTestId("chat-unread")).toHaveCount(0);
});

// docs/product.md §4 Unread: opening a chat sets its unread count to 0, in the list beside it too.
test("the opened conversation's row in the list shows no unread badge", async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const { message } = await sendByApi(alice, bob, "Hi Bob!");
  const page = bob.page;
  const row = page.locator(`[data-testid="chat-row"][data-conversation="${message.conversation_id}"]`);
  await page.goto("/chats");
  await expect(row).toHaveAttribute("data-unread", "1");
  await row.locator(`a[href^="/chats/${message.conversation_id}"]`).click();
  await expectPath(page, `/chats/${message.conversation_id}`);
  await expect(page.getByTestId("chat-unread-total")).toHaveCount(0);
  await expect(row).toHaveAttribute("data-unread", "0");
  await expect(row.getByTestId("chat-unread")).toHaveCount(0);
});

test("the blocked member's chat page says so, and the conversation is gone", async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  await sendByApi(alice, bob, "Hello Bob");
  const blocked = await bob.page.request.post("/api/block.php", { headers: sameOrigin, data: { id: alice.profileId } });
  expect(blocked.status(), await blocked.text()).toBe(200);

  const page = alice.page;
  const denied = await page.goto(`/members/${bob.profileId}/chat`);
  expect(denied?.status()).toBe(403);
  await expect(page.getByTestId("blocked-by-member").getByRole("heading")).toHaveText(blockedBy(bob.name));
  await expect(page.getByTestId("chat-composer")).toHaveCount(0);
  await page.goto("/chats");
  await expect(page.getByTestId("chats-empty")).toBeVisible();
});
