import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnalyticsResponse } from "#contract/staff-analytics";
import { attributionVisits, conversations, creditPackages, messages, operatorDayRollups, operatorReplies, payments, profiles, sites, users } from "../../api/db/schema";
import { activate } from "../../api/domain/accounts/activation";
import { createAccount } from "../../api/domain/accounts/signup";
import { recordVisit } from "../../api/domain/attribution";
import { applyNotification, refundPayment } from "../../api/domain/payments/payments";
import { createPaymentProviders } from "../../api/services/payments";
import { expectApiError, postJson, startApi, testSessionSecret, type Harness } from "./harness";
import { sandboxSecret } from "./payments-support";
import { newStaff, staffCall, staffToken } from "./staff-support";

/**
 * The owners' analytics (docs/staff.md, Analytics) against a known data set on a site of its own in New York's time
 * zone (UTC-5 in November 2026): every figure below is worked out by hand from the events, and events near midnight
 * show that a day is the site's day, not UTC's. The events go through the product's own code (signup, activation,
 * visit, payment notification, refund); messages are rows as send_message writes them, rolled up by the request.
 */
let api: Harness;
let admin: string;
let siteId: number;
const domain = "analytics-ny.example";
const providers = createPaymentProviders({
  routes: {},
  verotel: null,
  sandbox: { secret: sandboxSecret, deliveryDelaysMs: [], pendingSettleMs: 0, deliver: async () => undefined, onError: () => undefined },
});
const at = (iso: string) => new Date(iso);

async function signUp(name: string, when: string, tracking: Record<string, string>, lander?: string) {
  const [site] = await api.db.select().from(sites).where(eq(sites.id, siteId));
  const outcome = await createAccount(
    api.db,
    testSessionSecret,
    site!,
    { email: `${name}-${process.pid}@example.com`, name, date_of_birth: "1990-01-01", password: "analytics-password", tracking, ...(lander ? { lander } : {}) },
    "NL",
    at(when),
  );
  if (!("userId" in outcome)) throw new Error(`signup refused: ${outcome.code}`);
  const [profile] = await api.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, outcome.userId));
  return { userId: outcome.userId, profileId: profile!.id, token: outcome.activationToken };
}

let packageId: number;
let reference = 0;
/** A payment made pending as startPayment makes it, then paid through the provider's notification at `when`. */
async function pay(userId: number, when: string, row: { amount: number; costs: number; method: string; discountCode?: string; discountAmount?: number }) {
  const ref = `analytics-${process.pid}-${++reference}`;
  const [made] = await api.db
    .insert(payments)
    .values({
      userId,
      siteId,
      packageId,
      credits: 100,
      amount: row.amount,
      transactionCosts: row.costs,
      currency: "EUR",
      country: "NL",
      method: row.method,
      provider: "sandbox",
      reference: ref,
      discountCode: row.discountCode ?? null,
      discountAmount: row.discountAmount ?? 0,
      createdAt: at(when),
    })
    .returning({ id: payments.id });
  expect(await applyNotification(api.db, providers.sandbox, { reference: ref, status: "paid", amount: row.amount, currency: "EUR", eventId: ref }, at(when))).toBe("applied");
  return made!.id;
}

