import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { accounts, expect, login, sameOrigin, test } from "./fixtures";
import { signUp } from "./accounts-support";
import { formatCountdown } from "#contract/offers";

/**
 * Offers in the browser: a new member's time bonus on /credits, discount codes applied and refused
 * with each message (JavaScript on and off), the countdown and the time bonus modal (Playwright's clock),
 * and the welcome discount's banner leading to /credits.
 */

const js = () => test.info().project.use.javaScriptEnabled !== false;

async function applyCode(page: Page, code: string): Promise<void> {
  await page.getByTestId("discount-code").fill(code);
  await page.getByTestId("discount-apply").click();
  await expect(page.getByTestId("discount-code")).toHaveValue(new RegExp(`^${code}$`, "i"));
}

const mostChosen = (page: Page) => page.getByTestId("package").filter({ hasText: "150 credits" });

test("a new member's time bonus shows on the prices; a code applies, is refused with each message, and is used once paid", { tag: "@nojs" }, async ({ page }) => {
  await signUp(page.request);
  await page.goto("/credits");
  await expect(page.getByTestId("discount-applied")).toContainText("Time bonus: 25% off your first credits.");
  await expect(page.getByTestId("time-bonus-countdown")).toHaveText(/^0[34]:[0-5]\d:[0-5]\d$/);
  await expect(mostChosen(page).getByTestId("package-price")).toHaveText("€22.49");
  await expect(mostChosen(page).getByTestId("package-full-price")).toContainText("€29.99");

  await applyCode(page, "nosuchcode");
  await expect(page.getByTestId("discount-error")).toHaveText("Code not found");
  // A refused code keeps the time bonus on the prices.
  await expect(mostChosen(page).getByTestId("package-price")).toHaveText("€22.49");
  await applyCode(page, "SUMMER");
  await expect(page.getByTestId("discount-error")).toHaveText("This code has expired.");
  await applyCode(page, "GERMANY15");
  await expect(page.getByTestId("discount-error")).toHaveText("This code is only valid for payments from Germany.");

  await applyCode(page, "demo10");
  await expect(page.getByTestId("discount-error")).toHaveCount(0);
  await expect(page.getByTestId("discount-applied")).toHaveText("Code DEMO10: 10% off.");
  await expect(mostChosen(page).getByTestId("package-price")).toHaveText("€26.99");
  await mostChosen(page).getByTestId("package-choose").click();
  await expect(page.getByTestId("order-summary")).toContainText("150 credits for €26.99");
  await page.getByTestId("method-ideal").click();
  await expect(page.getByTestId("sandbox-amount")).toHaveText("€26.99");
  await page.getByTestId("outcome-paid").check();
  await page.getByTestId("sandbox-submit").click();
  await expect(page.getByTestId("payment-result")).toHaveAttribute("data-status", "paid", { timeout: 15_000 });

  // Paid: the code is used, the time bonus is gone (a paying member), and a minimum order is explained.
  await page.goto("/credits?code=DEMO10");
  await expect(page.getByTestId("discount-error")).toHaveText("Code already used");
  await expect(page.getByTestId("discount-applied")).toHaveCount(0);
  await expect(mostChosen(page).getByTestId("package-price")).toHaveText("€29.99");
  await applyCode(page, "BIG20");
  await expect(page.getByTestId("discount-applied")).toHaveText("Code BIG20: 20% off.");
  await expect(mostChosen(page).getByTestId("package-full-price")).toHaveCount(0);
  const small = page.getByTestId("package").filter({ hasText: "60 credits" });
  await small.getByTestId("package-choose").click();
  await expect(page.getByTestId("discount-error")).toHaveText("This code is valid for orders of €50.00 or more. Choose a bigger package.");
});

test("a code refused when the payment starts says why on the payment page", { tag: "@nojs" }, async ({ page }) => {
  await signUp(page.request);
  await page.goto("/credits?code=DEMO10");
  await mostChosen(page).getByTestId("package-choose").click();
  await expect(page.getByTestId("method-page")).toBeVisible();
  // The code is used up by another payment of the member's in the meantime (another tab): the payment page says so.
  const packageUrl = page.url();
  const id = Number(/\/credits\/(\d+)/.exec(packageUrl)?.[1]);
  const other = await page.request.post("/api/payment.php", { headers: sameOrigin, data: { package_id: id, method: "paypal", discount_code: "DEMO10" } });
  expect(other.status(), await other.text()).toBe(201);
  await page.getByTestId("method-ideal").click();
  await expect(page.getByTestId("payment-error")).toContainText("This code is held by a payment you started and have not finished.");
});

