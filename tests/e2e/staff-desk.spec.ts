import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { MembersResponse } from "#contract/members";
import { expect, expectNoAxeViolations, expectPath, hydrated, sameOrigin, test } from "./fixtures";
import { activeMember, type ActiveMember } from "./accounts-support";
import { siteRunProfile, staffLogin } from "./staff-support";

// One after another in one worker: every test that acts as the demo operator is in this file, because he holds one
// conversation at a time (a test in another worker claiming as him would take a conversation from under this one).
test.describe.configure({ mode: "default" });

/**
 * The operator desk (docs/staff.md) in the browser, with JavaScript and without: the claim released on send between two
 * staff members, a draft kept when the claim is lost (another tab, a colleague), "Send and next", a saved reply made by
 * an admin and inserted by an operator, ten conversations answered with the keyboard alone (the keys counted), axe on
 * the desk's screens and the inbox and a conversation at phone size.
 *
 * Each project answers as a site-run profile of its own, not the one the inbox's tests at the end of this file use, and filters
 * the inbox by it: the desk's "next" takes the longest wait, which must not be another test's conversation.
 */
const site = 1;

async function deskProfile(page: Page): Promise<{ id: number; name: string }> {
  const taken = await siteRunProfile(page);
  const offset = test.info().project.name === "js" ? 0 : 1;
  const found: { id: number; name: string }[] = [];
  for (let pageNumber = 1; pageNumber <= 20 && found.length <= offset; pageNumber++) {
    const listed = MembersResponse.parse(await (await page.request.get(`/api/members.php?page=${pageNumber}`)).json());
    for (const card of listed.results) if (card.fictional && card.id !== taken.id && !found.some((f) => f.id === card.id)) found.push({ id: card.id, name: card.name });
    if (listed.results.length === 0) break;
  }
  const chosen = found[offset];
  if (!chosen) throw new Error("not enough site-run profiles in the member's search");
  return chosen;
}

/** A member who has just written to the profile (a conversation in the inbox's "new" queue). */
async function writing(browser: Browser, baseURL: string, profileId: number, text = `Hello there ${randomUUID().slice(0, 8)}`): Promise<ActiveMember> {
  const member = await activeMember(browser, baseURL);
  const sent = await member.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: profileId, body: text, key: randomUUID() } });
  expect(sent.status(), await sent.text()).toBe(201);
  return member;
}

/** The project's site-run profile (found with a member's search) and a first member who has written to it. */
async function deskSetup(browser: Browser, baseURL: string): Promise<{ fictional: { id: number; name: string }; member: ActiveMember }> {
  const member = await activeMember(browser, baseURL);
  const fictional = await deskProfile(member.page);
  const sent = await member.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: fictional.id, body: `Hello there ${randomUUID().slice(0, 8)}`, key: randomUUID() } });
  expect(sent.status(), await sent.text()).toBe(201);
  return { fictional, member };
}

const inboxOf = (profileId: number, queue = "new") => `/staff/inbox?queue=${queue}&site=${site}&profile=${profileId}`;

/** Opens the member's conversation from the filtered inbox; its path. */
async function openConversation(page: Page, profileId: number, memberName: string): Promise<string> {
  await page.goto(inboxOf(profileId));
  await page.getByTestId("inbox-row").filter({ hasText: memberName }).getByRole("link", { name: memberName }).click();
  await expect(page.getByTestId("inbox-mine")).toBeVisible();
  return new URL(page.url()).pathname;
}

const box = (page: Page, profileName: string) => page.getByLabel(`Your answer as ${profileName}`);

