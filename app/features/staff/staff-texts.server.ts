import staff from "../../../locales/en/staff.json";
import chat from "../../../locales/en/chat.json";
import type { GiftId } from "#contract/gifts";

/**
 * The staff pages' texts: English for now, in a namespace of their own (locales/en/staff.json) so more
 * languages can follow. A page's loader sends the parts it shows; the browser loads no translation file for them.
 */
export type StaffTexts = typeof staff;

export function staffTexts(): StaffTexts {
  return staff;
}

/** The gifts' English names (locales/en/chat.json gifts.{id}, as members see them): the inbox answers with a gift. */
export function giftNames(): Record<GiftId, string> {
  return chat.gifts;
}
