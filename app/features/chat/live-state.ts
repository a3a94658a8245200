import { atom } from "jotai";

/**
 * Live chat state that the loaders do not hold: who is typing where. Everything else the event
 * stream changes (messages, unread counts, likes, read marks) is re-read with the page's loaders, so the
 * list, the badges and the title stay one truth with what a page load shows.
 */
export type Typing = { name: string; until: number };
export const typingAtom = atom<Record<number, Typing>>({});

/** Whether the event stream is connected (false: polling, or not started). */
export const liveConnectedAtom = atom(false);
