import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import sharp from "sharp";
import { expect, expectNoAxeViolations, hydrated, sameOrigin, test } from "./fixtures";
import { activeMember, type ActiveMember } from "./accounts-support";
import { loadOnlyOwnPhotos, staffLogin } from "./staff-support";

/**
 * The staff's money and member forms (docs/staff.md Members), with JavaScript and without: a grant booked once
 * however often its form is sent, answered with what it did; a refund and a suspension asked in a dialog first.
 */

async function memberPage(page: Page, member: ActiveMember): Promise<void> {
  await staffLogin(page, "support");
  await page.goto("/staff/members");
  await page.getByLabel("E-mail, name, id or payment id").fill(member.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByTestId("staff-member-row").getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(member.name);
}

/** axe runs in the page's JavaScript: checked in the run with JavaScript (the markup is the same without). */
async function audit(page: Page): Promise<void> {
  if (test.info().project.name === "js") await expectNoAxeViolations(page);
}

const creditsOf = async (page: Page) => Number((await page.getByTestId("staff-member-credits").getByRole("heading").textContent())?.match(/Credits: (\d+)/)?.[1]);
const ledgerRows = (page: Page, text: string) => page.getByTestId("staff-member-ledger").getByRole("row").filter({ hasText: text });

test("a grant is booked once: the same form sent again, and twice at once, books nothing more and says so", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const member = await activeMember(browser, baseURL ?? "");
  await memberPage(page, member);
  const before = await creditsOf(page);
  const note = `Goodwill ${Date.now()}`;
  // The form as the page rendered it, with its key: what a second click or a resent form would post again.
  const form = page.getByTestId("staff-member-credits").locator("form");
  const key = await form.locator('input[name="form_key"]').inputValue();
  await page.getByLabel("Credits (negative to deduct)").fill("25");
  await page.getByLabel("Reason (shown in the ledger)").fill(note);
  await page.getByRole("button", { name: "Book" }).click();
  await expect(page.getByTestId("staff-member-done")).toHaveText(`25 credits booked for ${member.name}, balance ${before + 25}.`);
  // Cleared, with a new key for the next booking.
  await expect(page.getByLabel("Credits (negative to deduct)")).toHaveValue("");
  await expect(page.getByLabel("Reason (shown in the ledger)")).toHaveValue("");
  expect(await form.locator('input[name="form_key"]').inputValue()).not.toBe(key);

  const resend = () =>
    page.request.post(new URL(page.url()).pathname, { headers: sameOrigin, form: { intent: "credits", form_key: key, delta: "25", note }, maxRedirects: 0 });
  const answers = await Promise.all([resend(), resend()]);
  for (const answer of answers) expect(answer.headers().location).toMatch(/\?done=replay$/);
  await page.goto(`${new URL(page.url()).pathname}?done=replay`);
  await expect(page.getByTestId("staff-member-done")).toHaveText(`This form was sent already: nothing was booked again. ${member.name}'s balance is ${before + 25}.`);
  expect(await creditsOf(page)).toBe(before + 25);
  await expect(ledgerRows(page, note)).toHaveCount(1);
  // The ledger names who booked it.
  await expect(ledgerRows(page, note)).toContainText(`Sam Support: ${note}`);
  await member.page.context().close();
});

