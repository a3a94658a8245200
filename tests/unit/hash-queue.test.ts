import { describe, expect, it } from "vitest";
import { FairHashQueue, HashQueueFull } from "../../api/domain/hash-queue";

/** A task that records when it ran and finishes when told to. */
function controllable(log: string[], name: string) {
  let finish = () => {};
  const task = () =>
    new Promise<string>((resolve) => {
      log.push(`start ${name}`);
      finish = () => {
        log.push(`end ${name}`);
        resolve(name);
      };
    });
  return { task, done: () => finish() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("FairHashQueue", () => {
  it("runs at most `concurrency` derivations, and at most one per client", async () => {
    const queue = new FairHashQueue({ concurrency: 2, maxWaitingPerClient: 8, retryAfterSeconds: 5 });
    const log: string[] = [];
    const a1 = controllable(log, "a1");
    const a2 = controllable(log, "a2");
    const b1 = controllable(log, "b1");
    const c1 = controllable(log, "c1");
    const results = [queue.run("a", a1.task), queue.run("a", a2.task), queue.run("b", b1.task), queue.run("c", c1.task)];
    await tick();
    expect(log).toEqual(["start a1", "start b1"]);
    expect(queue.stats()).toEqual({ running: 2, waiting: 2 });
    a1.done();
    await tick();
    // a's second waits its turn behind c, who has not had one yet.
    expect(log.slice(2)).toEqual(["end a1", "start c1"]);
    b1.done();
    await tick();
    expect(log.slice(4)).toEqual(["end b1", "start a2"]);
    c1.done();
    a2.done();
    expect(await Promise.all(results)).toEqual(["a1", "a2", "b1", "c1"]);
  });

  it("gives a member the free slot at once while a flood from one client waits behind itself", async () => {
    const queue = new FairHashQueue({ concurrency: 2, maxWaitingPerClient: 8, retryAfterSeconds: 5 });
    const log: string[] = [];
    const flood = Array.from({ length: 5 }, (_, i) => controllable(log, `flood${i}`));
    for (const item of flood) void queue.run("attacker", item.task);
    // Three derivations of the flood go through: it now counts as busy.
    for (let i = 0; i < 3; i++) {
      await tick();
      flood[i]!.done();
    }
    await tick();
    expect(log.at(-1)).toBe("start flood3");
    const member = controllable(log, "member");
    void queue.run("member", member.task);
    await tick();
    expect(log.at(-1)).toBe("start member");
    flood[3]!.done();
    await tick();
    // The busy client does not start another derivation beside the member's.
    expect(log.at(-1)).toBe("end flood3");
    member.done();
    await tick();
    expect(log.slice(-2)).toEqual(["end member", "start flood4"]);
    flood[4]!.done();
  });

  it("refuses a client's derivation beyond the waiting bound, and says when to come back", async () => {
    const queue = new FairHashQueue({ concurrency: 1, maxWaitingPerClient: 2, retryAfterSeconds: 7 });
    const log: string[] = [];
    const items = Array.from({ length: 3 }, (_, i) => controllable(log, `x${i}`));
    const first = queue.run("x", items[0]!.task);
    await tick();
    void queue.run("x", items[1]!.task);
    void queue.run("x", items[2]!.task);
    expect(queue.isFull("x")).toBe(true);
    expect(queue.isFull("y")).toBe(false);
    await expect(queue.run("x", async () => "too many")).rejects.toEqual(new HashQueueFull(7));
    items[0]!.done();
    expect(await first).toBe("x0");
  });
});
