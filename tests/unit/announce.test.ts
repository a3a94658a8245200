import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Announcer, joinUpTo } from "../../api/events/announce";
import { eventChannel, pushChannel } from "../../api/events/emit";

/** api/events/announce.ts: a send's events are announced after its commit, several sends in one statement. */
describe("announcing sends' events after their commit", () => {
  let client: PGlite;
  const heard: Array<{ channel: string; payload: string }> = [];
  let onHeard = () => {};

  beforeAll(async () => {
    client = new PGlite();
    for (const channel of [eventChannel, pushChannel])
      await client.listen(channel, (payload) => {
        heard.push({ channel, payload });
        onHeard();
      });
  });

  /** Everything announced so far has been heard: a marker NOTIFY sent after it has arrived (they arrive in order); the marker is dropped. */
  async function fence(): Promise<void> {
    const arrived = new Promise<void>((resolve) => {
      onHeard = () => {
        if (heard.at(-1)?.payload === "fence") resolve();
      };
    });
    await client.query("select pg_notify($1, 'fence')", [eventChannel]);
    await arrived;
    heard.pop();
  }
  afterAll(async () => {
    await client.close();
  });

  it("announces what arrives in one turn of the event loop in one NOTIFY, and wakes the push workers once", async () => {
    heard.length = 0;
    const announcer = new Announcer(drizzle(client));
    announcer.announce("1:10,2:11", false);
    announcer.announce("3:12,4:10", true);
    announcer.announce(null, true);
    await announcer.settled();
    await fence();
    expect(heard).toEqual([
      { channel: eventChannel, payload: "1:10,2:11,3:12,4:10" },
      { channel: pushChannel, payload: "" },
    ]);
    announcer.announce("5:12", false);
    await announcer.settled();
    await fence();
    expect(heard.at(-1)).toEqual({ channel: eventChannel, payload: "5:12" });
    expect(heard).toHaveLength(3);
  });

  it("reports a failed announcement and goes on with the next", async () => {
    const errors: unknown[] = [];
    heard.length = 0;
    const announcer = new Announcer(drizzle(client), (error) => errors.push(error));
    // PostgreSQL refuses a payload of 8000 bytes or more.
    announcer.announce("9".repeat(9000), false);
    await announcer.settled();
    announcer.announce("2:1", false);
    await announcer.settled();
    await fence();
    expect(errors).toHaveLength(1);
    expect(heard).toEqual([{ channel: eventChannel, payload: "2:1" }]);
  });

  it("splits announcements into payloads PostgreSQL accepts, never inside a pair", () => {
    expect(joinUpTo([], 10)).toEqual([]);
    expect(joinUpTo(["1:2", "3:4", "5:6"], 7)).toEqual(["1:2,3:4", "5:6"]);
    expect(joinUpTo(["1:2", "3:4", "5:6"], 11)).toEqual(["1:2,3:4,5:6"]);
    expect(joinUpTo(["123456:7"], 4)).toEqual(["123456:7"]);
  });
});
