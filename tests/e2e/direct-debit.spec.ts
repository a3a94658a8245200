import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signUp } from "./accounts-support";

/**
 * Direct debit in the browser, JavaScript on and off: the form checks the IBAN, a code goes by
 * SMS (read from DATA_DIR/sms), a wrong code says 'Code invalid', the right one makes a pending payment
 * that the sandbox's bank then collects; the 30-day limit and the block after a returned debit.
 */

/** A phone number of this test's own, so its SMS file is found among the others. */
function newPhone(): { typed: string; digits: string } {
  const digits = `316${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  return { typed: `+${digits.slice(0, 2)} ${digits.slice(2, 3)} ${digits.slice(3)}`, digits };
}

async function codeFor(digits: string, count = 1): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR!, "sms");
  let files: string[] = [];
  await expect
    .poll(async () => {
      files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.includes(`-${digits}-`)).sort();
      return files.length;
    })
    .toBeGreaterThanOrEqual(count);
  const text = await readFile(path.join(dir, files[count - 1]!), "utf8");
  return /\b(\d{6})\b/.exec(text)![1]!;
}

async function openDirectDebit(page: Page, credits: string): Promise<void> {
  await page.goto("/credits");
  await page.getByTestId("package").filter({ hasText: credits }).getByTestId("package-choose").click();
  await page.getByTestId("method-sdd").click();
  await expect(page.getByTestId("direct-debit")).toHaveAttribute("data-step", "details");
}

async function fillDetails(page: Page, phone: string, iban = "NL91 ABNA 0417 1643 00"): Promise<void> {
  const values: Record<string, string> = { account_holder: "Dennis de Vries", iban, street: "Keizersgracht", house_number: "12", zip: "1015 CS", city: "Amsterdam", phone };
  for (const [name, value] of Object.entries(values)) await page.getByTestId(`dd-${name}`).fill(value);
  await page.getByTestId("dd-send").click();
}

test("a direct debit with the SMS code goes pending, then paid; a wrong code says 'Code invalid'", { tag: "@nojs" }, async ({ page }) => {
  await signUp(page.request);
  const phone = newPhone();
  await openDirectDebit(page, "150 credits");
  await expect(page.getByTestId("order-summary")).toContainText("150 credits for €22.49");
  await fillDetails(page, phone.typed, "NL91 ABNA 0417 1643 01");
  await expect(page.getByTestId("dd-iban-error")).toHaveText("This IBAN's check digits do not match. Check it for typing errors.");
  // What was typed is kept.
  await expect(page.getByTestId("dd-city")).toHaveValue("Amsterdam");
  await page.getByTestId("dd-iban").fill("NL91 ABNA 0417 1643 00");
  await page.getByTestId("dd-send").click();
  await expect(page.getByTestId("direct-debit")).toHaveAttribute("data-step", "code");
  await expect(page.getByTestId("dd-mandate")).toContainText("to debit €22.49 once from account NL** **** **** **43 00");
  const code = await codeFor(phone.digits);
  await page.getByTestId("dd-otp").fill(code === "000000" ? "111111" : "000000");
  await page.getByTestId("dd-confirm").click();
  await expect(page.getByTestId("direct-debit-error")).toHaveText("Code invalid. Tries left: 4.");
  await page.getByTestId("dd-otp").fill(code);
  await page.getByTestId("dd-confirm").click();
  const result = page.getByTestId("payment-result");
  await expect(result).toHaveAttribute("data-status", "pending");
  await expect(page.getByTestId("payment-processing")).toContainText("Your direct debit is being processed: 150 credits are added as soon as the bank has collected the amount");
  await page.getByTestId("test-bank-paid").click();
  await expect(result).toHaveAttribute("data-status", "paid");
  await expect(page.getByTestId("payment-completed")).toContainText("150 credits have been added to your account");
});

test("the 30-day limit, and the block after the bank returned a debit", { tag: "@nojs" }, async ({ page }) => {
  await signUp(page.request);
  const phone = newPhone();
  await openDirectDebit(page, "1000 credits");
  await fillDetails(page, phone.typed);
  await page.getByTestId("dd-otp").fill(await codeFor(phone.digits));
  await page.getByTestId("dd-confirm").click();
  await expect(page.getByTestId("payment-result")).toHaveAttribute("data-status", "pending");
  const paymentPath = new URL(page.url()).pathname;

  // 112.49 pending of the 200.00 limit: another 112.49 is too much.
  await openDirectDebit(page, "1000 credits");
  await fillDetails(page, phone.typed);
  await expect(page.getByTestId("direct-debit-error")).toHaveText(
    "Your limit for direct debit payments has been reached... You can pay another way now, or by direct debit again once your earlier direct debits are more than 30 days old.",
  );

  await page.goto(paymentPath);
  await page.getByTestId("test-bank-bounced").click();
  await expect(page.getByTestId("payment-result")).toHaveAttribute("data-status", "failed");
  await openDirectDebit(page, "60 credits");
  await fillDetails(page, phone.typed);
  await expect(page.getByTestId("direct-debit-error")).toHaveText("Your account is blocked for direct debit payments. Please choose another payment method.");
});