test("two staff members: the claim holds while one answers and ends with the send; the page after it claims nothing", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const js = test.info().project.name === "js";
  await staffLogin(page, "operator");
  const { fictional, member } = await deskSetup(browser, baseURL ?? "");
  const path = await openConversation(page, fictional.id, member.name);
  if (js) await expect(box(page, fictional.name)).toBeFocused();

  const admin = await browser.newPage({ baseURL, javaScriptEnabled: js });
  await staffLogin(admin, "admin");
  await admin.goto(path);
  await expect(admin.getByTestId("inbox-held")).toContainText("Olly Operator is answering this conversation");
  await expect(admin.getByRole("button", { name: "Send", exact: true })).toHaveCount(0);

  const answer = `Glad you wrote! ${randomUUID().slice(0, 8)}`;
  await box(page, fictional.name).fill(answer);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("inbox-done")).toContainText("Sent. The conversation is no longer yours");
  await expect(page.getByTestId("inbox-thread")).toContainText(answer);
  // The box is empty again, and (with JavaScript) keeps the focus.
  await expect(box(page, fictional.name)).toHaveValue("");
  if (js) await expect(box(page, fictional.name)).toBeFocused();
  await expect(page.getByTestId("inbox-mine")).toHaveCount(0);

  // The colleague now gets it: the send ended the claim and the page after it did not take it again.
  await admin.goto(path);
  await expect(admin.getByTestId("inbox-mine")).toBeVisible();
  await admin.getByRole("button", { name: "Leave without answering" }).click();
  await expectPath(admin, "/staff/inbox");
  await expect(admin.getByTestId("inbox-done")).toHaveText("You left the conversation.");
  await admin.close();
  await member.page.context().close();
});

test("a lost claim keeps the typed answer and says why: another tab opened another conversation, then a colleague took it", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const js = test.info().project.name === "js";
  await staffLogin(page, "operator");
  const { fictional, member: first } = await deskSetup(browser, baseURL ?? "");
  const second = await writing(browser, baseURL ?? "", fictional.id);
  const firstPath = await openConversation(page, fictional.id, first.name);
  const draft = `Half-typed thought ${randomUUID().slice(0, 8)}`;
  await box(page, fictional.name).fill(draft);

  // The same operator opens another conversation in another tab: one claim at a time, so the first is left.
  const otherTab = await page.context().newPage();
  const secondPath = await openConversation(otherTab, fictional.id, second.name);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("inbox-lost")).toContainText("You no longer hold this conversation");
  await expect(box(page, fictional.name)).toHaveValue(draft);
  if (js) {
    // The draft is kept for the tab (sessionStorage): a reload brings it back.
    await page.reload();
    await expect(box(page, fictional.name)).toHaveValue(draft);
    await expect(page.getByTestId("inbox-restored")).toBeVisible();
  }

  // Back in the other tab (the first is left again); a colleague takes the first conversation.
  await otherTab.goto(secondPath);
  await expect(otherTab.getByTestId("inbox-mine")).toBeVisible();
  const admin = await browser.newPage({ baseURL, javaScriptEnabled: js });
  await staffLogin(admin, "admin");
  await admin.goto(firstPath);
  await expect(admin.getByTestId("inbox-mine")).toBeVisible();
  await box(page, fictional.name).fill(draft);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("inbox-lost")).toContainText("Ada Admin took this conversation while you were writing");
  await expect(box(page, fictional.name)).toHaveValue(draft);
  // Nothing was sent.
  await expect(page.getByTestId("inbox-thread")).not.toContainText(draft);

  await admin.getByRole("button", { name: "Leave without answering" }).click();
  await otherTab.getByRole("button", { name: "Leave without answering" }).click();
  await admin.close();
  await otherTab.close();
  await first.page.context().close();
  await second.page.context().close();
});

