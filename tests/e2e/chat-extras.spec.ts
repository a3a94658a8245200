import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, readLocale, test, text } from "./fixtures";
import { membersDeletedAfterEach, type ActiveMember } from "./accounts-support";

/**
 * Chat extras, browser tests with JavaScript on and off: an icebreaker (from the empty
 * conversation and from the composer's modal with its price line), a GIF found by an English and by a Dutch
 * search, a gift from the chat and one from the member page's gift action, and an image; the recipient sees
 * each. Every test uses fresh members (20 signup credits; a message or GIF costs 10, a gift 15 on the demo
 * sites, a photo 5) and every pick is a plain form, so both projects click the same things.
 */

const chat = readLocale("en", "chat");
const member = readLocale("en", "member");
const icebreakersEn = Object.values((JSON.parse(JSON.stringify(readLocale("en", "icebreakers"))) as { lines: Record<string, string> }).lines ?? {});

/** Active members of the test, deleted after it. */
const activeMember = membersDeletedAfterEach();

const messages = (page: Page) => page.getByTestId("chat-message");

/** The recipient opens their conversation with `from` (the list's row) and sees what `check` expects. */
async function recipientSees(to: ActiveMember, conversationPath: string, check: (page: Page) => Promise<void>): Promise<void> {
  await to.page.goto(conversationPath);
  await check(to.page);
}

/** Waits for the sent message's page (/chats/{id}) and answers its path. */
async function conversationPath(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/chats\/\d+/);
  return new URL(page.url()).pathname;
}

async function imageLoaded(page: Page, selector: string): Promise<void> {
  await expect.poll(() => page.locator(selector).first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: `${selector} loaded` }).toBe(true);
}

test("an icebreaker from the empty conversation and one from the composer's modal with its price line", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const [a, b] = [await activeMember(browser, baseURL), await activeMember(browser, baseURL)];
  await a.page.goto(`/members/${b.profileId}/chat`);
  const inline = a.page.getByTestId("chat-start-icebreakers");
  await expect(inline.getByTestId("icebreaker")).toHaveCount(4);
  const first = (await inline.getByTestId("icebreaker").first().textContent()) ?? "";
  expect(icebreakersEn).toContain(first);
  await inline.getByTestId("icebreaker").first().click();
  const path = await conversationPath(a.page);
  await expect(messages(a.page).last()).toContainText(first);

  await a.page.getByTestId("open-icebreakers").click();
  const modal = a.page.getByTestId("chat-extras-icebreakers");
  await expect(modal).toBeVisible();
  await expect(modal.getByTestId("chat-extras-price")).toHaveText(`${text(chat, "composer.cost_other").replace("{{count}}", "10")} · ${text(chat, "composer.balance_other").replace("{{count}}", "10")}`);
  await expect(modal.getByTestId("icebreaker")).toHaveCount(icebreakersEn.length);
  const second = icebreakersEn[5] ?? "";
  await modal.getByTestId("icebreaker").nth(5).click();
  await expect(a.page.getByTestId("chat-extras-icebreakers")).toHaveCount(0);
  await expect(messages(a.page).last()).toContainText(second);

  await recipientSees(b, path, async (page) => {
    await expect(messages(page)).toHaveCount(2);
    await expect(messages(page).nth(0)).toContainText(first);
    await expect(messages(page).nth(1)).toContainText(second);
  });
});

test("a GIF found by an English search and one found by a Dutch search", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const [a, b] = [await activeMember(browser, baseURL), await activeMember(browser, baseURL)];
  await a.page.goto(`/members/${b.profileId}/chat`);
  await a.page.getByTestId("open-gif").click();
  await a.page.getByTestId("gif-query").fill("heart");
  await a.page.getByTestId("gif-search").click();
  await expect(a.page.getByTestId("gif-result").first()).toBeVisible();
  await imageLoaded(a.page, "[data-testid=gif-result] img");
  await a.page.getByTestId("gif-result").first().click();
  const path = await conversationPath(a.page);
  await expect(a.page.locator("[data-kind=gif]")).toHaveCount(1);
  await expect(a.page.locator("[data-kind=gif]")).toHaveAttribute("data-gif", /^c-heart-/);

  // In Dutch: "kusje" (a little kiss) finds the kisses.
  await a.page.goto(`/nl${path}?gif=kusje`);
  await expect(a.page.getByTestId("gif-result").first()).toBeVisible();
  await a.page.getByTestId("gif-result").first().click();
  await expect(a.page).toHaveURL(/\/nl\/chats\/\d+/);
  await expect(a.page.locator("[data-kind=gif]")).toHaveCount(2);
  await expect(a.page.locator("[data-kind=gif]").nth(1)).toHaveAttribute("data-gif", /^c-kiss-/);

  await recipientSees(b, path, async (page) => {
    await expect(page.locator("[data-kind=gif]")).toHaveCount(2);
    await imageLoaded(page, "[data-kind=gif] img");
  });
});

