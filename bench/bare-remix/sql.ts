/** The bench's bare database: 300 members in bench_bare_members, for bare Remix and the bare api. */
import { faker } from "@faker-js/faker";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { BareMember } from "./app/context";

export type BareSql = {
  query: (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;
  /** A page of members. */
  members: (limit: number, offset: number) => Promise<BareMember[]>;
  close: () => Promise<void>;
};

const membersText = "SELECT id, name, age, city, about FROM bench_bare_members ORDER BY id LIMIT $1 OFFSET $2";

/**
 * PostgreSQL when DATABASE_URL is set (a pool of 10), else PGlite in memory. `prepared`: the page's query as a named
 * prepared statement on PostgreSQL, as the api's hot queries are; bare Remix's own query stays unprepared, as in every
 * run since it was added, so its row stays comparable.
 */
export async function openBareSql({ prepared }: { prepared: boolean }): Promise<BareSql> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return {
      query: (text, params) => pool.query(text, params),
      members: async (limit, offset) =>
        (await pool.query(prepared ? { name: "bare_members", text: membersText, values: [limit, offset] } : { text: membersText, values: [limit, offset] })).rows as BareMember[],
      close: () => pool.end(),
    };
  }
  const db = new PGlite();
  return {
    query: (text, params) => db.query(text, params),
    members: async (limit, offset) => (await db.query(membersText, [limit, offset])).rows as BareMember[],
    close: () => db.close(),
  };
}

/** 300 members, the same ones on every start (seeded faker). */
export async function fillBareMembers(sql: BareSql): Promise<void> {
  await sql.query(`CREATE TABLE IF NOT EXISTS bench_bare_members (
    id integer PRIMARY KEY, name text NOT NULL, age integer NOT NULL, city text NOT NULL, about text NOT NULL)`);
  await sql.query("TRUNCATE bench_bare_members");
  faker.seed(20_240_101);
  const rows = Array.from({ length: 300 }, (_, i) => [i + 1, faker.person.firstName(), faker.number.int({ min: 18, max: 70 }), faker.location.city(), faker.lorem.sentences(2)]);
  const placeholders = rows.map((_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`).join(", ");
  await sql.query(`INSERT INTO bench_bare_members (id, name, age, city, about) VALUES ${placeholders}`, rows.flat());
}