test("send and next: the answer goes out and the next waiting conversation opens, ready to answer", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const js = test.info().project.name === "js";
  await staffLogin(page, "operator");
  const { fictional, member: first } = await deskSetup(browser, baseURL ?? "");
  const second = await writing(browser, baseURL ?? "", fictional.id);
  const path = await openConversation(page, fictional.id, first.name);
  const answer = `On my way ${randomUUID().slice(0, 8)}`;
  await box(page, fictional.name).fill(answer);
  await page.getByRole("button", { name: "Send and next" }).click();
  await expect(page.getByTestId("inbox-done")).toContainText("Sent.");
  const nextPath = new URL(page.url()).pathname;
  expect(nextPath).toMatch(/^\/staff\/inbox\/\d+$/);
  expect(nextPath).not.toBe(path);
  await expect(page.getByTestId("inbox-mine")).toBeVisible();
  await expect(box(page, fictional.name)).toHaveValue("");
  if (js) await expect(box(page, fictional.name)).toBeFocused();
  // The member got the answer.
  const chat = await first.page.request.get(`/api/chat.php?member=${fictional.id}`);
  expect(await chat.text()).toContain(answer);
  await page.getByRole("button", { name: "Leave without answering" }).click();
  await first.page.context().close();
  await second.page.context().close();
});

test("an admin keeps a saved reply (deleted after a confirmation); an operator inserts it, the member's name filled in", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const js = test.info().project.name === "js";
  const admin = await browser.newPage({ baseURL, javaScriptEnabled: js });
  await staffLogin(admin, "admin");
  await staffLogin(page, "operator");
  const { fictional, member } = await deskSetup(browser, baseURL ?? "");
  const title = `Warm welcome ${randomUUID().slice(0, 6)}`;
  await admin.goto(`/staff/saved-replies?site=${site}`);
  await admin.getByLabel("Title").fill(title);
  await admin.getByLabel("Text").fill("Hi {member}, {profile} here. How was your day?");
  await admin.getByLabel("For").selectOption(String(fictional.id));
  await admin.getByRole("button", { name: "Add saved reply" }).click();
  await expect(admin.getByTestId("saved-replies-done")).toHaveText("Saved reply added.");
  await expect(admin.getByTestId("saved-reply-row").filter({ hasText: title })).toContainText(fictional.name);

  await openConversation(page, fictional.id, member.name);
  await box(page, fictional.name).fill("Hey!");
  await page.getByRole("button", { name: `Insert ${title} (${fictional.name} only)` }).click();
  await expect(box(page, fictional.name)).toHaveValue(`Hey! Hi ${member.name}, ${fictional.name} here. How was your day?`);
  if (js) await expect(box(page, fictional.name)).toBeFocused();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("inbox-thread")).toContainText(`Hi ${member.name}, ${fictional.name} here.`);

  // Deleting asks first, in the dialog.
  await admin.getByRole("link", { name: `Delete: ${title}` }).click();
  const dialog = admin.getByTestId("saved-reply-delete");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Delete the saved reply “${title}”?`);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(admin.getByTestId("saved-replies-done")).toHaveText("Saved reply deleted.");
  await expect(admin.getByTestId("saved-reply-row").filter({ hasText: title })).toHaveCount(0);
  await admin.close();
  await member.page.context().close();
});

test("an operator answers ten waiting conversations with the keyboard alone, in at most 4 keys per answer besides the text", async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000);
  await staffLogin(page, "operator");
  const { fictional, member: firstMember } = await deskSetup(browser, baseURL ?? "");
  const members: ActiveMember[] = [firstMember];
  for (let i = 1; i < 10; i++) members.push(await writing(browser, baseURL ?? "", fictional.id));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/staff/inbox?site=${site}&profile=${fictional.id}`);
  await hydrated(page.getByRole("button", { name: "Next conversation" }));
  let keys = 0;
  const press = async (chord: string) => {
    keys += chord.split("+").length;
    await page.keyboard.press(chord);
  };
  await press("n");
  const answered: string[] = [];
  for (let i = 0; i < 10; i++) {
    await expect(page).toHaveURL(/\/staff\/inbox\/\d+/);
    const path = new URL(page.url()).pathname;
    const answerBox = box(page, fictional.name);
    await hydrated(answerBox);
    await expect(answerBox).toBeFocused();
    // The box and the newest message are in view at 1280×800 without scrolling.
    await expect(answerBox).toBeInViewport();
    await expect(page.getByTestId("inbox-thread").locator("li").last()).toBeInViewport();
    const text = `Answer ${i + 1}, typed ${randomUUID().slice(0, 6)}`;
    await page.keyboard.type(text);
    await press("Control+Shift+Enter");
    await expect(page).not.toHaveURL(new RegExp(`${path}(\\?|$)`));
    answered.push(path);
  }
  expect(new Set(answered).size).toBe(10);
  expect(keys / 10, `keys per answer (${keys} for 10)`).toBeLessThanOrEqual(4);
  // Every one was answered by the operator: each is now in "waiting", the operator named as who answered.
  await page.goto(inboxOf(fictional.id, "waiting"));
  for (const path of answered) {
    const row = page.getByTestId("inbox-row").filter({ has: page.locator(`a[href^="${path}"]`) });
    await expect(row).toContainText("Olly Operator");
  }
  for (const member of members) await member.page.context().close();
});