beforeAll(async () => {
  api = await startApi({ env: { SANDBOX_WEBHOOK_SECRET: sandboxSecret, SANDBOX_NOTIFY_DELAYS_MS: "" } });
  admin = await staffToken(api, await newStaff(api, "admin"));
  const [copy] = await api.db.select().from(sites).where(eq(sites.id, 1));
  const { id: _id, ...settings } = copy!;
  const [site] = await api.db.insert(sites).values({ ...settings, domain, isDefault: false, name: "Analytics NY", timeZone: "America/New_York" }).returning({ id: sites.id });
  siteId = site!.id;
  const [pkg] = await api.db.insert(creditPackages).values({ siteId, country: "NL", credits: 100, amount: 1999, currency: "EUR" }).returning({ id: creditPackages.id });
  packageId = pkg!.id;

  // Visits (no personal data: day, source, lander). 02:00Z on 3 November is 21:00 on the 2nd in New York.
  await recordVisit(api.db, siteId, { network: "adnet", ref: "r1" }, at("2026-11-03T02:00:00Z"), { lander: "landers/video", entry: true });
  await recordVisit(api.db, siteId, { network: "adnet", ref: "r1" }, at("2026-11-03T06:00:00Z"), { lander: "landers/video", entry: false });
  await recordVisit(api.db, siteId, {}, at("2026-11-05T15:00:00Z"), { lander: "members/landing" });
  await recordVisit(api.db, siteId, { network: "adnet", ref: "r1" }, at("2026-10-30T15:00:00Z"), { lander: "landers/video", entry: true });

  // Members: A signs up on the 2nd (New York), C in the period before, B on the 4th, E at 23:30 on the 8th (the
  // period's last day), F at 00:30 on the 9th (after it).
  const a = await signUp("Anna", "2026-11-03T03:00:00Z", { network: "adnet", ref: "r1" }, "landers/video");
  const b = await signUp("Bert", "2026-11-04T12:00:00Z", {}, "members/landing");
  const c = await signUp("Cora", "2026-10-30T12:00:00Z", { network: "adnet", ref: "r1" }, "landers/video");
  const e = await signUp("Emma", "2026-11-09T04:30:00Z", { network: "adnet", ref: "r2" });
  await signUp("Finn", "2026-11-09T05:30:00Z", { network: "adnet", ref: "r2" });
  expect(await activate(api.db, testSessionSecret, a.token, at("2026-11-03T04:00:00Z"))).toBe(true);
  expect(await activate(api.db, testSessionSecret, c.token, at("2026-11-02T10:00:00Z"))).toBe(true);

  // Payments: A's first (within a day of signing up) and a repeat with a discount code; C's first, refunded on the
  // 7th; E's within a day of signing up but at 00:00 on the 9th in New York (after the period).
  await pay(a.userId, "2026-11-03T10:00:00Z", { amount: 2099, costs: 100, method: "ideal" });
  await pay(a.userId, "2026-11-06T10:00:00Z", { amount: 1899, costs: 90, method: "cards", discountCode: "SAVE10", discountAmount: 200 });
  const refunded = await pay(c.userId, "2026-11-04T20:00:00Z", { amount: 2099, costs: 100, method: "ideal" });
  await pay(e.userId, "2026-11-09T05:00:00Z", { amount: 999, costs: 50, method: "paypal" });
  expect(await refundPayment(api.db, providers, refunded, at("2026-11-07T12:00:00Z"))).toMatchObject({ kind: "refunded" });

  // Chat: A writes twice to a site-run profile (a text of 10 credits, a gift of 25) and is answered for free; B sends A
  // a photo (5 credits) at 23:00 on the 4th in New York.
  const [runUser] = await api.db.insert(users).values({ siteId, email: `run-${process.pid}@profiles.invalid`, status: "active" }).returning({ id: users.id });
  const [run] = await api.db
    .insert(profiles)
    .values({ userId: runUser!.id, siteId, name: "Site run", country: "NL", status: "active", dateOfBirth: "1995-01-01", gender: "female", fictional: true })
    .returning({ id: profiles.id });
  const pair = (x: number, y: number) => ({ lowProfileId: Math.min(x, y), highProfileId: Math.max(x, y) });
  const [withRun] = await api.db.insert(conversations).values({ siteId, ...pair(a.profileId, run!.id), fictionalProfileId: run!.id }).returning({ id: conversations.id });
  const [members] = await api.db.insert(conversations).values({ siteId, ...pair(a.profileId, b.profileId) }).returning({ id: conversations.id });
  await api.db.insert(messages).values([
    { conversationId: withRun!.id, senderProfileId: a.profileId, kind: "text", body: "Hello", credits: 10, createdAt: at("2026-11-03T12:00:00Z") },
    { conversationId: withRun!.id, senderProfileId: a.profileId, kind: "gift", body: "rose", credits: 25, createdAt: at("2026-11-03T13:00:00Z") },
    { conversationId: withRun!.id, senderProfileId: run!.id, kind: "text", body: "Hi!", credits: 0, createdAt: at("2026-11-03T14:00:00Z") },
    { conversationId: members!.id, senderProfileId: b.profileId, kind: "image", body: "image-key", credits: 5, createdAt: at("2026-11-05T04:00:00Z") },
  ]);

  // An operator's answer on the 5th (UTC), followed by three of the member's messages.
  const operator = await newStaff(api, "operator", [siteId]);
  // The day may have been reckoned already (operator_day_rollups, kept once) before this reply was written into the past.
  await api.db.delete(operatorDayRollups).where(eq(operatorDayRollups.day, "2026-11-05"));
  await api.db.insert(operatorReplies).values({ messageId: 2_000_000_000, staffUserId: operator.id, conversationId: withRun!.id, waitedSeconds: 60, memberMessagesAfter: 3, createdAt: at("2026-11-05T12:00:00Z") });
});
afterAll(async () => api?.close());

