import type { messages } from "../db/schema";
import type { ChatMessage, MessageMedia } from "#contract/chat";
import { giftImagePath, giftImageSide, isGiftId } from "#contract/gifts";

/*
 * How gift, GIF and image messages are stored in `messages.body`, and the one function that turns a
 * message row into the contract's ChatMessage (used by the chat api and the live event hub alike):
 *   gift   "{giftId}"                                   e.g. "rose"
 *   gif    "{gifId} {w}x{h}"                            e.g. "c-heart-1 120x120"
 *   image  "{key} {w}x{h} {thumbW}x{thumbH}"           files {key}.jpg and {key}-t.jpg under DATA_DIR/chat-images
 */

type MessageRow = typeof messages.$inferSelect;

const size = (s: string | undefined): [number, number] | null => {
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(s ?? "");
  return m ? [Number(m[1]), Number(m[2])] : null;
};

export const gifBody = (id: string, width: number, height: number) => `${id} ${width}x${height}`;
export const imageBody = (key: string, full: [number, number], thumb: [number, number]) => `${key} ${full[0]}x${full[1]} ${thumb[0]}x${thumb[1]}`;

/** The stored image's key ("img/abc"), or null when the body is not an image message's. */
export function imageKeyOf(body: string): string | null {
  const key = body.split(" ")[0] ?? "";
  return /^img\/[A-Za-z0-9_-]{10,64}$/.test(key) ? key : null;
}

export function messageMedia(row: Pick<MessageRow, "id" | "kind" | "body">): MessageMedia | null {
  if (row.kind === "gift") {
    if (!isGiftId(row.body)) return null;
    const url = giftImagePath(row.body);
    return { url, thumb_url: url, width: giftImageSide, height: giftImageSide, ref: row.body };
  }
  if (row.kind === "gif") {
    const [id = "", dims] = row.body.split(" ");
    const [width, height] = size(dims) ?? [120, 120];
    const url = `/api/gif.php?id=${encodeURIComponent(id)}`;
    return { url, thumb_url: `${url}&size=thumb`, width, height, ref: id };
  }
  if (row.kind === "image") {
    const [, full, thumb] = row.body.split(" ");
    const [width, height] = size(thumb) ?? size(full) ?? [320, 320];
    return { url: `/api/chat-image.php?message=${row.id}&size=full`, thumb_url: `/api/chat-image.php?message=${row.id}&size=thumb`, width, height, ref: "" };
  }
  return null;
}

/** A message as `viewerProfileId` sees it: credits for the sender only, media for gifts, GIFs and images. */
export function toChatMessage(row: MessageRow, viewerProfileId: number): ChatMessage {
  const media = messageMedia(row);
  return {
    id: row.id,
    conversation_id: row.conversationId,
    sender: row.senderProfileId,
    kind: row.kind,
    body: media ? "" : row.body,
    media,
    credits: row.senderProfileId === viewerProfileId ? row.credits : 0,
    created_at: (row.createdAt instanceof Date ? row.createdAt : new Date(row.createdAt)).toISOString(),
    // Held or rejected for contact details (docs/staff.md): only its sender ever reads it, with why.
    ...(row.moderation ? { moderation: row.moderation } : {}),
  };
}