test("the desk's screens pass axe, and the inbox and a conversation work at phone size", async ({ page, browser, baseURL }) => {
  await staffLogin(page, "operator");
  const { fictional, member } = await deskSetup(browser, baseURL ?? "");
  await page.goto(inboxOf(fictional.id));
  await expectNoAxeViolations(page);
  // The row shows how long the member has waited and the start of their message.
  const row = page.getByTestId("inbox-row").filter({ hasText: member.name });
  await expect(row.getByTestId("inbox-wait")).toHaveText(/^\d+ min$/);
  await expect(row.getByTestId("inbox-preview")).toContainText("Hello there");
  await openConversation(page, fictional.id, member.name);
  await expect(page.getByTestId("inbox-member-context")).toContainText("Member since");
  await expectNoAxeViolations(page);
  await page.getByTestId("inbox-shortcuts").getByText("Keyboard shortcuts").click();
  await expect(page.getByTestId("inbox-shortcuts")).toContainText("Alt+N");
  await expectNoAxeViolations(page);

  // Phone size: nothing wider than the screen; the box and the send buttons in reach.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(box(page, fictional.name)).toBeVisible();
  const width = async () => page.evaluate(() => document.documentElement.scrollWidth);
  expect(await width()).toBeLessThanOrEqual(390);
  const send = await page.getByRole("button", { name: "Send and next" }).boundingBox();
  expect(send && send.x >= 0 && send.x + send.width <= 390 && send.height >= 24).toBe(true);
  await test.info().attach("conversation at 390x844", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  await page.getByRole("button", { name: "Leave without answering" }).click();
  await expectPath(page, "/staff/inbox");
  await page.goto(inboxOf(fictional.id));
  expect(await width()).toBeLessThanOrEqual(390);
  await expect(page.getByRole("button", { name: "Next conversation" })).toBeInViewport();
  await test.info().attach("inbox at 390x844", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

  // The operator's dashboard is about their own work.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/staff");
  await expect(page.getByTestId("staff-desk")).toContainText("Answered today");
  await expect(page.getByText("Photos to review")).toHaveCount(0);
  await expectNoAxeViolations(page);

  const admin = await browser.newPage({ baseURL });
  await staffLogin(admin, "admin");
  await admin.goto(`/staff/saved-replies?site=${site}`);
  await expectNoAxeViolations(admin);
  await admin.close();
  await member.page.context().close();
});

/**
 * The operator inbox (docs/staff.md) in the browser, with JavaScript and without: a member writes to a
 * site-run profile, the operator finds the conversation in "new", a second staff member sees it claimed, the
 * operator answers as the profile, and the member sees the answer (live, without a reload, with JavaScript).
 */
test("a member's message to a site-run profile is answered from the operator inbox", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const js = test.info().project.name === "js";
  const member = await activeMember(browser, baseURL ?? "");
  const fictional = await siteRunProfile(member.page);
  const question = `Are you free this weekend? ${randomUUID().slice(0, 8)}`;
  const sent = await member.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: fictional.id, body: question, key: randomUUID() } });
  expect(sent.status(), await sent.text()).toBe(201);
  // The member keeps the conversation open (with JavaScript, its live stream runs).
  await member.page.goto(`/members/${fictional.id}/chat`);
  if (js) await hydrated(member.page.getByTestId("chat-page"));

  await staffLogin(page, "operator");
  await expectPath(page, "/staff");
  await page.getByRole("link", { name: "Inbox", exact: true }).click();
  await expectPath(page, "/staff/inbox");
  const row = page.getByTestId("inbox-row").filter({ hasText: member.name });
  await expect(row).toHaveCount(1);
  await row.getByRole("link", { name: member.name }).click();
  await expect(page.getByTestId("inbox-thread")).toContainText(question);
  await expect(page.getByTestId("inbox-mine")).toBeVisible();
  const conversationPath = new URL(page.url()).pathname;

  // A second staff member opening it meanwhile sees who answers and gets no reply form.
  const admin = await browser.newPage({ baseURL, javaScriptEnabled: js });
  await staffLogin(admin, "admin");
  await expectPath(admin, "/staff");
  await admin.goto(conversationPath);
  await expect(admin.getByTestId("inbox-held")).toContainText("Olly Operator is answering this conversation");
  await expect(admin.getByRole("button", { name: "Send", exact: true })).toHaveCount(0);
  await admin.close();

  const answer = `Maybe! What do you have in mind? ${randomUUID().slice(0, 8)}`;
  await page.getByLabel(`Your answer as ${fictional.name}`).fill(answer);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("inbox-done")).toContainText("Sent.");
  await expect(page.getByTestId("inbox-thread")).toContainText(answer);

  // The member sees the answer: live with JavaScript, on the next page load without.
  if (!js) await member.page.reload();
  await expect(member.page.getByTestId("chat-message").filter({ hasText: answer })).toHaveCount(1, { timeout: 10_000 });
  await member.page.context().close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the operator answers with a gift and one of the profile's photos, and the member gets both", async ({ page, browser, baseURL }) => {
    const member = await activeMember(browser, baseURL ?? "");
    const fictional = await siteRunProfile(member.page);
    const sent = await member.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: fictional.id, body: `Surprise me ${randomUUID().slice(0, 8)}`, key: randomUUID() } });
    expect(sent.status(), await sent.text()).toBe(201);

    await staffLogin(page, "operator");
    await page.goto("/staff/inbox");
    await page.getByTestId("inbox-row").filter({ hasText: member.name }).getByRole("link", { name: member.name }).click();
    await expect(page.getByTestId("inbox-mine")).toBeVisible();
    // Each gift and photo is a form of its own, behind a disclosure that opens without JavaScript.
    await page.getByTestId("inbox-gift-reply").getByText("Send a gift").click();
    await page.getByRole("button", { name: "Send Red rose" }).click();
    await expect(page.getByTestId("inbox-done")).toContainText("Sent.");
    await expect(page.getByTestId("inbox-thread")).toContainText("Gift: Red rose");
    await page.getByTestId("inbox-photo-reply").getByText(`Send one of ${fictional.name}'s photos`).click();
    await page.getByRole("button", { name: `Send ${fictional.name}'s photo 1` }).click();
    await expect(page.getByTestId("inbox-done")).toContainText("Sent.");
    // The photo shows in the thread as the image it is (its file through /staff/inbox/media).
    const shown = page.getByTestId("inbox-thread").getByRole("img", { name: `Photo from ${fictional.name}` });
    await expect(shown).toBeVisible();
    expect(await shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await member.page.goto(`/members/${fictional.id}/chat`);
    await expect(member.page.locator("[data-kind=gift][data-gift=rose]")).toBeVisible();
    const image = member.page.locator("[data-kind=image] img");
    await expect(image).toBeVisible();
    const file = await member.page.request.get((await image.getAttribute("src")) ?? "");
    expect([file.status(), file.headers()["content-type"]]).toEqual([200, "image/jpeg"]);
    await member.page.context().close();
  });
});