test("a refund asks first, with what was paid, and needs a reason; a suspension too, with no reason chosen beforehand", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const member = await activeMember(browser, baseURL ?? "");
  // The member buys a package in the sandbox.
  await member.page.goto("/credits");
  const pkg = member.page.getByTestId("package").first();
  await pkg.getByTestId("package-choose").click();
  await member.page.getByTestId("method-ideal").click();
  await member.page.getByTestId("outcome-paid").check();
  await member.page.getByTestId("sandbox-submit").click();
  await expect(member.page.getByTestId("payment-result")).toHaveAttribute("data-status", "paid", { timeout: 15_000 });

  await memberPage(page, member);
  const credits = await creditsOf(page);
  const payments = page.getByTestId("staff-member-payments");
  await payments.getByRole("link", { name: /^Refund… \d+$/ }).click();
  const dialog = page.getByTestId("staff-confirm");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading")).toHaveText(/^Refund payment #\d+$/);
  await expect(page.getByTestId("staff-confirm-summary")).toContainText(`${member.name} paid €`);
  await audit(page);
  // No reason: refused with a message, nothing refunded.
  await dialog.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(dialog.getByText("Say why this payment is refunded.")).toBeVisible();
  await dialog.getByLabel("Reason (kept with the payment and in the audit log)").fill("Bought by mistake");
  await dialog.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByTestId("staff-member-done")).toContainText(`of payment #`);
  await expect(page.getByTestId("staff-member-done")).toContainText(`to ${member.name};`);
  await expect(page.getByTestId("staff-confirm")).toHaveCount(0);
  await expect(payments).toContainText("refunded");
  await expect(payments).toContainText("Bought by mistake");
  expect(await creditsOf(page)).toBeLessThan(credits);

  // Suspend: a dialog with a summary; the reason must be chosen.
  await page.getByRole("link", { name: "Suspend…" }).click();
  await expect(dialog.getByRole("heading")).toHaveText(`Suspend ${member.name}`);
  await expect(dialog.getByLabel("Reason")).toHaveValue("");
  await audit(page);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await dialog.getByLabel("Until (inclusive)").fill(tomorrow);
  await dialog.getByRole("button", { name: "Suspend", exact: true }).click();
  await expect(dialog.getByText("Choose the reason the member is told.")).toBeVisible();
  await dialog.getByLabel("Reason").selectOption({ label: "Spam or advertising" });
  await dialog.getByRole("button", { name: "Suspend", exact: true }).click();
  await expect(page.getByTestId("staff-member-done")).toContainText(`${member.name} is suspended until ${tomorrow} 23:59 UTC`);
  // The header says so (not "active").
  await expect(page.getByTestId("staff-member-status")).toHaveText(`suspended until ${tomorrow} 23:59 UTC`);
  await audit(page);
  await member.page.context().close();
});

test("a package like one on sale is refused with a message; ending a sale asks first", { tag: "@nojs" }, async ({ page }) => {
  await staffLogin(page, "admin");
  await page.goto("/staff/packages");
  const credits = String(1000 + Math.floor(Math.random() * 50_000));
  const create = async () => {
    await page.getByLabel("Credits", { exact: true }).fill(credits);
    await page.getByLabel("Price").fill("12.34");
    await page.getByRole("button", { name: "Create package" }).click();
  };
  await create();
  const country = await page.getByTestId("staff-packages-done").textContent();
  expect(country).toMatch(new RegExp(`^Package of ${credits} credits for 12.34 EUR in [A-Z]{2} is on sale\\.$`));
  await expect(page.getByLabel("Credits", { exact: true })).toHaveValue("");
  await create();
  await expect(page.getByTestId("form-error")).toHaveText("A package with these credits, price and currency is on sale in this country already: change that one, or end it first.");
  const row = page.getByTestId("staff-package").filter({ hasText: credits });
  await expect(row).toHaveCount(1);
  await row.getByRole("link", { name: /^End sale…/ }).click();
  const dialog = page.getByTestId("staff-confirm");
  await expect(page.getByTestId("staff-confirm-summary")).toContainText(`${credits} credits for 12.34 EUR`);
  await audit(page);
  await dialog.getByRole("button", { name: "End sale", exact: true }).click();
  await expect(page.getByTestId("staff-packages-done")).toHaveText(/^Package \d+ is no longer on sale\.$/);
  await expect(row).toContainText("ended");
});

/** Whether the demo outbox (DATA_DIR/mail) holds a mail of `kind` to `to` that contains `text`. */
async function mailed(to: string, kind: string, text: string): Promise<boolean> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "", "mail");
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.includes(`-${kind}-`));
  for (const file of files) {
    const mail = await simpleParser(await readFile(path.join(dir, file)));
    const addresses = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));
    if (addresses.includes(to.toLowerCase()) && (mail.text ?? "").includes(text)) return true;
  }
  return false;
}

