import { z } from "zod";
import { id, wholeNumber, int4Max } from "./input";

/*
 * Members' messages the contact filter held (docs/staff.md, contact details in chat), for moderators and admins
 * (`messages.moderate`), on the sites they serve. Approving delivers a message to its recipient; rejecting leaves it
 * undelivered and gives its sender the credits back. Each decision is audited in its own transaction.
 *
 *   GET  /api/staff/held-messages.php?after=  -> HeldMessagesResponse: oldest first, a page at a time
 *   POST /api/staff/held-messages.php HeldMessageDecision -> HeldMessageOutcome | not_found 404 (decided already, or not one of one's sites)
 */

export const heldMessagesPageSize = 25;

export const HeldMessagesQuery = z.object({ after: wholeNumber(0, int4Max).optional() });

export const HeldMessage = z.object({
  id: z.number(),
  site: z.object({ id: z.number(), name: z.string() }),
  sender: z.object({ user_id: z.number(), profile_id: z.number(), name: z.string() }),
  recipient: z.object({ profile_id: z.number(), name: z.string() }),
  body: z.string(),
  credits: z.number(),
  created_at: z.string(),
});
export type HeldMessage = z.infer<typeof HeldMessage>;

export const HeldMessagesResponse = z.object({
  messages: z.array(HeldMessage),
  /** The `after` of the next page, or null. */
  next_after: z.number().nullable(),
});
export type HeldMessagesResponse = z.infer<typeof HeldMessagesResponse>;

export const HeldMessageDecision = z.object({ id, decision: z.enum(["approve", "reject"]) });
export type HeldMessageDecision = z.infer<typeof HeldMessageDecision>;

export const HeldMessageOutcome = z.object({
  ok: z.literal(true),
  id: z.number(),
  decision: z.enum(["approve", "reject"]),
  /** Credits given back to the sender (a rejected message's price). */
  refunded: z.number(),
});
export type HeldMessageOutcome = z.infer<typeof HeldMessageOutcome>;
