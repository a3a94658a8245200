import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DiscountCodeResponse, PackagesResponse, PaymentResponse, timeBonus } from "#contract/payments";
import { UserResponse } from "#contract/user";
import { discountCodes, discountUses, sites } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { call, expectApiError, startApi, type Harness } from "./harness";
import { balanceOf, newPayingMember, notifyStatus, packagesFor, paymentRow, sandboxSecret, startPayment, type PayingMember } from "./payments-support";

/** Offers over HTTP: the time bonus and welcome discount a member gets, typed codes and their refusals, holds under concurrency. */
let api: Harness;
let passwordHash: string;
let siteId: number;
const password = "discounts-test-password";
const hours = (n: number) => new Date(Date.now() - n * 3_600_000);
const member = (signedUpHoursAgo = 0) => newPayingMember(api, passwordHash, password, hours(signedUpHoursAgo));
let codeCounter = 0;

async function addCode(values: Partial<typeof discountCodes.$inferInsert> = {}): Promise<string> {
  const code = values.code ?? `TEST${Date.now().toString(36).toUpperCase()}${++codeCounter}`;
  await api.db.insert(discountCodes).values({ siteId, percentage: 10, ...values, code });
  return code;
}

async function nlPackage(who: PayingMember, index = 1) {
  const pkg = (await packagesFor(api, who, "NL")).packages[index];
  if (!pkg) throw new Error("no NL package");
  return pkg;
}

function pay(who: PayingMember, body: Record<string, unknown>) {
  return call(api, "POST", "/api/payment.php", { token: who.token, body });
}

async function refusal(res: Response, reason: string, message?: string) {
  const error = await expectApiError(res, 400, "validation_failed");
  expect(error.params?.reason).toBe(reason);
  if (message) expect(error.fields?.discount_code).toEqual([message]);
  return error;
}

beforeAll(async () => {
  api = await startApi({ env: { SANDBOX_WEBHOOK_SECRET: sandboxSecret, SANDBOX_NOTIFY_DELAYS_MS: "" } });
  passwordHash = await hashPassword(password);
  const [site] = await api.db.select({ id: sites.id }).from(sites).where(eq(sites.domain, "localhost"));
  siteId = site!.id;
});

afterAll(async () => {
  await api.close();
});

describe("the member's automatic discount", () => {
  it("is the time bonus in the first 4 hours: on the member, on the prices and on the payment", async () => {
    const a = await member(1);
    const me = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: a.token })).json());
    expect(me.discount).toMatchObject({ kind: "timebonus", code: "TIMEBONUS25", value_percentage: 25 });
    const ends = Date.parse(me.discount!.expires!);
    expect(Math.abs(ends - (Date.parse(me.user!.signup_date) + timeBonus.seconds * 1000))).toBeLessThan(1000);
    const list = await packagesFor(api, a, "NL");
    expect(list.discount?.code).toBe("TIMEBONUS25");
    for (const p of list.packages) expect(p.discounted_amount).toBe(p.amount - Math.round(p.amount / 4));
    // The price per credit is of the discounted price, not the full one.
    for (const p of list.packages) expect(p.price_per_credit).toBe(Math.round((p.discounted_amount! * 100) / p.credits) / 100);
    const pkg = list.packages[1]!;
    const { payment_id } = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    const row = await paymentRow(api, payment_id);
    expect(row).toMatchObject({ amount: pkg.discounted_amount, discountCode: "TIMEBONUS25", discountAmount: pkg.amount - pkg.discounted_amount! });
  });

  it("is the welcome discount after the time bonus, until welcome_discount_hours; nothing after, and nothing once paid", async () => {
    const welcome = await member(5);
    expect(UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: welcome.token })).json()).discount).toMatchObject({ kind: "welcome", code: "WELCOME25" });
    const viaEndpoint = DiscountCodeResponse.parse(await (await call(api, "GET", "/api/discountcode.php?welcome=true", { token: welcome.token })).json());
    expect(viaEndpoint.discount?.kind).toBe("welcome");
    const late = await member(73);
    expect(UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: late.token })).json()).discount).toBeNull();
    expect((await packagesFor(api, late, "NL")).packages.every((p) => p.discounted_amount === null)).toBe(true);

    const pkg = await nlPackage(welcome);
    const { payment_id } = await startPayment(api, welcome, { package_id: pkg.id, method: "ideal" });
    expect((await notifyStatus(api, payment_id, "paid")).status).toBe(200);
    expect(await balanceOf(api, welcome.userId)).toMatchObject({ paidUser: true });
    const after = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: welcome.token })).json());
    expect(after.discount).toBeNull();
    const second = await startPayment(api, welcome, { package_id: pkg.id, method: "ideal" });
    expect((await paymentRow(api, second.payment_id)).amount).toBe(pkg.amount);
    await refusal(await pay(welcome, { package_id: pkg.id, method: "ideal", discount_code: "welcome25" }), "used", "Code already used");
  });

  it("is held by a running payment and given back when it ends unpaid: a cancelled payment does not use it up", async () => {
    const a = await member(0);
    const pkg = await nlPackage(a);
    const first = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    // While the first runs, the bonus is held: a second payment gets the welcome discount instead.
    const second = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    expect((await paymentRow(api, second.payment_id)).discountCode).toBe("WELCOME25");
    await refusal(await pay(a, { package_id: pkg.id, method: "ideal", discount_code: "TIMEBONUS25" }), "reserved");
    expect((await notifyStatus(api, first.payment_id, "cancelled")).status).toBe(200);
    expect(await api.db.select().from(discountUses).where(eq(discountUses.paymentId, first.payment_id))).toEqual([]);
    const third = await startPayment(api, a, { package_id: pkg.id, method: "ideal", discount_code: "TIMEBONUS25" });
    expect((await paymentRow(api, third.payment_id)).discountCode).toBe("TIMEBONUS25");
    expect((await notifyStatus(api, third.payment_id, "paid")).status).toBe(200);
    const [use] = await api.db.select().from(discountUses).where(eq(discountUses.paymentId, third.payment_id));
    expect(use?.status).toBe("used");
  });
});

