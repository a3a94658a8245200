import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../api/domain/passwords";
import { call, expectApiError, startApi, type Harness } from "./harness";
import { newPayingMember, notify, packagesFor, sandboxSecret } from "./payments-support";

/**
 * In production mode the sandbox takes no payments (and PAYMENT_SANDBOX=true stops the api: tests/api/app-mode.test.ts):
 * its checkout lets the payer choose "paid". Only the methods routed to a real provider are offered, and the
 * sandbox's pages and webhook do not exist.
 */
let api: Harness;
let passwordHash: string;
const password = "production-test-password";

beforeAll(async () => {
  api = await startApi({
    env: { APP_MODE: "production", SMTP_URL: "smtp://127.0.0.1:2525", PASSWORD_HASH_COST: "17", SANDBOX_WEBHOOK_SECRET: sandboxSecret, PAYMENT_ROUTES: "cards=verotel", VEROTEL_SHOP_ID: "1234", VEROTEL_SIGNATURE_KEY: "production-signature-key" },
  });
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
});

describe("payments in production mode", () => {
  it("offers only the methods a real provider takes, and refuses the others", async () => {
    const a = await newPayingMember(api, passwordHash, password);
    const { methods, packages } = await packagesFor(api, a, "NL");
    expect(methods.map((m) => m.id)).toEqual(["cards"]);
    await expectApiError(await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: packages[0]!.id, method: "ideal" } }), 400, "validation_failed");
    const res = await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: packages[0]!.id, method: "cards" } });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { redirect_url: string }).redirect_url).toMatch(/^https:\/\/secure\.verotel\.com\/startorder\?/);
  });

  it("has no sandbox checkout and no sandbox webhook", async () => {
    await expectApiError(await call(api, "GET", `/api/sandbox-checkout.php?token=${"A".repeat(32)}`), 404, "not_found");
    await expectApiError(await call(api, "POST", "/api/sandbox-checkout.php", { body: { token: "A".repeat(32), outcome: "paid" } }), 404, "not_found");
    expect((await notify(api, { event_id: "e", reference: "A".repeat(32), status: "paid", amount: 1, currency: "EUR" })).status).toBe(404);
  });
});