test("a report is handled in one step: the member suspended with a statement, the report resolved, the reporter mailed", { tag: "@nojs" }, async ({ page, browser, baseURL }) => {
  const reported = await activeMember(browser, baseURL ?? "");
  const reporter = await activeMember(browser, baseURL ?? "");
  await reporter.page.goto(`/members/${reported.profileId}`);
  await reporter.page.getByTestId("report-member").click();
  await reporter.page.getByTestId("report-reason").selectOption("fake_profile");
  await reporter.page.getByTestId("report-details").fill("A profile with stolen photos.");
  await reporter.page.getByTestId("report-send").click();
  await expect(reporter.page.getByTestId("report-sent")).toBeVisible();

  await staffLogin(page, "moderator");
  await page.goto("/staff/reports");
  await page.getByTestId("staff-report-row").filter({ hasText: reported.name }).first().getByRole("link").click();
  const decide = page.getByTestId("staff-report-decide");
  await audit(page);
  // A measure without its reason and statement is refused, field by field.
  await decide.getByLabel("Measure against the member reported").selectOption({ label: "Suspend until a date" });
  await decide.getByRole("button", { name: "Decide and close" }).click();
  await expect(decide.getByText("Choose the reason the member is told.")).toBeVisible();
  await expect(decide.getByText("Write the statement of reasons the member gets.")).toBeVisible();
  await expect(page.getByTestId("staff-report-status")).toHaveText("New");
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await decide.getByLabel("Measure against the member reported").selectOption({ label: "Suspend until a date" });
  await decide.getByLabel("Reason the member is told").selectOption({ label: "Fake profile" });
  await decide.getByLabel("Suspended until (inclusive)").fill(tomorrow);
  await decide.getByLabel("Statement of reasons to the member (mailed with the measure)").fill("Your photos show someone else.");
  await decide.getByLabel("Message to the sender (optional, added to the outcome mail)").fill("Thank you: we suspended the profile.");
  await decide.getByRole("button", { name: "Decide and close" }).click();
  await expect(page.getByTestId("staff-report-status")).toHaveText("Resolved");
  const notes = page.getByTestId("staff-report-notes");
  for (const text of ["Taken.", `Member suspended until ${tomorrow} (fake_profile).`, "Resolved.", "Sender told (resolved): Thank you: we suspended the profile."]) await expect(notes).toContainText(text);
  await expect.poll(() => mailed(reporter.email, "report_outcome", "Thank you: we suspended the profile."), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => mailed(reported.email, "moderation_statement", "Your photos show someone else."), { timeout: 10_000 }).toBe(true);
  await reporter.page.context().close();
  await reported.page.context().close();
});

test("photo shortcuts work from the page's load, each photo with its own reason, focus moving on", async ({ page, browser, baseURL }) => {
  const member = await activeMember(browser, baseURL ?? "");
  const upload = async (colour: { r: number; g: number; b: number }) => {
    const buffer = await sharp({ create: { width: 400, height: 400, channels: 3, background: colour } }).jpeg().toBuffer();
    const res = await member.page.request.post("/api/photos.php", { headers: sameOrigin, multipart: { photo: { name: "me.jpg", mimeType: "image/jpeg", buffer } } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { photo: { id: number; filename: string; thumb_filename: string } }).photo;
  };
  const first = await upload({ r: 200, g: 10, b: 10 });
  const second = await upload({ r: 10, g: 200, b: 10 });
  await loadOnlyOwnPhotos(page, [first.filename, first.thumb_filename, second.filename, second.thumb_filename]);
  await staffLogin(page, "moderator");
  await page.goto("/staff/photos");
  await hydrated(page.getByTestId("staff-photo").first());
  const cards = page.getByTestId("staff-photo");
  const focusedCard = () => page.evaluate(() => document.activeElement?.getAttribute("data-photo-card") ?? null);
  // From the load, no Tab: J puts the focus on the first photo, then moves on.
  await page.keyboard.press("j");
  expect(await focusedCard()).toBe(await cards.first().getAttribute("data-photo-card"));
  for (let n = 0; n < 200 && (await focusedCard()) !== String(first.id); n++) await page.keyboard.press("j");
  expect(await focusedCard()).toBe(String(first.id));
  // The member is a link away.
  await expect(page.locator(`[data-photo-card="${first.id}"]`).getByRole("link", { name: new RegExp(`^${member.name} on `) })).toHaveAttribute("href", /^\/staff\/members\/\d+$/);
  await page.getByLabel(`Reason for rejecting photo ${first.id}`).selectOption({ label: "Contact details" });
  await page.locator(`[data-photo-card="${first.id}"]`).focus();
  await page.keyboard.press("r");
  await expect(page.getByTestId("staff-photos-done")).toHaveText("1 rejected; the members are told why.");
  await expect(page.locator(`[data-photo-card="${first.id}"]`)).toHaveCount(0);
  // Focus is on the next photo: the second upload.
  await expect.poll(focusedCard).toBe(String(second.id));
  await page.keyboard.press("a");
  await expect(page.getByTestId("staff-photos-done")).toHaveText("1 approved.");
  await expect(page.locator(`[data-photo-card="${second.id}"]`)).toHaveCount(0);
  await member.page.goto("/profile/photos");
  await expect(member.page.getByTestId("photo-rejections")).toContainText("the photo shows contact details.");
  await member.page.context().close();
});