test("a gift from the chat", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const [a, b] = [await activeMember(browser, baseURL), await activeMember(browser, baseURL)];
  await a.page.goto(`/members/${b.profileId}/chat`);
  await a.page.getByTestId("open-gift").click();
  const panel = a.page.getByTestId("chat-extras-gift");
  await expect(panel.getByTestId("chat-extras-price")).toContainText(text(chat, "extras.giftCost_other").replace("{{count}}", "15"));
  await expect(panel.getByTestId("gift-list").locator("button img")).toHaveCount(12);
  await panel.getByTestId("gift-rose").click();
  const path = await conversationPath(a.page);
  await expect(a.page.locator("[data-kind=gift][data-gift=rose]")).toBeVisible();
  await recipientSees(b, path, async (page) => {
    const gift = page.locator("[data-kind=gift][data-gift=rose]");
    await expect(gift).toContainText(text(chat, "gifts.rose"));
    await imageLoaded(page, "[data-kind=gift] img");
  });
});

test("a gift from the member page's gift action", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const [a, b] = [await activeMember(browser, baseURL), await activeMember(browser, baseURL)];
  await a.page.goto(`/members/${b.profileId}`);
  await a.page.getByTestId("member-actions").getByRole("link", { name: text(member, "actions.gift") }).click();
  await expect(a.page).toHaveURL(new RegExp(`/members/${b.profileId}/chat\\?gift=1$`));
  await a.page.getByTestId("chat-extras-gift").getByTestId("gift-teddy").click();
  const path = await conversationPath(a.page);
  await expect(a.page.locator("[data-kind=gift][data-gift=teddy]")).toBeVisible();
  await recipientSees(b, path, async (page) => {
    await expect(page.locator("[data-kind=gift][data-gift=teddy]")).toContainText(text(chat, "gifts.teddy"));
  });
});

test("an image: a thumbnail that opens full size, for the two members only; a non-image is refused", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const [a, b, outsider] = [await activeMember(browser, baseURL), await activeMember(browser, baseURL), await activeMember(browser, baseURL)];
  const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#3b82f6" } }).png().toBuffer();
  await a.page.goto(`/members/${b.profileId}/chat`);
  await a.page.getByTestId("open-image").click();
  // Not an image: refused with the clear message, nothing sent.
  await a.page.getByTestId("image-file").setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("just some text") });
  await a.page.getByTestId("image-send").click();
  await expect(a.page.getByTestId("chat-extras-error")).toContainText("JPEG, PNG, WebP or HEIC");
  await expect(messages(a.page)).toHaveCount(0);

  // The form stays open beside the message.
  await a.page.getByTestId("image-file").setInputFiles({ name: "blue.png", mimeType: "image/png", buffer: png });
  await a.page.getByTestId("image-send").click();
  const path = await conversationPath(a.page);
  const image = a.page.locator("[data-kind=image]");
  await expect(image).toBeVisible();
  await imageLoaded(a.page, "[data-kind=image] img");
  const full = (await image.getAttribute("href")) ?? "";
  expect(full).toMatch(/^\/api\/chat-image\.php\?message=\d+&size=full$/);

  await recipientSees(b, path, async (page) => {
    await imageLoaded(page, "[data-kind=image] img");
    const res = await page.request.get(full);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/jpeg");
  });
  expect((await outsider.page.request.get(full)).status()).toBe(404);
});
