import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, sameOrigin, test } from "./fixtures";
import { activeMember, type ActiveMember } from "./accounts-support";
import { staffLogin } from "./staff-support";

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