describe("typed discount codes", () => {
  it("applies a code on the prices and the payment, in any case; refuses an unknown one with 'Code not found' and keeps the automatic discount", async () => {
    const a = await member(100);
    const code = await addCode({ percentage: 20 });
    const list = PackagesResponse.parse(await (await call(api, "GET", `/api/packages.php?country=NL&code=${code.toLowerCase()}`, { token: a.token })).json());
    expect(list.discount).toMatchObject({ kind: "code", code, value_percentage: 20 });
    expect(list.packages[0]!.discounted_amount).toBe(list.packages[0]!.amount - Math.round(list.packages[0]!.amount / 5));
    const { payment_id } = await startPayment(api, a, { package_id: list.packages[0]!.id, method: "ideal", discount_code: code.toLowerCase() });
    expect((await paymentRow(api, payment_id)).amount).toBe(list.packages[0]!.discounted_amount);

    const b = await member(1);
    const unknown = PackagesResponse.parse(await (await call(api, "GET", "/api/packages.php?country=NL&code=NOSUCHCODE", { token: b.token })).json());
    expect(unknown.discount_error).toMatchObject({ reason: "not_found" });
    expect(unknown.discount?.code).toBe("TIMEBONUS25");
    await refusal(await pay(b, { package_id: list.packages[0]!.id, method: "ideal", discount_code: "NOSUCHCODE" }), "not_found", "Code not found");
    await expectApiError(await call(api, "GET", "/api/packages.php?country=NL&code=%3Cscript%3E", { token: b.token }), 400, "validation_failed");
  });

  it("refuses a code used once by the member, expired, below its minimum order, for another country, currency or method", async () => {
    const a = await member(100);
    const pkgs = (await packagesFor(api, a, "NL")).packages;
    const small = pkgs[0]!;
    const big = pkgs[3]!;
    const once = await addCode();
    const { payment_id } = await startPayment(api, a, { package_id: small.id, method: "ideal", discount_code: once });
    expect((await notifyStatus(api, payment_id, "paid")).status).toBe(200);
    await refusal(await pay(a, { package_id: small.id, method: "ideal", discount_code: once }), "used", "Code already used");

    await refusal(await pay(a, { package_id: small.id, method: "ideal", discount_code: await addCode({ expiresAt: hours(1) }) }), "expired", "This code has expired.");
    const minimum = await addCode({ minimumOrderValue: 5000, currency: "EUR" });
    const refused = await refusal(await pay(a, { package_id: small.id, method: "ideal", discount_code: minimum }), "minimum_order");
    expect(refused.params).toMatchObject({ minimum_order_value: 5000, currency: "EUR" });
    await startPayment(api, a, { package_id: big.id, method: "ideal", discount_code: minimum });
    // On /credits the code shows on the packages it fits and is not refused; on the small package's page it is.
    const onCredits = PackagesResponse.parse(await (await call(api, "GET", `/api/packages.php?country=NL&code=${minimum}`, { token: (await member(100)).token })).json());
    expect(onCredits.discount_error).toBeNull();
    expect(onCredits.packages.map((p) => p.discounted_amount !== null)).toEqual(onCredits.packages.map((p) => p.amount >= 5000));
    const onPackage = PackagesResponse.parse(await (await call(api, "GET", `/api/packages.php?package_id=${small.id}&code=${minimum}`, { token: (await member(100)).token })).json());
    expect(onPackage.discount_error).toMatchObject({ reason: "minimum_order" });

    expect((await refusal(await pay(a, { package_id: small.id, method: "ideal", discount_code: await addCode({ country: "DE" }) }), "country")).params?.country).toBe("DE");
    await refusal(await pay(a, { package_id: small.id, method: "ideal", discount_code: await addCode({ currency: "GBP" }) }), "currency");
    await refusal(await pay(a, { package_id: small.id, method: "ideal", discount_code: await addCode({ paymentMethods: ["cards"] }) }), "method");
    await refusal(await pay(a, { package_id: small.id, method: "ideal", discount_code: await addCode({ active: false }) }), "not_found");
  });

  it("checks a code on /api/discountcode.php, against a package when given", async () => {
    const a = await member(100);
    const small = await nlPackage(a, 0);
    const code = await addCode({ minimumOrderValue: 5000 });
    const ok = DiscountCodeResponse.parse(await (await call(api, "GET", `/api/discountcode.php?code=${code}`, { token: a.token })).json());
    expect(ok.discount?.code).toBe(code);
    const below = DiscountCodeResponse.parse(await (await call(api, "GET", `/api/discountcode.php?code=${code}&package_id=${small.id}`, { token: a.token })).json());
    expect(below.refusal?.reason).toBe("minimum_order");
    await expectApiError(await call(api, "GET", "/api/discountcode.php?welcome=true"), 403, "authentication_required");
  });

  it("gives a once-per-member code to one of two payments started at once, and a code with one use to one of two members", async () => {
    const a = await member(100);
    const pkg = await nlPackage(a);
    const once = await addCode();
    const both = await Promise.all([pay(a, { package_id: pkg.id, method: "ideal", discount_code: once }), pay(a, { package_id: pkg.id, method: "ideal", discount_code: once })]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(await api.db.select().from(discountUses).where(eq(discountUses.code, once))).toHaveLength(1);

    const single = await addCode({ validity: "uses", maxUses: 1 });
    const [b, c] = await Promise.all([member(100), member(100)]);
    const race = await Promise.all([pay(b, { package_id: pkg.id, method: "ideal", discount_code: single }), pay(c, { package_id: pkg.id, method: "ideal", discount_code: single })]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 400]);
    const [row] = await api.db.select().from(discountCodes).where(eq(discountCodes.code, single));
    expect(row?.usedCount).toBe(1);
    // The winner's payment expires: the use is given back and the code works again.
    const winner = race.find((r) => r.status === 201)!;
    const { payment_id } = (await winner.json()) as { payment_id: number };
    expect((await notifyStatus(api, payment_id, "expired")).status).toBe(200);
    expect((await api.db.select().from(discountCodes).where(eq(discountCodes.code, single)))[0]?.usedCount).toBe(0);
    const d = await member(100);
    const again = await startPayment(api, d, { package_id: pkg.id, method: "ideal", discount_code: single });
    const detail = PaymentResponse.parse(await (await call(api, "GET", `/api/payment.php?id=${again.payment_id}`, { token: d.token })).json()).payment;
    expect(detail).toMatchObject({ discount_code: single, discount_amount: pkg.amount - Math.round(pkg.amount * 0.9) });
  });
});
