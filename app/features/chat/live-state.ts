import { atom } from "jotai";

/**
 * Live chat state that the loaders do not hold: who is typing where. Everything else the event
 * stream changes (messages, unread counts, likes, read marks) is re-read with the page's loaders, so the
 * list, the badges and the title stay one truth with what a page load shows.
 */
export type Typing = { fromId: number; name: string; until: number };
export type TypingByConversation = Record<number, Typing>;
export const typingAtom = atom<TypingByConversation>({});

/**
 * A message arrived: the one who was typing in that conversation has sent it, so "{name} is typing…" ends then,
 * not 5 s after the last typing signal. Another sender (the member's own message from another tab) leaves it.
 */
export function typingAfterMessage(all: TypingByConversation, message: { conversation_id: number; from: { id: number } }): TypingByConversation {
  if (all[message.conversation_id]?.fromId !== message.from.id) return all;
  const { [message.conversation_id]: _sent, ...rest } = all;
  return rest;
}

/** Whether the event stream is connected (false: polling, or not started). */
export const liveConnectedAtom = atom(false);
