import { randomUUID } from "node:crypto";
import { expect, expectPath, hydrated, sameOrigin, test } from "./fixtures";
import { activeMember } from "./accounts-support";
import { siteRunProfile, staffLogin } from "./staff-support";

// One after another in one worker: the tests share the demo operator, who holds one conversation at a time.
test.describe.configure({ mode: "default" });

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
