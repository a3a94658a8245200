/*
 * Offers the browser needs too (docs/product.md §4 and §9: the time bonus and the welcome discount).
 * No zod here: the countdown and the banners ship without the schemas (contract/payments.ts has them).
 */

/** docs/product.md §9 time bonus: code TIMEBONUS25, 25 percent, once per member, for 14,400 s from signup. */
export const timeBonus = { code: "TIMEBONUS25", percentage: 25, seconds: 14_400 } as const;

/** docs/product.md §9 welcome discount: 25% on the first purchase, for a site's welcome_discount_hours after signup. */
export const welcomeDiscount = { code: "WELCOME25", percentage: 25 } as const;

/** docs/product.md §4: the time bonus modal opens this long after the member enters the members area. */
export const timeBonusModalDelayMs = 40_000;

/** docs/product.md §6: the members area (where the time bonus modal may open). */
export const membersAreaPaths = [/^\/members(\/\d+)?$/, /^\/chats(\/\d+)?$/, /^\/likes(\/m\/\d+)?$/, /^\/premium$/];
export function inMembersArea(path: string): boolean {
  return membersAreaPaths.some((re) => re.test(path));
}

export const discountKinds = ["timebonus", "welcome", "code"] as const;
export type DiscountKind = (typeof discountKinds)[number];

/** Why a code does not apply; each has its own message (docs/product.md §5: 'Code not found', 'Code already used'). */
export const discountRefusalReasons = ["not_found", "used", "reserved", "expired", "minimum_order", "country", "currency", "method"] as const;
export type DiscountRefusalReason = (typeof discountRefusalReasons)[number];

/** Seconds left of an offer that ends at `expires` (ISO), never below zero. */
export function secondsLeft(expires: string, nowMs: number): number {
  return Math.max(0, Math.ceil((Date.parse(expires) - nowMs) / 1000));
}

/** docs/product.md §9: hours, minutes and seconds, zero padded ("03:59:07"). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** The price after a percentage off (minor units, rounded to the nearest unit). */
export function discounted(amount: number, percentage: number): number {
  return amount - Math.round((amount * percentage) / 100);
}
