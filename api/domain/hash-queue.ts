import { availableParallelism } from "node:os";

/** A client has more hashing waiting than the queue keeps for one client: it is told to come back later. */
export class HashQueueFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("too many password checks waiting for this client");
  }
}

type Waiting = { start: () => void };

/** A client with this many derivations started within the window counts as busy. */
const busyAfterDerivations = 3;
const busyWindowMs = 30_000;

/**
 * Password hashing costs about 0.4 s of CPU each. At most `concurrency` derivations run at once
 * (leaving the rest of libuv's threads and the CPU to other requests), and clients take turns:
 * one client runs at most one derivation at a time, so a flood from one address waits behind
 * itself while a member elsewhere gets the next free slot; a client that hashed three times in 30 s
 * only starts another derivation while nobody else is hashing, so a member's login shares the CPU
 * with at most the one derivation the flood had already started.
 */
export class FairHashQueue {
  private running = 0;
  private readonly runningKeys = new Set<string>();
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(private readonly options: { concurrency: number; maxWaitingPerClient: number; retryAfterSeconds: number }) {}

  run<T>(client: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queue = this.waiting.get(client) ?? [];
      if (queue.length >= this.options.maxWaitingPerClient) {
        reject(new HashQueueFull(this.options.retryAfterSeconds));
        return;
      }
      queue.push({
        start: () => {
          task().then(resolve, reject).finally(() => this.finish(client));
        },
      });
      this.waiting.set(client, queue);
      this.dispatch();
    });
  }

  get retryAfterSeconds(): number {
    return this.options.retryAfterSeconds;
  }

  /** Whether a client's next derivation would be refused: checked before any other work for it is done. */
  isFull(client: string): boolean {
    return (this.waiting.get(client)?.length ?? 0) >= this.options.maxWaitingPerClient;
  }

  /** Derivations running and waiting, for tests and the operator's health view. */
  stats(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { running: this.running, waiting };
  }

  /** When each client with work in the queue last had a turn (a counter): the longest-waiting goes next. */
  private readonly lastTurn = new Map<string, number>();
  private turns = 0;
  /** Start times of each client's derivations within the last busyWindowMs. */
  private readonly recent = new Map<string, number[]>();

  private isBusy(client: string, now: number): boolean {
    const starts = (this.recent.get(client) ?? []).filter((at) => now - at < busyWindowMs);
    if (starts.length === 0) this.recent.delete(client);
    return starts.length >= busyAfterDerivations;
  }

  private finish(client: string): void {
    this.running--;
    this.runningKeys.delete(client);
    if (!this.waiting.has(client)) this.lastTurn.delete(client);
    this.dispatch();
  }

  private dispatch(): void {
    if (this.recent.size > 1000) for (const key of [...this.recent.keys()]) this.isBusy(key, Date.now());
    while (this.running < this.options.concurrency) {
      const now = Date.now();
      // A client that hashed a lot lately (a flood) only gets a slot while no one else is hashing.
      let next: string | undefined;
      for (const key of this.waiting.keys()) {
        if (this.runningKeys.has(key) || (this.running > 0 && this.isBusy(key, now))) continue;
        // Whoever was served longest ago (or never) goes first.
        if (next === undefined || (this.lastTurn.get(key) ?? -1) < (this.lastTurn.get(next) ?? -1)) next = key;
      }
      if (next === undefined) return;
      this.lastTurn.set(next, ++this.turns);
      this.recent.set(next, [...(this.recent.get(next) ?? []).filter((at) => now - at < busyWindowMs), now]);
      const queue = this.waiting.get(next)!;
      const item = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(next);
      this.running++;
      this.runningKeys.add(next);
      item.start();
    }
  }
}

export const hashQueue = new FairHashQueue({
  // Two at least, so that a flood from one client (one slot) never holds every slot.
  concurrency: Math.max(2, Math.min(4, availableParallelism())),
  maxWaitingPerClient: 8,
  retryAfterSeconds: 5,
});
