/*
 * How the staff console counts a queue (no zod here: the console's pages import it in the browser).
 */

/**
 * A queue's size is exact below this and this value stands for "this many or more" (queueCountText): the api counts
 * at most this many rows of a queue, however long it is.
 */
export const queueCountCap = 1000;

/** A queue's size as the console shows it: "1000+" (that many or more) at queueCountCap, as the inbox's queues. */
export function queueCountText(count: number): string {
  return count >= queueCountCap ? `${queueCountCap}+` : String(count);
}
