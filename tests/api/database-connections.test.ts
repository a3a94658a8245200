import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAccounts, login, startApi, type Harness } from "./harness";

/**
 * PostgreSQL only: a pooled connection the server ends (a restart, a failover, an administrator) must not
 * end the api. Without a listener for the pool's "error" event, node-postgres turns it into an uncaught
 * exception, and the process dies (here vitest reports the uncaught error and the run fails). And the statements
 * the api sends are prepared once per connection (ADR 021).
 */
describe.skipIf(!process.env.DATABASE_URL)("the api's PostgreSQL connections", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it("one the server ends is replaced, and the api goes on answering", async () => {
    // Several logins at once (each reads and writes the database), so the pool holds several connections, idle afterwards.
    const logins = () => Promise.all(Array.from({ length: 5 }, () => login(api.baseUrl, demoAccounts.free.email)));
    expect(await logins()).toHaveLength(5);
    const ended = await api.db.execute(
      sql`select pid, pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'idle'`,
    );
    const pids = (ended as unknown as { rows: { pid: number; ended: boolean }[] }).rows;
    expect(pids.length, "idle pooled connections ended by the server").toBeGreaterThan(0);
    // The server has closed them once they are gone from pg_stat_activity.
    await expect
      .poll(async () => {
        const left = await api.db.execute(sql`select count(*)::int as n from pg_stat_activity where pid = any(${sql.raw(`array[${pids.map((p) => Number(p.pid)).join(",")}]`)})`);
        return (left as unknown as { rows: { n: number }[] }).rows[0]?.n;
      })
      .toBe(0);
    // login() throws unless each answers 200 with a session.
    expect(await logins()).toHaveLength(5);
  });
  // ADR 021: the api runs every parameterised statement as a named prepared statement, so PostgreSQL parses it once
  // per connection and then reuses a generic plan instead of planning it on every run.
  it("prepares a parameterised statement once per connection and then runs it on a cached generic plan", async () => {
    const rows = await api.db.transaction(async (tx) => {
      // One connection (the transaction's): the same statement eight times, with different values.
      for (let i = 0; i < 8; i++) await tx.execute(sql`select count(*)::int as n from users where id > ${i} and site_id = ${1}`);
      const prepared = await tx.execute(
        sql`select name, statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like ${"select count(*)::int as n from users where id > %"}`,
      );
      return (prepared as unknown as { rows: { name: string; statement: string; generic: number; custom: number }[] }).rows;
    });
    expect(rows, "one prepared statement for the eight runs").toHaveLength(1);
    expect(rows[0]?.name).toMatch(/^q_[\w-]{22}$/);
    // PostgreSQL plans the first five runs for their values, then keeps the generic plan when it costs no more.
    expect(rows[0]!.custom + rows[0]!.generic).toBe(8);
    expect(rows[0]!.generic, "runs on the cached generic plan").toBeGreaterThan(0);
  });
});
