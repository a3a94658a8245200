import sharp from "sharp";
import type { Page } from "@playwright/test";
import { expect, expectPath, fillLogin, sameOrigin, test } from "./fixtures";
import { activeMember, type ActiveMember } from "./accounts-support";
import { loadOnlyOwnPhotos, staffLogin } from "./staff-support";

/**
 * Moderation in the browser, with JavaScript and without (docs/staff.md): the photo queue, a report resolved
 * with a hidden photo, and member support (credits, a suspension the member meets at login).
 */

/** A photo uploaded by the member through the api web forwards (as the photo page's form does): its id and its files' names. */
async function uploadPhoto(member: ActiveMember, colour: { r: number; g: number; b: number }): Promise<{ id: number; files: string[] }> {
  const buffer = await sharp({ create: { width: 400, height: 400, channels: 3, background: colour } }).jpeg().toBuffer();
  const res = await member.page.request.post("/api/photos.php", { headers: sameOrigin, multipart: { photo: { name: "me.jpg", mimeType: "image/jpeg", buffer } } });
  expect(res.status(), await res.text()).toBe(201);
  const { photo } = (await res.json()) as { photo: { id: number; filename: string; thumb_filename: string } };
  return { id: photo.id, files: [photo.filename, photo.thumb_filename] };
}

async function staffPage(page: Page, role: "admin" | "moderator" | "support"): Promise<void> {
  await staffLogin(page, role);
  await expectPath(page, "/staff");
}

test("a moderator approves one photo and rejects another; the member is told why on the photos page", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const member = await activeMember(browser, baseURL ?? "");
  await staffPage(page, "moderator");
  const photosLink = page.getByRole("link", { name: /^Photos/ });
  const countOf = async (of: Page) =>
    Number((await of.getByRole("link", { name: /^Photos/ }).getByTestId("staff-queue-count").textContent({ timeout: 1000 }).catch(() => "0"))?.match(/^\d+/)?.[0] ?? 0);
  const keptPhoto = await uploadPhoto(member, { r: 20, g: 160, b: 90 });
  const refusedPhoto = await uploadPhoto(member, { r: 160, g: 20, b: 90 });
  const [kept, refused] = [keptPhoto.id, refusedPhoto.id];
  await loadOnlyOwnPhotos(page, [...keptPhoto.files, ...refusedPhoto.files]);
  if (test.info().project.name === "js") {
    // With JavaScript the frame's count follows the queue live (/staff/events), without a reload: it comes to what a
    // page loaded now says. (Other tests change the same queue meanwhile, so no fixed number would hold.)
    const fresh = await page.context().newPage();
    await expect
      .poll(async () => {
        await fresh.goto("/staff");
        return (await countOf(page)) === (await countOf(fresh));
      }, { timeout: 10_000 })
      .toBe(true);
    await fresh.close();
  }
  await photosLink.click();
  await expectPath(page, "/staff/photos");
  await expect(page.getByTestId("staff-photo")).not.toHaveCount(0);

  await page.getByRole("button", { name: `Approve ${kept}`, exact: true }).click();
  await expect(page.getByTestId("staff-photos-done")).toHaveText("1 approved.");
  await expect(page.getByRole("button", { name: `Approve ${kept}`, exact: true })).toHaveCount(0);

  await page.getByLabel("Reason for a rejection").selectOption({ label: "Poor quality" });
  await page.getByRole("button", { name: `Reject ${refused}`, exact: true }).click();
  await expect(page.getByTestId("staff-photos-done")).toHaveText("1 rejected; the members are told why.");

  await member.page.goto("/profile/photos");
  await expect(member.page.getByTestId("own-photo")).toHaveCount(1);
  await expect(member.page.getByTestId("photo-rejections")).toContainText("A photo was not approved: the photo is too blurry, dark or small to see you.");
  await member.page.getByRole("button", { name: "OK, remove the notice" }).click();
  await expect(member.page.getByTestId("photo-rejections")).toHaveCount(0);
  await member.page.context().close();
});

