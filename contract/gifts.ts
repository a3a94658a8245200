/*
 * Chat extras shared by the api and the pages. Plain constants, no zod: the chat page imports them.
 *
 * Gifts: images in public/gifts/{id}.svg (drawn for this project, CC0), names in locales/* chat.json gifts.{id},
 * priced by the site's gift_credits. A gift message's body is the gift id.
 */
export const giftIds = [
  "rose",
  "bouquet",
  "heart",
  "chocolates",
  "champagne",
  "teddy",
  "ring",
  "cupcake",
  "coffee",
  "star",
  "kiss",
  "cocktail",
] as const;
export type GiftId = (typeof giftIds)[number];

export function isGiftId(value: unknown): value is GiftId {
  return typeof value === "string" && (giftIds as readonly string[]).includes(value);
}

/** Where a gift's picture is (web serves public/ at the root); every picture is a square of this side. */
export const giftImageSide = 96;
export const giftImagePath = (id: GiftId) => `/gifts/${id}.svg`;

/** The file field of an image message (POST /api/chat-image.php, and the chat page's form without JavaScript). */
export const chatImageField = "photo";

/** GIF search: the longest query, and how many results a search answers. */
export const gifQueryMax = 50;
export const gifResultsLimit = 24;

/** A GIF id: a catalogue id (c-heart-1) or a provider's (t-123456789). */
export const gifIdPattern = /^(?:c-[a-z]+-[0-9]{1,2}|t-[0-9A-Za-z]{1,40})$/;
