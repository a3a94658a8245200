import { randomUUID } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { expect, expectPath, sameOrigin, test } from "./fixtures";
import { mailLink, membersDeletedAfterEach } from "./accounts-support";

/**
 * Data export, with JavaScript on and off: a member asks on /profile, the job builds the zip and mails
 * the link; the link downloads (as that member only) a zip that holds the member's messages.
 */
const member = membersDeletedAfterEach();

test("a member's data export is mailed as a link that downloads a zip with their messages", { tag: "@nojs" }, async ({ browser, baseURL }) => {
  const [alice, bob] = await Promise.all([member(browser, baseURL), member(browser, baseURL)]);
  const body = `Export me ${randomUUID().slice(0, 8)}`;
  const sent = await alice.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: bob.profileId, body, key: randomUUID() } });
  expect(sent.status(), await sent.text()).toBeLessThan(300);

  const page = alice.page;
  await page.goto("/profile");
  const panel = page.getByTestId("data-export");
  await panel.getByRole("button", { name: "Request my data" }).click();
  await expectPath(page, "/profile");
  await expect(page.getByTestId("data-export-notice")).toHaveText("We are preparing your data. You will get an e-mail with a download link when it is ready.");

  const link = await mailLink(alice.email, "data_export");
  expect(link).toMatch(/^\/profile\/export\?token=/);
  // Another member's session gets no file from the link.
  const foreign = await bob.page.request.get(link, { maxRedirects: 0 });
  expect(foreign.status()).toBe(302);
  const download = await page.request.get(link);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename=".+\.zip"$/);
  const files = unzipSync(new Uint8Array(await download.body()));
  expect(Object.keys(files)).toEqual(expect.arrayContaining(["account.json", "profile.json", "messages.json", "likes.json", "payments.json", "consents.json"]));
  const messages = JSON.parse(strFromU8(files["messages.json"]!)) as { with: string; messages: { from: string; body: string }[] }[];
  expect(messages).toContainEqual(expect.objectContaining({ with: bob.name, messages: [expect.objectContaining({ from: "me", body })] }));
  expect(strFromU8(files["account.json"]!)).not.toContain("password");
});
