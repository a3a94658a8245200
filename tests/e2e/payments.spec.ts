import type { Page } from "@playwright/test";
import { expect, expectPath, test } from "./fixtures";
import { signUp } from "./accounts-support";

/**
 * Credits and payments in the browser, with JavaScript on and off: a purchase through the sandbox's TEST checkout
 * gives the credits and premium and shows in /transactions; a cancelled payment says so and a retry with
 * another method succeeds; a repeat order charges the stored card (and a declined stored card offers PayPal).
 * Each test signs up a member of its own (the sandbox notifies in ~0.3 s; the result page refreshes itself).
 */

/**
 * From /credits: the "most chosen" package (150 credits on the demo sites), then a method. A member who
 * just signed up and never paid has the time bonus: 25% off the first purchase.
 */
async function choosePackageAndMethod(page: Page, method: string): Promise<void> {
  await page.goto("/credits");
  await expect(page.getByTestId("credits-page")).toBeVisible();
  const mostChosen = page.getByTestId("package").filter({ has: page.getByTestId("package-mark").filter({ hasText: "Most chosen" }) });
  await expect(mostChosen).toContainText("150 credits");
  await expect(mostChosen.getByTestId("package-price")).toHaveText("€22.49");
  await mostChosen.getByTestId("package-choose").click();
  await expect(page.getByTestId("method-page")).toBeVisible();
  await page.getByTestId(`method-${method}`).click();
}

/** At the sandbox's TEST checkout: picks the outcome (and the test card) and returns to our result page. */
async function payAtSandbox(page: Page, outcome: "paid" | "failed" | "cancelled" | "pending" | "expired", card?: "ok" | "declines_later"): Promise<void> {
  await expect(page.getByTestId("sandbox-checkout")).toContainText("TEST PAYMENT");
  await expect(page.getByTestId("sandbox-demo-notice")).toHaveText(
    "This site is a demo. This page stands in for a payment provider: no real money moves, and you choose the outcome yourself.",
  );
  await page.getByTestId(`outcome-${outcome}`).check();
  if (card) await page.getByTestId("sandbox-card").selectOption(card);
  await page.getByTestId("sandbox-submit").click();
  await expect(page.getByTestId("payment-result")).toBeVisible();
}

async function expectStatus(page: Page, status: string): Promise<void> {
  // Pending first ("processing"); the page refreshes itself until the notification arrives.
  await expect(page.getByTestId("payment-result")).toHaveAttribute("data-status", status, { timeout: 15_000 });
}

test("a purchase with iDEAL through the sandbox gives the credits and premium, and /transactions lists it", { tag: "@nojs" }, async ({ page }) => {
  await signUp(page.request);
  await page.goto("/members");
  await expect(page.getByTestId("nav-premium")).toBeVisible();
  await choosePackageAndMethod(page, "ideal");
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox-checkout\/[\w-]{32}$/);
  await expect(page.getByTestId("sandbox-amount")).toHaveText("€22.49");
  await payAtSandbox(page, "paid");
  await expectStatus(page, "paid");
  await expect(page.getByTestId("payment-completed")).toContainText("150 credits have been added to your account");
  // Premium at once: the navigation shows the credits (20 at signup + 150) instead of Get Premium.
  await expect(page.getByTestId("nav-credits")).toContainText("170");
  await expect(page.getByTestId("nav-premium")).toHaveCount(0);
  await page.goto("/premium");
  await expect(page.getByTestId("premium-already")).toBeVisible();

  await page.goto("/transactions");
  const row = page.getByTestId("transaction");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("iDEAL");
  await expect(row).toContainText("€22.49");
  await expect(row).toContainText("Completed");
  await row.getByTestId("transaction-link").click();
  await expect(page.getByTestId("receipt")).toContainText("150 credits");
  await expect(page.getByTestId("receipt")).toContainText("TIMEBONUS25 (−€7.50)");
  await expect(page.getByTestId("receipt-company")).toContainText("Rendezvous Media B.V.");
});

test("a cancelled payment says so, and a retry with another method succeeds", { tag: "@nojs" }, async ({ page }) => {
  await signUp(page.request);
  await choosePackageAndMethod(page, "paypal");
  await payAtSandbox(page, "cancelled");
  await expectStatus(page, "cancelled");
  await expect(page.getByTestId("payment-failed")).toContainText("Payment failed or has been cancelled.");
  await expect(page.getByTestId("nav-premium")).toBeVisible();
  await page.getByTestId("retry-other-method").click();
  await expect(page.getByTestId("method-page")).toBeVisible();
  await page.getByTestId("method-ideal").click();
  await payAtSandbox(page, "paid");
  await expectStatus(page, "paid");
  await page.goto("/transactions");
  await expect(page.getByTestId("transaction")).toHaveCount(2);
  await expect(page.getByTestId("transaction").first()).toContainText("Completed");
  await expect(page.getByTestId("transaction").last()).toContainText("Cancelled");
});

test("a repeat order charges the stored card at once", { tag: "@nojs" }, async ({ page }) => {
  await signUp(page.request);
  await choosePackageAndMethod(page, "cards");
  await payAtSandbox(page, "paid", "ok");
  await expectStatus(page, "paid");
  await page.goto("/credits");
  await page.getByTestId("repeat-order-link").click();
  await expect(page.getByTestId("repeat-order-page")).toContainText("Buy 150 credits again for €29.99, paid with Credit card.");
  await page.getByTestId("repeat-order").click();
  await expectStatus(page, "paid");
  await expect(page.getByTestId("nav-credits")).toContainText("320");
});

test("a declined stored card says 'Credit card payment failed' and offers the card again and the site's other methods", { tag: "@nojs" }, async ({ page }) => {
  await signUp(page.request);
  await choosePackageAndMethod(page, "cards");
  await payAtSandbox(page, "paid", "declines_later");
  await expectStatus(page, "paid");
  await page.goto("/credits/repeat-order");
  await page.getByTestId("repeat-order").click();
  await expectStatus(page, "failed");
  await expect(page.getByTestId("payment-failed")).toContainText("Credit card payment failed");
  await expect(page.getByTestId("retry-card")).toBeVisible();
  await expect(page.getByTestId("retry-ideal")).toHaveText("Pay with iDEAL");
  await page.getByTestId("retry-paypal").click();
  await payAtSandbox(page, "paid");
  await expectStatus(page, "paid");
  await expect(page.getByTestId("nav-credits")).toContainText("320");
});

test("the public price list and the payment country", async ({ page }) => {
  await page.goto("/pricing");
  await expect(page.getByTestId("package")).toHaveCount(4);
  await expect(page.getByTestId("package-price").first()).toHaveText("€14.99");
  await page.getByTestId("payment-country").locator("select").selectOption("GB");
  await page.getByTestId("payment-country").getByRole("button").click();
  await expectPath(page, "/pricing?country=GB", { withSearch: true });
  await expect(page.getByTestId("package-price").first()).toHaveText("£12.99");
  // Amounts in the reader's locale: Polish zloty on a Polish page.
  await page.goto("/pl/pricing?country=PL");
  await expect(page.getByTestId("package-price").first()).toHaveText("64,99\u00a0zł");
});