const report = async (query: string) => {
  const res = await staffCall(api, admin, "GET", `/api/staff/analytics.php?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("cache-control")).toContain("no-store");
  return AnalyticsResponse.parse(await res.json());
};
const none = { visits: 0, signups: 0, activations: 0, first_messages: 0, first_purchases: 0 };

describe("the owners' analytics", () => {
  it("counts the funnel per site's day, source and lander, beside the period before", async () => {
    const r = await report(`site=${siteId}&period=custom&from=2026-11-02&to=2026-11-08`);
    expect(r.time_zone).toBe("America/New_York");
    expect(r.period).toEqual({ from: "2026-11-02", to: "2026-11-08", previous_from: "2026-10-26", previous_to: "2026-11-01" });
    // Visits on the 2nd, 3rd and 5th; signups A, B, E (F is the 9th); activations A and C; first messages A and B;
    // first purchases A and C.
    expect(r.funnel.current).toEqual({ visits: 3, signups: 3, activations: 2, first_messages: 2, first_purchases: 2 });
    expect(r.funnel.previous).toEqual({ ...none, visits: 1, signups: 1 });
    expect(r.funnel.by_day).toEqual([
      { day: "2026-11-02", visits: 1, signups: 1, activations: 2, first_messages: 0, first_purchases: 0 },
      { day: "2026-11-03", visits: 1, signups: 0, activations: 0, first_messages: 1, first_purchases: 1 },
      { day: "2026-11-04", visits: 0, signups: 1, activations: 0, first_messages: 1, first_purchases: 1 },
      { day: "2026-11-05", visits: 1, signups: 0, activations: 0, first_messages: 0, first_purchases: 0 },
      { day: "2026-11-08", visits: 0, signups: 1, activations: 0, first_messages: 0, first_purchases: 0 },
    ]);
    const source = { sub1: "", sub2: "", sub3: "" };
    expect(r.funnel.by_source).toEqual([
      { network: "adnet", ref: "r1", ...source, visits: 2, signups: 1, activations: 2, first_messages: 1, first_purchases: 2 },
      { network: "", ref: "", ...source, visits: 1, signups: 1, activations: 0, first_messages: 1, first_purchases: 0 },
      { network: "adnet", ref: "r2", ...source, visits: 0, signups: 1, activations: 0, first_messages: 0, first_purchases: 0 },
    ]);
    expect(r.funnel.by_lander).toEqual([
      { lander: "landers/video", visits: 2, signups: 1, activations: 2, first_messages: 1, first_purchases: 2 },
      { lander: "members/landing", visits: 1, signups: 1, activations: 0, first_messages: 1, first_purchases: 0 },
      { lander: "", visits: 0, signups: 1, activations: 0, first_messages: 0, first_purchases: 0 },
    ]);
    // Only an entry through new tracking values is one of the attribution report's visits (docs/attribution.md).
    const reported = await api.db.select().from(attributionVisits).where(eq(attributionVisits.siteId, siteId));
    expect(reported.map((v) => [v.day, v.visits]).sort()).toEqual([
      ["2026-10-30", 1],
      ["2026-11-03", 1],
    ]);
  });

  it("sums revenue with discounts, costs and refunds taken off, per day, method, code and package", async () => {
    const r = await report(`site=${siteId}&period=custom&from=2026-11-02&to=2026-11-08`);
    // Paid in the period: 2099 + 1899 + 2099 = 6097; costs 100 + 90 + 100 = 290; C's 2099 refunded on the 7th:
    // net 6097 - 2099 - 290 = 3708 over two paying members (A and C) = 1854 each. E's payment is the 9th.
    const money = { currency: "EUR" };
    expect(r.revenue.current).toEqual([
      { ...money, payments: 3, first_purchases: 2, amount: 6097, discount_amount: 200, costs: 290, refunds: 1, refunded_amount: 2099, net: 3708, paying_members: 2, per_paying_member: 1854 },
    ]);
    expect(r.revenue.previous).toEqual([]);
    expect(r.revenue.by_day.map((d) => [d.day, d.payments, d.amount, d.refunded_amount, d.net])).toEqual([
      ["2026-11-03", 1, 2099, 0, 1999],
      ["2026-11-04", 1, 2099, 0, 1999],
      ["2026-11-06", 1, 1899, 0, 1809],
      ["2026-11-07", 0, 0, 2099, -2099],
    ]);
    expect(r.revenue.by_method.map((m) => [m.method, m.payments, m.amount, m.costs, m.refunded_amount, m.net])).toEqual([
      ["ideal", 2, 4198, 200, 2099, 1899],
      ["cards", 1, 1899, 90, 0, 1809],
    ]);
    expect(r.revenue.by_discount.map((m) => [m.discount_code, m.payments, m.amount, m.discount_amount])).toEqual([
      ["", 2, 4198, 0],
      ["SAVE10", 1, 1899, 200],
    ]);
    expect(r.revenue.by_package).toEqual([expect.objectContaining({ package_id: packageId, credits: 100, payments: 3, amount: 6097, net: 3708 })]);
    expect(r.revenue.by_country).toEqual([expect.objectContaining({ country: "NL", payments: 3, net: 3708 })]);
    expect(r.revenue.by_site).toEqual([expect.objectContaining({ site_id: siteId, site: "Analytics NY", net: 3708 })]);
  });

  it("counts a paying member once a period, at their first payment of it, whenever they paid before", async () => {
    // 4-8 November: A (paid the 3rd and again the 6th) and C (the 4th, 15:00 in New York). The 5 days before (30
    // October to 3 November): A's first payment, on the 3rd.
    const r = await report(`site=${siteId}&period=custom&from=2026-11-04&to=2026-11-08`);
    expect(r.revenue.current.map((m) => [m.payments, m.paying_members])).toEqual([[2, 2]]);
    expect(r.revenue.previous.map((m) => [m.payments, m.paying_members])).toEqual([[1, 1]]);
    // 3-8 November: A's two payments make one paying member.
    const both = await report(`site=${siteId}&period=custom&from=2026-11-03&to=2026-11-08`);
    expect(both.revenue.current.map((m) => [m.payments, m.paying_members])).toEqual([[3, 2]]);
  });

  it("reads a long period's sources and landers from whole months and the days around them alike", async () => {
    // Everything of the data set: visits 30 Oct, 2, 3 and 5 Nov; E and F signed up the 8th and 9th (New York) through
    // adnet/r2, E paid the 9th.
    const source = { sub1: "", sub2: "", sub3: "" };
    const expected = [
      { network: "adnet", ref: "r1", ...source, visits: 3, signups: 2, activations: 2, first_messages: 1, first_purchases: 2 },
      { network: "", ref: "", ...source, visits: 1, signups: 1, activations: 0, first_messages: 1, first_purchases: 0 },
      { network: "adnet", ref: "r2", ...source, visits: 0, signups: 2, activations: 0, first_messages: 0, first_purchases: 1 },
    ];
    // Whole months only; days, a whole month and a day; days only.
    for (const [from, to] of [
      ["2026-10-01", "2026-11-30"],
      ["2026-10-15", "2026-12-01"],
      ["2026-10-30", "2026-11-09"],
    ]) {
      const r = await report(`site=${siteId}&period=custom&from=${from}&to=${to}`);
      expect(r.funnel.by_source, `${from} to ${to}`).toEqual(expected);
      expect(r.funnel.by_lander.map((l) => [l.lander, l.visits, l.signups]), `${from} to ${to}`).toEqual([
        ["landers/video", 3, 2],
        ["", 0, 2],
        ["members/landing", 1, 1],
      ]);
    }
  });

  it("follows signup weeks: who paid within 1, 7 and 30 days and what they brought, a refund taken off", async () => {
    const r = await report(`site=${siteId}&period=custom&from=2026-11-02&to=2026-11-08`);
    // A (2099 within a day, 1899 within 7 days), B nothing, E (999 within a day, on the 9th): week of Monday the 2nd.
    expect(r.cohorts).toEqual([{ week: "2026-11-02", signups: 3, currency: "EUR", paid_1: 2, paid_7: 2, paid_30: 2, revenue_1: 3098, revenue_7: 4997, revenue_30: 4997 }]);
    // C signed up on 30 October and paid 2099 within 7 days, refunded: still a payer, nothing brought.
    const before = await report(`site=${siteId}&period=custom&from=2026-10-26&to=2026-11-01`);
    expect(before.cohorts).toEqual([{ week: "2026-10-26", signups: 1, currency: "EUR", paid_1: 0, paid_7: 1, paid_30: 1, revenue_1: 0, revenue_7: 0, revenue_30: 0 }]);
  });

  it("counts members' paid messages, credits by kind, those to site-run profiles, and the operators' answers", async () => {
    const r = await report(`site=${siteId}&period=custom&from=2026-11-02&to=2026-11-08`);
    expect(r.chat.current).toEqual({ paid_messages: 3, to_site_run: 2, credits_message: 10, credits_gift: 25, credits_photo: 5 });
    expect(r.chat.previous).toEqual({ paid_messages: 0, to_site_run: 0, credits_message: 0, credits_gift: 0, credits_photo: 0 });
    expect(r.chat.by_day).toEqual([
      { day: "2026-11-03", paid_messages: 2, to_site_run: 2, credits_message: 10, credits_gift: 25, credits_photo: 0 },
      { day: "2026-11-04", paid_messages: 1, to_site_run: 0, credits_message: 0, credits_gift: 0, credits_photo: 5 },
    ]);
    expect(r.chat.operators).toContainEqual(expect.objectContaining({ replies: 1, member_messages_after: 3 }));
    // Rolled up once: asking again counts nothing twice.
    expect((await report(`site=${siteId}&period=custom&from=2026-11-02&to=2026-11-08`)).chat.current.paid_messages).toBe(3);
  });

  it("counts a landing page's visit from the web without personal data, on the site's today", async () => {
    const res = await postJson(api.baseUrl, "/api/visit.php", { tracking: {}, lander: "landers/gallery" }, { "X-Forwarded-Host": domain });
    expect(res.status, await res.clone().text()).toBe(200);
    const r = await report(`site=${siteId}&period=today`);
    expect(r.funnel.by_lander).toEqual([{ lander: "landers/gallery", visits: 1, signups: 0, activations: 0, first_messages: 0, first_purchases: 0 }]);
    await expectApiError(await postJson(api.baseUrl, "/api/visit.php", { tracking: {}, lander: "../etc" }, { "X-Forwarded-Host": domain }), 400, "validation_failed");
  });

  it("adds every site's figures together, and keeps the analytics to admins", async () => {
    const all = await report("period=custom&from=2026-11-02&to=2026-11-08");
    expect(all.site_id).toBeNull();
    expect(all.revenue.by_site).toContainEqual(expect.objectContaining({ site_id: siteId, net: 3708 }));
    expect(all.funnel.current.signups).toBeGreaterThanOrEqual(3);
    await expectApiError(await staffCall(api, admin, "GET", "/api/staff/analytics.php?site=999999"), 404, "not_found");
    for (const bad of ["period=year", "period=custom", "period=custom&from=2026-11-08&to=2026-11-02", "period=custom&from=2025-01-01&to=2026-11-02", "site=abc"]) {
      await expectApiError(await staffCall(api, admin, "GET", `/api/staff/analytics.php?${bad}`), 400, "validation_failed");
    }
    const support = await staffToken(api, await newStaff(api, "support", [siteId]));
    await expectApiError(await staffCall(api, support, "GET", `/api/staff/analytics.php?site=${siteId}`), 403, "forbidden");
  });
});
