import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { MemberResponse } from "#contract/members";
import { PhotoUploadResponse } from "#contract/photos";
import { UserResponse } from "#contract/user";
import { accounts, expect, expectPath, test, sameOrigin } from "./fixtures";
import { signUp } from "./accounts-support";

/** Own photos on /profile/photos (upload, limit, main, delete) and the premium teaser on a member page. */
let dir: string;
const files: Record<"red" | "green" | "blue" | "text", string> = { red: "", green: "", blue: "", text: "" };

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "rdv-photos-e2e-"));
  const colours = { red: "#d0204a", green: "#20a060", blue: "#2050d0" } as const;
  for (const [name, colour] of Object.entries(colours) as [keyof typeof colours, string][]) {
    files[name] = path.join(dir, `${name}.jpg`);
    writeFileSync(files[name], await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } }).jpeg().toBuffer());
  }
  // Text with an image's name: refused by its content.
  files.text = path.join(dir, "holiday.jpg");
  writeFileSync(files.text, "This is a text file, not a photo.\n");
});

test.afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function upload(page: Page, file: string): Promise<void> {
  const form = page.getByTestId("photo-upload-form");
  await form.getByLabel("Choose a photo").setInputFiles(file);
  if (test.info().project.name === "js") await expect(form.getByTestId("photo-preview")).toBeVisible();
  await form.getByRole("button", { name: "Upload photo" }).click();
}

const photoCount = (page: Page) => page.getByTestId("profile-photos").getByTestId("photo-count");

test.describe("own photos", () => {
  test("a new member uploads photos until the free limit, then sees the premium message instead of the form", { tag: "@nojs" }, async ({ page }) => {
    await signUp(page.request);
    await page.goto("/profile/photos");
    await expect(page.getByTestId("photos-empty")).toBeVisible();
    await expect(photoCount(page)).toHaveText("0 of 3 photos");

    for (const [index, file] of [files.red, files.green, files.blue].entries()) {
      await upload(page, file);
      await expect(page.getByTestId("notice")).toHaveText("Your photo has been uploaded.");
      await expect(page.getByTestId("own-photo")).toHaveCount(index + 1);
      await expect(photoCount(page)).toHaveText(`${index + 1} of 3 photos`);
    }
    await expect(page.getByTestId("photos-empty")).toHaveCount(0);
    // The first photo is the main one, and its thumbnail is a real image served under /uploads.
    const first = page.getByTestId("own-photo").first();
    await expect(first.getByTestId("main-photo")).toHaveText("Main photo");
    await expect(page.getByTestId("main-photo")).toHaveCount(1);
    const src = await first.getByRole("img").getAttribute("src");
    expect(src).toMatch(/^\/uploads\/photos\/[\w-]+\.jpg$/);
    const thumb = await page.request.get(src ?? "");
    expect(thumb.status()).toBe(200);
    expect(thumb.headers()["content-type"]).toBe("image/jpeg");

    // At 3 of 3 a free member gets the premium message and no upload form.
    await expect(page.getByTestId("photo-upload-form")).toHaveCount(0);
    const premium = page.getByTestId("photo-premium");
    await expect(premium).toContainText("This feature is only available for premium members");
    await expect(premium.getByRole("link", { name: "Become a premium member" })).toHaveAttribute("href", "/premium");
  });

  test("a file that is not a photo is refused with a message and nothing is added", { tag: "@nojs" }, async ({ page }) => {
    await signUp(page.request);
    await page.goto("/profile/photos");
    await upload(page, files.text);
    await expect(page.getByTestId("form-error")).toHaveText("This file is not a photo we can read. Please upload a JPEG, PNG, WebP or HEIC image.");
    await expect(page.getByTestId("photos-empty")).toBeVisible();
    await expect(photoCount(page)).toHaveText("0 of 3 photos");
  });

  test("a member makes another photo the main one and deletes a photo after confirming", { tag: "@nojs" }, async ({ page }) => {
    await signUp(page.request);
    await page.goto("/profile/photos");
    await upload(page, files.red);
    await expect(page.getByTestId("own-photo")).toHaveCount(1);
    await upload(page, files.green);
    await expect(page.getByTestId("own-photo")).toHaveCount(2);
    const secondSrc = await page.getByTestId("own-photo").nth(1).getByRole("img").getAttribute("src");

    await page.getByTestId("own-photo").nth(1).getByRole("button", { name: "Make main" }).click();
    await expect(page.getByTestId("notice")).toHaveText("Your main photo has been changed.");
    const first = page.getByTestId("own-photo").first();
    await expect(first.getByRole("img")).toHaveAttribute("src", secondSrc ?? "");
    await expect(first.getByTestId("main-photo")).toBeVisible();
    // The account menu shows the new main photo's thumbnail.
    await expect(page.getByTestId("account-menu").locator(`img[src="${secondSrc}"]`)).toHaveCount(1);

    await page.getByTestId("own-photo").nth(1).getByRole("link", { name: "Delete" }).click();
    const confirm = page.getByTestId("confirm-delete");
    await expect(confirm).toContainText("Delete this photo?");
    await confirm.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByTestId("confirm-delete")).toHaveCount(0);
    await expect(page.getByTestId("own-photo")).toHaveCount(2);

    await page.getByTestId("own-photo").first().getByRole("link", { name: "Delete" }).click();
    await page.getByTestId("confirm-delete").getByRole("button", { name: "Yes, delete photo" }).click();
    await expect(page.getByTestId("notice")).toHaveText("The photo has been deleted.");
    await expect(page.getByTestId("own-photo")).toHaveCount(1);
    await expect(photoCount(page)).toHaveText("1 of 3 photos");
    // The remaining photo became the main one.
    await expect(page.getByTestId("own-photo").first().getByTestId("main-photo")).toBeVisible();
    expect((await page.request.get(secondSrc ?? "")).status()).toBe(404);
  });

  test("a file over 10 MB is refused with the size message", { tag: "@nojs" }, async ({ page }) => {
    const big = path.join(dir, "big.jpg");
    writeFileSync(big, Buffer.alloc(10 * 1024 * 1024 + 1024, 7));
    await signUp(page.request);
    await page.goto("/profile/photos");
    await page.getByLabel("Choose a photo").setInputFiles(big);
    await page.getByRole("button", { name: "Upload photo" }).click();
    await expect(page.getByTestId("form-error")).toHaveText("This file is too large. Please upload a photo of at most 10 MB.");
    await expect(photoCount(page)).toHaveText("0 of 3 photos");
  });

  test("signup step 2 takes a photo and goes on to step 3", { tag: "@nojs" }, async ({ page }) => {
    await signUp(page.request);
    await page.goto("/signup/2");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add a photo");
    await upload(page, files.text);
    await expect(page.getByTestId("form-error")).toHaveText("This file is not a photo we can read. Please upload a JPEG, PNG, WebP or HEIC image.");
    // With JavaScript the page data reloads after the refused upload and the form mounts afresh: a file
    // chosen before that would be cleared, so let the reload finish first.
    await page.waitForLoadState("networkidle");
    await upload(page, files.blue);
    await expectPath(page, "/signup/3");
    await page.goto("/profile/photos");
    await expect(page.getByTestId("own-photo")).toHaveCount(1);
    await expect(page.getByTestId("main-photo")).toBeVisible();
  });

  test("a visitor is sent to log in", async ({ page }) => {
    await page.goto("/profile/photos");
    await expectPath(page, "/login");
  });
});

