import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { expect, expectPath, hydrated, readLocale, sameOrigin, test, text } from "./fixtures";
import { membersDeletedAfterEach, type ActiveMember } from "./accounts-support";

/**
 * Live chat in the browser, two members in two browser contexts: a message shows in
 * the other member's open conversation, in their /chats list and in their title within 2 s without a page
 * load; typing shows ("{name} is typing…") and goes after 5 s; the sender sees "Read" once the other opened
 * the conversation. And the fallback: without EventSource the counts come by polling (playwright.config.ts
 * sets USER_REFETCH_SECONDS=2 for web; the 60 s / 300 s of docs/product.md §9 stay the default).
 *
 * A fresh member is free with 20 signup credits and a message costs 10: each member sends at most two.
 */

const chat = readLocale("en", "chat");
const t = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{{${k}}}`, String(v)), text(chat, key));

/** What arrives on the stream shows within 2 s. */
const liveMs = 2000;

test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "the live stream and polling are JavaScript; without it each page load shows the latest state (tests/e2e/chat.spec.ts)");

/** Fresh, activated (free) members with browser pages of their own, deleted after each test. */
const activeMember = membersDeletedAfterEach();

type Sent = { message: { id: number; conversation_id: number; body: string } };

async function sendByApi(from: ActiveMember, to: ActiveMember, body: string): Promise<Sent> {
  const response = await from.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: to.profileId, body, key: randomUUID() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Sent;
}

/** Opens `path` and waits until the page is hydrated and its event stream answered (the live client runs). */
async function openLive(page: Page, path: string): Promise<void> {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events.php", { timeout: 15_000 });
  await page.goto(path);
  expect((await stream).status(), "the event stream opened").toBe(200);
  await hydrated(page.getByTestId("chat-page").or(page.getByTestId("account-menu")).first());
  await markPage(page);
}

/** A marker on the window: still there later means no page load happened in between. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { liveMarker: boolean }).liveMarker = true));
}

async function expectNotReloaded(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { liveMarker?: boolean }).liveMarker), "no page load happened").toBe(true);
}

function rowOf(page: Page, conversation: number): Locator {
  return page.locator(`[data-testid="chat-row"][data-conversation="${conversation}"]`);
}

function composer(page: Page): Locator {
  return page.getByTestId("chat-composer");
}

test("a message shows in the other's open conversation and the list beside it within 2 s, typing shows and goes, and the sender sees Read", async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const { message: first } = await sendByApi(alice, bob, "Hi Bob, first");
  const conversation = first.conversation_id;

  await openLive(bob.page, `/chats/${conversation}`);
  await expect(bob.page.getByTestId("chat-message")).toHaveCount(1);
  await openLive(alice.page, `/chats/${conversation}`);
  await hydrated(composer(alice.page));
  // Bob's visit read the first message: Alice's page shows that from its load.
  await expect(alice.page.getByTestId("chat-status")).toHaveText(t("conversation.read"));

  // Typing: shown to Bob at once, gone about 5 s after the last signal.
  const typing = bob.page.getByTestId("chat-typing");
  await expect(typing).toHaveCount(0);
  await composer(alice.page).getByRole("textbox").fill("Hello Bob, this arrives");
  await expect(typing).toHaveText(t("conversation.typing", { name: alice.name }), { timeout: liveMs });
  const shownAt = Date.now();
  await expect(typing).toHaveCount(0, { timeout: 10_000 });
  const shownFor = Date.now() - shownAt;
  expect(shownFor, "typing shows for about 5 s").toBeGreaterThan(3500);
  expect(shownFor).toBeLessThan(7500);

  // The message: in Bob's conversation and in the row beside it, without a page load.
  const body = `Live message ${randomUUID().slice(0, 6)}`;
  await composer(alice.page).getByRole("textbox").fill(body);
  const sentAt = Date.now();
  await composer(alice.page).getByRole("button", { name: t("composer.send"), exact: true }).click();
  const received = bob.page.getByTestId("chat-message").filter({ hasText: body });
  await expect(received).toHaveCount(1, { timeout: liveMs });
  expect(Date.now() - sentAt).toBeLessThan(liveMs + 500);
  await expect(received).toHaveAttribute("data-mine", "false");
  await expect(bob.page.getByTestId("chat-message")).toHaveCount(2);
  await expect(rowOf(bob.page, conversation).getByTestId("chat-preview")).toHaveText(body, { timeout: liveMs });
  // Open in front of Bob, so read at once: no unread count in his title or list.
  await expect(bob.page).not.toHaveTitle(/^\(\d+\) /);
  await expect(rowOf(bob.page, conversation)).toHaveAttribute("data-unread", "0");
  await expectNotReloaded(bob.page);

  // Alice's new message turns from Sent to Read as Bob's open conversation read it.
  const mine = alice.page.getByTestId("chat-message").filter({ hasText: body });
  await expect(mine.getByTestId("chat-status")).toHaveText(t("conversation.read"), { timeout: 5000 });
  await expectNotReloaded(alice.page);
});

test("the typing notice ends when the typing member's message arrives, not 5 s after the last signal", async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const { message: first } = await sendByApi(alice, bob, "Hi Bob, before typing");
  const conversation = first.conversation_id;
  await openLive(bob.page, `/chats/${conversation}`);
  await openLive(alice.page, `/chats/${conversation}`);
  await hydrated(composer(alice.page));

  const typing = bob.page.getByTestId("chat-typing");
  const body = `Typed then sent ${randomUUID().slice(0, 6)}`;
  await composer(alice.page).getByRole("textbox").fill(body);
  await expect(typing).toHaveText(t("conversation.typing", { name: alice.name }), { timeout: liveMs });
  await composer(alice.page).getByRole("button", { name: t("composer.send"), exact: true }).click();
  const sentAt = Date.now();
  await expect(bob.page.getByTestId("chat-message").filter({ hasText: body })).toHaveCount(1, { timeout: liveMs });
  // Gone with the message: well before the 5 s a typing signal is shown for.
  await expect(typing).toHaveCount(0, { timeout: 1000 });
  expect(Date.now() - sentAt, "the notice went with the message").toBeLessThan(3500);
  await expectNotReloaded(bob.page);
});

test("a message shows in the other's /chats list (moved to the top, unread) and in their title within 2 s; Read shows once they open it", async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const carol = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const { message: fromAlice } = await sendByApi(alice, bob, "Hello from Alice");
  const { message: fromCarol } = await sendByApi(carol, bob, "Hello from Carol");
  const conversation = fromAlice.conversation_id;

  const page = bob.page;
  await openLive(page, "/chats");
  const rows = page.getByTestId("chat-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute("data-conversation", String(fromCarol.conversation_id));
  await expect(page).toHaveTitle(/^\(2\) /);

  await openLive(alice.page, `/chats/${conversation}`);
  const mine = alice.page.getByTestId("chat-message").filter({ hasText: "Hello from Alice" });
  await expect(mine.getByTestId("chat-status")).toHaveText(t("conversation.sent"));

  const body = `Second from Alice ${randomUUID().slice(0, 6)}`;
  const sentAt = Date.now();
  await sendByApi(alice, bob, body);
  await expect(page).toHaveTitle(/^\(3\) /, { timeout: liveMs });
  expect(Date.now() - sentAt).toBeLessThan(liveMs + 500);
  await expect(rows.first()).toHaveAttribute("data-conversation", String(conversation), { timeout: liveMs });
  await expect(rowOf(page, conversation)).toHaveAttribute("data-unread", "2");
  await expect(rowOf(page, conversation).getByTestId("chat-preview")).toHaveText(body);
  await expect(page.getByTestId("chat-unread-total")).toHaveText("3");
  await expectNotReloaded(page);

  // Bob opens Alice's conversation: her page shows Read without a load of its own.
  const last = alice.page.getByTestId("chat-message").filter({ hasText: body });
  await expect(last.getByTestId("chat-status")).toHaveText(t("conversation.sent"), { timeout: liveMs });
  await rowOf(page, conversation).locator(`a[href^="/chats/${conversation}"]`).click();
  await expectPath(page, `/chats/${conversation}`);
  await expect(page).toHaveTitle(/^\(1\) /);
  await expect(last.getByTestId("chat-status")).toHaveText(t("conversation.read"), { timeout: liveMs });
  await expectNotReloaded(alice.page);
});

test("without EventSource the counts come by polling, without a page load", async ({ browser, baseURL }) => {
  const alice = await activeMember(browser, baseURL);
  const bob = await activeMember(browser, baseURL);
  const page = bob.page;
  await page.addInitScript(() => {
    delete (window as unknown as { EventSource?: unknown }).EventSource;
  });
  await page.goto("/members");
  // Counted from this document on (the activation page before it still had EventSource).
  const streams: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/events.php") streams.push(request.url());
  });
  await hydrated(page.getByTestId("account-menu"));
  expect(await page.evaluate(() => typeof (window as unknown as { EventSource?: unknown }).EventSource)).toBe("undefined");
  await markPage(page);
  const messagesLink = page.getByRole("banner").getByRole("link", { name: /^Messages/ });
  await expect(messagesLink.getByTestId("badge-unread")).toHaveCount(0);
  await expect(page).not.toHaveTitle(/^\(\d+\) /);

  const reloads: number[] = [];
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname.endsWith(".data")) reloads.push(Date.now());
  });
  const sentAt = Date.now();
  await sendByApi(alice, bob, "Polled, not streamed");
  // Polling starts 5 s after load and repeats every USER_REFETCH_SECONDS (2 s here).
  await expect(messagesLink.getByTestId("badge-unread")).toHaveText("1", { timeout: 10_000 });
  await expect(page).toHaveTitle(/^\(1\) /);
  expect(Date.now() - sentAt).toBeLessThan(10_000);
  await expectNotReloaded(page);
  expect(streams, "no event stream was tried").toEqual([]);

  // And it goes on: the next message is counted by a later poll, again without a load.
  await sendByApi(alice, bob, "Polled again");
  await expect(messagesLink.getByTestId("badge-unread")).toHaveText("2", { timeout: 10_000 });
  await expect(page).toHaveTitle(/^\(2\) /);
  await expectNotReloaded(page);
  expect(reloads.length, "the page's data was re-read by polling").toBeGreaterThanOrEqual(2);
});
