import { z } from "zod";
import { ChatMessage } from "./chat";
import { wholeNumber } from "./input";

/*
 * GET /api/events.php (members only): a Server-Sent Events stream of what happens to the member. Each event
 * has an id; reconnecting with Last-Event-ID replays what came after it (from the database), so a dropped
 * connection loses nothing. A comment line every 15 s keeps the connection alive. Without Last-Event-ID the
 * stream starts with `ready` (its id is where a reconnect resumes). `end` closes it (logged out, session
 * revoked; or {reason: "too_many_streams"}: a newer stream of the member or of their address took its place,
 * docs/security.md); the client should not reconnect then (after too_many_streams it polls instead).
 *
 *   message  MessageEvent   a message in one of the member's conversations (also the member's own, from another tab)
 *   typing   TypingEvent    the other member is typing (sent at most every 3 s while typing; show it for 5 s)
 *   read     ReadEvent      the other member read the conversation through `through`
 *   like     LikeEvent      someone liked the member
 *   match    LikeEvent      a like made a match
 *   counts   {}             the member's counts changed elsewhere (read or deleted in another tab)
 *
 * POST /api/typing.php TypingRequest -> 204: the member is typing in the conversation (404 when it is not theirs).
 * POST /api/page-hidden.php (beacon, empty JSON body) -> 204: the member's page is hidden: they count as away.
 * POST /api/page-visible.php (empty JSON body) -> 204: the page is visible again.
 */

export const liveEventKinds = ["ready", "message", "typing", "read", "like", "match", "counts", "end"] as const;
export type LiveEventKind = (typeof liveEventKinds)[number];

export const EventProfile = z.object({ id: z.number().int(), name: z.string() });

export const MessageEvent = z.object({ conversation_id: z.number().int(), message: ChatMessage, from: EventProfile });
export type MessageEvent = z.infer<typeof MessageEvent>;
export const TypingEvent = z.object({ conversation_id: z.number().int(), from: EventProfile });
export type TypingEvent = z.infer<typeof TypingEvent>;
export const ReadEvent = z.object({ conversation_id: z.number().int(), through: z.number().int(), from: EventProfile });
export const LikeEvent = z.object({ from: EventProfile });
export const EndEvent = z.object({ reason: z.literal("too_many_streams").optional() });
export type EndEvent = z.infer<typeof EndEvent>;

export const TypingRequest = z.object({ conversation: z.number().int().min(1).max(2_147_483_647) });

export { heartbeatSeconds, typingSendEverySeconds, typingShowSeconds } from "./live";

/** An event id: Last-Event-ID on a reconnect, or ?last_event_id= on a first connection. */
export const LastEventId = wholeNumber(0, 2_147_483_647);

/** GET /api/events.php's query: where a first connection resumes (as Last-Event-ID does on a reconnect). */
export const EventsQuery = z.object({ last_event_id: LastEventId.describe("resume after this event (as the Last-Event-ID header does on a reconnect)").optional() });
