import { availableParallelism } from "node:os";

/** A client has more hashing waiting than the queue keeps for one client: it is told to come back later. */
export class HashQueueFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("too many password checks waiting for this client");
  }
}

type Waiting = { start: () => void; reject: (error: Error) => void };

/**
 * Password hashing costs about 0.4 s of CPU each. At most `concurrency` derivations run at once
 * (leaving the rest of libuv's threads and the CPU to other requests), and clients take turns:
 * one client runs at most one derivation at a time, so a flood from one address waits behind
 * itself while a member elsewhere gets the next free slot.
 */
export class FairHashQueue {
  private running = 0;
  private readonly runningKeys = new Set<string>();
  /** Insertion order is the turn order. */
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
        reject,
      });
      this.waiting.set(client, queue);
      this.dispatch();
    });
  }

  /** Whether a client's next derivation would be refused: checked before any other work for it is done. */
  get retryAfterSeconds(): number {
    return this.options.retryAfterSeconds;
  }

  isFull(client: string): boolean {
    return (this.waiting.get(client)?.length ?? 0) >= this.options.maxWaitingPerClient;
  }

  /** Derivations running and waiting, for tests and the operator's health view. */
  stats(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { running: this.running, waiting };
  }

  private finish(client: string): void {
    this.running--;
    this.runningKeys.delete(client);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.running < this.options.concurrency) {
      const next = [...this.waiting.keys()].find((key) => !this.runningKeys.has(key));
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const item = queue.shift()!;
      // Re-inserting moves the client to the end of the turn order.
      this.waiting.delete(next);
      if (queue.length > 0) this.waiting.set(next, queue);
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
