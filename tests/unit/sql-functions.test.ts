import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type SqlSession } from "../../api/db/client";
import { functionDrift, functionsMigrationSql, inStep, readFunctionFiles, runStatements, type FunctionFile } from "../../api/db/sql-functions";

const sendMessage = "send_message(integer,integer,integer,integer,text,text,integer,text,text,integer,boolean)";

/** A copy of the function files with send_message's current body changed, one file gone and two added. */
function edited(files: FunctionFile[]): FunctionFile[] {
  const copy = files
    .filter(({ file }) => file !== "audit_log_append_only.sql")
    // The first declaration is the current overload's (the file's first statement).
    .map((entry) => (entry.file === "send_message.sql" ? { ...entry, sql: entry.sql.replace("v_credits int;", "v_credits int;\n  v_unused int;") } : entry));
  copy.push({ file: "zz_probe.sql", sql: `CREATE OR REPLACE FUNCTION "rdv_probe"() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;` });
  const emit = files.find(({ file }) => file === "emit_member_events.sql")!;
  copy.push({ file: "zz_twice.sql", sql: emit.sql.replace("DECLARE", "-- again\nDECLARE") });
  return copy;
}

/** api/db/functions/*.sql against the migrations, on a migrated in-memory database (docs/operations.md, SQL functions). */
describe("the SQL functions' source files", { timeout: 60_000 }, () => {
  let database: Database;
  let session: SqlSession;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: null });
    session = await database.session();
  }, 240_000);

  afterAll(async () => {
    await session?.release();
    await database?.close();
  });

  it("hold what the migrations define last, every function in one file", async () => {
    const drift = await functionDrift(session, readFunctionFiles());
    expect(drift).toEqual({ missing: [], added: [], changed: [], duplicated: [] });
    expect(inStep(drift)).toBe(true);
  });

  it("find a changed body, a function without a file, a new one and one defined twice, and leave the database as it was", async () => {
    const files = readFunctionFiles();
    const drift = await functionDrift(session, edited(files));
    expect(drift.missing).toEqual(["audit_log_append_only()"]);
    expect(drift.changed.map(({ signature, file }) => ({ signature, file }))).toEqual([
      { signature: "emit_member_events(jsonb)", file: "zz_twice.sql" },
      { signature: sendMessage, file: "send_message.sql" },
    ]);
    expect(drift.changed[1]!.source).toContain("v_unused int;");
    expect(drift.changed[1]!.migrations).not.toContain("v_unused");
    expect(drift.added).toEqual([{ signature: "rdv_probe()", file: "zz_probe.sql" }]);
    expect(drift.duplicated).toEqual([{ signature: "emit_member_events(jsonb)", files: ["emit_member_events.sql", "zz_twice.sql"] }]);
    expect(inStep(drift)).toBe(false);
    // The check ran in a transaction that was rolled back: the migrations' functions and triggers are all there.
    expect(await functionDrift(session, files)).toEqual({ missing: [], added: [], changed: [], duplicated: [] });
    await expect(session.exec("truncate audit_log")).rejects.toThrow(/append-only/);
  });

  it("make a migration that brings the database to the files: the changed and new files, whole", async () => {
    const files = edited(readFunctionFiles()).filter(({ file }) => file !== "zz_twice.sql");
    const migration = functionsMigrationSql(await functionDrift(session, files), files);
    expect(migration).toContain("-- api/db/functions/send_message.sql\n");
    expect(migration).toContain("-- api/db/functions/zz_probe.sql\n");
    expect(migration).not.toContain("record_member_events.sql");
    // Run as the migrator runs it (this test is the file's last: the database keeps the change).
    await runStatements(session, migration);
    const after = await functionDrift(session, files);
    expect(after.changed).toEqual([]);
    expect(after.added).toEqual([]);
    expect((await session.exec("select rdv_probe() as one", [])).rows).toEqual([{ one: 1 }]);
  });
});
