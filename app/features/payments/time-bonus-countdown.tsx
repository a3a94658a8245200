import { useAtomValue } from "jotai";
import { useHydrateAtoms } from "jotai/utils";
import { formatCountdown } from "#contract/offers";
import { timeBonusEndsAtom, timeBonusLeftAtom } from "./offers-state";

/** docs/product.md §4: the time bonus's time left, hours:minutes:seconds, one tick a second (without JavaScript: as the server rendered it). */
export function TimeBonusCountdown({ expires }: { expires: string }) {
  useHydrateAtoms(new Map([[timeBonusEndsAtom, expires]]));
  const left = useAtomValue(timeBonusLeftAtom);
  return (
    // The server's second and the browser's first may differ: the text is the clock's, not a mismatch.
    <span className="font-mono font-semibold tabular-nums" data-testid="time-bonus-countdown" suppressHydrationWarning>
      {formatCountdown(left)}
    </span>
  );
}
