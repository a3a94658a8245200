import { describe, expect, it } from "vitest";
import { formatCountdown, inMembersArea, secondsLeft, timeBonus } from "#contract/offers";
import { automaticDiscount, priceWith, refusalFor, timeBonusOf, welcomeDiscountOf, type Discount } from "../../api/domain/payments/discounts";
import { timeBonusModalEligible } from "~/features/payments/offers";
import { alertCandidates } from "~/features/members/member-alerts.server";

/** Offer rules at their edges: the time bonus window, who gets the modal, the countdown, and what a code applies to. */
const signup = new Date("2026-11-01T10:00:00Z");
const at = (seconds: number) => new Date(signup.getTime() + seconds * 1000);
const newMember = { signupDate: signup, paidUser: false };
const site = { welcomeDiscountHours: 72 };

describe("time bonus (docs/product.md §4, §9: TIMEBONUS25, 25%, 14,400 s from signup)", () => {
  it("runs at second 14,399 with one second left, and is gone at 14,400", () => {
    const running = timeBonusOf(newMember, at(14_399));
    expect(running).toMatchObject({ kind: "timebonus", code: "TIMEBONUS25", value_percentage: 25 });
    expect(secondsLeft(running!.expires!, at(14_399).getTime())).toBe(1);
    expect(timeBonusOf(newMember, at(14_400))).toBeNull();
    expect(timeBonus.seconds).toBe(14_400);
  });

  it("is absent for a member who paid", () => {
    expect(timeBonusOf({ ...newMember, paidUser: true }, at(10))).toBeNull();
    expect(automaticDiscount({ ...newMember, paidUser: true }, site, at(10))).toBeNull();
  });

  it("is the active discount while it runs, then the welcome discount until welcome_discount_hours, then none", () => {
    expect(automaticDiscount(newMember, site, at(14_399))?.kind).toBe("timebonus");
    expect(automaticDiscount(newMember, site, at(14_400))?.kind).toBe("welcome");
    expect(welcomeDiscountOf(newMember, site, at(72 * 3600 - 1))?.code).toBe("WELCOME25");
    expect(automaticDiscount(newMember, site, at(72 * 3600))).toBeNull();
    expect(welcomeDiscountOf(newMember, { welcomeDiscountHours: 0 }, at(1))).toBeNull();
  });
});

describe("time bonus modal (docs/product.md §4: logged in, 0 credits, bonus visible, not dismissed)", () => {
  const bonus = { kind: "timebonus" as const, code: "TIMEBONUS25", value_percentage: 25, expires: at(14_400).toISOString() };
  const now = at(100).getTime();
  const member = { credits: 0, paidUser: false };

  it("opens for a member with 0 credits whose bonus runs", () => {
    expect(timeBonusModalEligible(member, bonus, false, now)).toBe(true);
  });
  it("not for a visitor (logged out), with credits above 0, paid, dismissed, or at zero", () => {
    expect(timeBonusModalEligible(null, bonus, false, now)).toBe(false);
    expect(timeBonusModalEligible({ ...member, credits: 1 }, bonus, false, now)).toBe(false);
    expect(timeBonusModalEligible({ ...member, paidUser: true }, bonus, false, now)).toBe(false);
    expect(timeBonusModalEligible(member, bonus, true, now)).toBe(false);
    expect(timeBonusModalEligible(member, bonus, false, at(14_400).getTime())).toBe(false);
    expect(timeBonusModalEligible(member, { ...bonus, kind: "welcome" }, false, now)).toBe(false);
  });
  it("is one of the member's dismissible alerts (hide-time-bonus-modal) only when eligible", () => {
    const user = { status: "active" as const, notifications_disabled: [], credits: 0, paid_user: false, profile: { main_image: { filename: "a", thumb_filename: "a", status: "active" as const } } };
    expect(alertCandidates(user, bonus, now)).toEqual([{ key: "hide-time-bonus-modal" }]);
    expect(alertCandidates({ ...user, credits: 20 }, bonus, now)).toEqual([]);
    expect(alertCandidates(user, null, now)).toEqual([]);
  });
  it("opens in the members area only", () => {
    for (const path of ["/members", "/members/12", "/chats", "/chats/3", "/likes", "/likes/m/4", "/premium"]) expect(inMembersArea(path)).toBe(true);
    for (const path of ["/profile", "/credits", "/members/12/chat", "/likes/received", "/"]) expect(inMembersArea(path)).toBe(false);
  });
});

describe("countdown (docs/product.md §9: hours, minutes, seconds, zero padded)", () => {
  it.each([
    [14_400, "04:00:00"],
    [14_399, "03:59:59"],
    [61, "00:01:01"],
    [0, "00:00:00"],
    [-5, "00:00:00"],
  ])("%i s is %s", (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });
  it("rounds what is left up to whole seconds and never below zero", () => {
    expect(secondsLeft("2026-11-01T10:00:10.000Z", Date.parse("2026-11-01T10:00:09.200Z"))).toBe(1);
    expect(secondsLeft("2026-11-01T10:00:10.000Z", Date.parse("2026-11-01T10:00:11Z"))).toBe(0);
  });
});

describe("what a code applies to", () => {
  const code: Discount = { kind: "code", code: "X", value_percentage: 20, expires: null, minimum_order_value: 5000, currency: "EUR", country: "NL", discountCodeId: 1, validity: "once_per_user", paymentMethods: ["ideal"] };
  const order = { amount: 5000, currency: "EUR", country: "NL", method: "ideal" as const };
  it("an order at exactly the minimum in its country, currency and method", () => {
    expect(refusalFor(code, order)).toBeNull();
    expect(priceWith(code, 5000)).toBe(4000);
  });
  it("refuses below the minimum, another country, currency or method, with what the message needs", () => {
    expect(refusalFor(code, { ...order, amount: 4999 })).toEqual({ reason: "minimum_order", code: "X", minimum_order_value: 5000, currency: "EUR" });
    expect(refusalFor(code, { ...order, country: "DE" })).toMatchObject({ reason: "country", country: "NL" });
    expect(refusalFor(code, { ...order, currency: "GBP" })).toMatchObject({ reason: "currency", currency: "EUR" });
    expect(refusalFor(code, { ...order, method: "cards" })).toMatchObject({ reason: "method", method: "cards" });
  });
  it("rounds the discount to whole minor units", () => {
    expect(priceWith({ value_percentage: 25 }, 2999)).toBe(2249);
    expect(priceWith({ value_percentage: 10 }, 1499)).toBe(1349);
  });
});