/** Spends a new member's signup credits (two first messages at 10 credits), so they have 0 (docs/product.md §4: the modal is for them). */
async function spendAllCredits(request: APIRequestContext): Promise<void> {
  const members = (await (await request.get("/api/members.php")).json()) as { results: { id: number }[] };
  for (const member of members.results.slice(0, 2)) {
    const res = await request.post("/api/message.php", { headers: sameOrigin, data: { to: member.id, body: "Hello there", key: randomUUID() } });
    expect(res.status(), await res.text()).toBe(201);
  }
}

test("the time bonus counts down each second and its modal opens 40 s into the members area, once", async ({ page }) => {
  test.skip(!js(), "the countdown and the modal need JavaScript; without it the server renders the time left (first test)");
  await page.clock.install();
  await signUp(page.request);
  await spendAllCredits(page.request);
  expect(((await (await page.request.get("/api/user.php")).json()) as { user: { credits: number } }).user.credits).toBe(0);
  await page.goto("/members");
  const banner = page.getByTestId("offer-timebonus");
  await expect(banner).toContainText("Time bonus: 25% off your first credits. Ends in");
  const countdown = banner.getByTestId("time-bonus-countdown");
  const expires = Date.parse(((await (await page.request.get("/api/user.php")).json()) as { discount: { expires: string } }).discount.expires);
  // From here the page's time moves only when the test says so: each second shows one second less.
  await page.clock.pauseAt(new Date(Date.now() + 1_000));
  await page.clock.runFor(1_000);
  const shown = async () => {
    const [h, m, sec] = ((await countdown.textContent()) ?? "").split(":").map(Number);
    return h! * 3600 + m! * 60 + sec!;
  };
  const leftAt = async () => Math.ceil((expires - (await page.evaluate(() => Date.now()))) / 1000);
  // The last tick (at most a second ago) has rendered: what is shown is the time left then.
  await expect.poll(async () => (await shown()) - (await leftAt())).toBeLessThanOrEqual(1);
  let left = await shown();
  expect(left).toBeGreaterThanOrEqual(await leftAt());
  for (let tick = 0; tick < 3; tick++) {
    await page.clock.runFor(1_000);
    await expect.poll(shown).toBe(left - 1);
    left -= 1;
  }
  await expect(countdown).toHaveText(formatCountdown(left));

  await page.clock.runFor(30_000);
  await expect(page.getByTestId("time-bonus-modal")).toHaveCount(0);
  await page.clock.runFor(8_000);
  const modal = page.getByTestId("time-bonus-modal");
  await expect(modal).toBeVisible();
  await expect(modal).toContainText("Act fast!");
  await expect(modal).toContainText("Only 4 hours left to get 25% off your first credits.");
  await page.getByTestId("time-bonus-modal-close").click();
  await expect(modal).toHaveCount(0);
  // Dismissed for good (hide-time-bonus-modal): not again after another 40 s on a new page.
  await page.goto("/likes");
  await page.clock.runFor(45_000);
  await expect(page.getByTestId("time-bonus-modal")).toHaveCount(0);
  await expect(page.getByTestId("offer-timebonus")).toBeVisible();
});

test("the welcome discount's banner leads to /credits with the discount on the prices", { tag: "@nojs" }, async ({ page }) => {
  await login(page, accounts.welcome);
  const banner = page.getByTestId("offer-welcome");
  await expect(banner).toContainText("Welcome! 25% off your first purchase, until");
  if (js()) {
    // Its modal: once per browser session, on entering the members area.
    await expect(page.getByTestId("welcome-modal")).toContainText("A welcome gift for you");
    await page.getByTestId("welcome-modal-close").click();
    await page.goto("/likes");
    await expect(banner).toBeVisible();
    await expect(page.getByTestId("welcome-modal")).toHaveCount(0);
  }
  await banner.getByTestId("offer-link").click();
  await expect(page.getByTestId("credits-page")).toBeVisible();
  await expect(page.getByTestId("discount-applied")).toContainText("Welcome discount: 25% off your first purchase.");
  await expect(mostChosen(page).getByTestId("package-price")).toHaveText("€22.49");
  await expect(page.getByTestId("offer-welcome")).toHaveCount(0);
});