test("a member reports a profile; an admin hides its photo and resolves the report", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const reported = await activeMember(browser, baseURL ?? "");
  const photoId = (await uploadPhoto(reported, { r: 30, g: 30, b: 200 })).id;
  const reporter = await activeMember(browser, baseURL ?? "");
  await reporter.page.goto(`/members/${reported.profileId}`);
  await reporter.page.getByTestId("report-member").click();
  await expectPath(reporter.page, `/members/${reported.profileId}/report`);
  // Without a reason the form says what is missing.
  await reporter.page.getByTestId("report-send").click();
  await expect(reporter.page.getByText("Please choose a reason.")).toBeVisible();
  await reporter.page.getByTestId("report-reason").selectOption("fake_profile");
  await reporter.page.getByTestId("report-details").fill("These photos belong to someone I know.");
  await reporter.page.getByTestId("report-send").click();
  await expect(reporter.page.getByTestId("report-sent")).toHaveText("Thank you. Our team will look at your report.");

  await staffPage(page, "admin");
  await page.goto("/staff/reports");
  await page.getByTestId("staff-report-row").filter({ hasText: reported.name }).first().getByRole("link").click();
  await expect(page.getByText("These photos belong to someone I know.")).toBeVisible();
  await page.getByRole("button", { name: "Take this report" }).click();
  await expect(page.getByTestId("staff-report-status")).toHaveText("In progress");
  await page.getByRole("button", { name: `Hide photo ${photoId}` }).click();
  await expect(page.getByTestId("staff-report-photo").and(page.locator(`[data-status="rejected"]`))).toHaveCount(1);
  await expect(page.getByTestId("staff-report-notes")).toContainText(`Photo ${photoId} hidden (not_the_member).`);
  await page.getByLabel("Closing note (optional)").fill("Photo removed.");
  await page.getByRole("button", { name: "Resolve" }).click();
  await expect(page.getByTestId("staff-report-status")).toHaveText("Resolved");

  await reporter.page.goto(`/members/${reported.profileId}`);
  await expect(reporter.page.getByTestId("member-page").locator(`img[src*="photos/"]`)).toHaveCount(0);
  await reporter.page.context().close();
  await reported.page.context().close();
});

test("support grants credits, then suspends the member, whose login shows the ban page", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const member = await activeMember(browser, baseURL ?? "");
  await staffPage(page, "support");
  await page.getByRole("link", { name: "Members" }).click();
  await page.getByLabel("E-mail, name, id or payment id").fill(member.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByTestId("staff-member-row").getByRole("link").click();
  const credits = page.getByTestId("staff-member-credits");
  const before = Number((await credits.getByRole("heading").textContent())?.match(/Credits: (\d+)/)?.[1]);
  await page.getByLabel("Credits (negative to deduct)").fill("25");
  await page.getByLabel("Reason (shown in the ledger)").fill("Goodwill for a lost message");
  await page.getByRole("button", { name: "Book" }).click();
  await expect(page.getByTestId("staff-member-done")).toBeVisible();
  await expect(credits.getByRole("heading")).toHaveText(`Credits: ${before + 25} (ledger sum ${before + 25})`);
  await expect(page.getByTestId("staff-member-ledger").getByRole("row").nth(1)).toContainText("+25");

  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByRole("link", { name: "Suspend…" }).click();
  const dialog = page.getByTestId("staff-confirm");
  await dialog.getByLabel("Reason", { exact: true }).selectOption({ label: "Spam or advertising" });
  await dialog.getByLabel("Until (inclusive)").fill(tomorrow);
  await dialog.getByRole("button", { name: "Suspend", exact: true }).click();
  await expect(page.getByTestId("staff-member-suspension")).toContainText("Spam or advertising");

  // The member's session has ended; logging in again shows the ban page with the reason and the end date.
  await member.page.goto("/profile");
  await expectPath(member.page, "/login");
  await fillLogin(member.page, member.email, member.password);
  await expectPath(member.page, "/pages/ban");
  const date = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${tomorrow}T12:00:00Z`));
  await expect(member.page.getByTestId("suspension")).toContainText(`Your account is suspended until ${date}.`);
  await expect(member.page.getByTestId("suspension")).toContainText("Reason: Spam or advertising");
  await member.page.context().close();
});