test.describe("member page photos", () => {
  let premium: APIRequestContext;
  const uploadedIds: number[] = [];

  test.beforeEach(async ({ baseURL }) => {
    premium = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: sameOrigin });
    const login = await premium.post("/api/user.php", { data: { email: accounts.premium.email, password: accounts.premium.password } });
    expect(login.status()).toBe(200);
  });

  test.afterEach(async () => {
    for (const id of uploadedIds.splice(0)) await premium.delete(`/api/photo.php?id=${id}`);
    await premium.dispose();
  });

  test("a free member sees a premium member's first photos and an offer for the rest", async ({ page }) => {
    // The premium demo member gets 3 more photos through the api: more than a free viewer may see.
    const jpeg = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#884488" } }).jpeg().toBuffer();
    for (let i = 0; i < 3; i++) {
      const res = await premium.post("/api/photos.php", { multipart: { photo: { name: `extra-${i}.jpg`, mimeType: "image/jpeg", buffer: jpeg } } });
      expect(res.status(), await res.text()).toBe(201);
      uploadedIds.push(PhotoUploadResponse.parse(await res.json()).photo.id);
    }
    const owner = UserResponse.parse(await (await premium.get("/api/user.php")).json()).user;
    const profileId = owner?.profile.id ?? 0;

    await signUp(page.request);
    const seen = MemberResponse.parse(await (await page.request.get(`/api/member.php?id=${profileId}`)).json()).profile;
    expect(seen.photos).toHaveLength(3);
    expect(seen.photo_count).toBeGreaterThanOrEqual(4);

    await page.goto(`/members/${profileId}`);
    const member = page.getByTestId("member-page");
    // The other project may add or remove photos of the same member meanwhile: compare the page with itself.
    const total = Number((await member.getByTestId("photo-count").innerText()).match(/^(\d+) photos$/)?.[1]);
    expect(total).toBeGreaterThanOrEqual(4);
    const teaser = member.getByTestId("photo-teaser");
    await expect(teaser).toHaveText(`${total - 3} more photo${total - 3 === 1 ? "" : "s"} — for premium members`);
    // Main photo large plus two thumbnails: the three a free member may see.
    await expect(member.getByTestId("member-photos").locator("img")).toHaveCount(3);
    await teaser.click();
    await expectPath(page, "/premium");
  });
});
