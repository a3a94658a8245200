import { atom } from "jotai";
import { secondsLeft } from "#contract/offers";

/** When the member's time bonus ends (ISO), from the root loader; null: none. */
export const timeBonusEndsAtom = atom<string | null>(null);

const clockAtom = atom(0);
// One timer for every countdown on the page: it runs while something shows the time left, and stops
// when nothing does (the countdown at zero hides itself, logout removes the offer).
clockAtom.onMount = (tick) => {
  const timer = setInterval(() => tick((n) => n + 1), 1000);
  return () => clearInterval(timer);
};

/** docs/product.md §4: the time bonus countdown in seconds, ticking once a second; 0 when over. */
export const timeBonusLeftAtom = atom((get) => {
  get(clockAtom);
  const ends = get(timeBonusEndsAtom);
  return ends ? secondsLeft(ends, Date.now()) : 0;
});
