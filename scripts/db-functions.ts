/**
 * Makes the migration for changed SQL functions (docs/operations.md, SQL functions):
 *
 *   npm run db:functions [-- --name send_message_cheaper]
 *
 * Migrates an in-memory PGlite and compares every function with api/db/functions/*.sql (api/db/sql-functions.ts).
 * Where a file changes a function or adds one, `drizzle-kit generate --custom` makes a new migration (its number, its
 * journal entry) and this writes the changed files into it, whole. It prints the migration's path, or that there is
 * nothing to do. A function of the migrations without a file, or defined in two files, is refused (exit code 1): the
 * files must say which definition stands before a migration is made from them.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openDatabase } from "../api/db/client";
import { functionDrift, functionsMigrationSql, readFunctionFiles } from "../api/db/sql-functions";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const migrations = path.join(root, "api/db/migrations");
/** What drizzle-kit writes into a custom migration it prepares. */
const drizzlePlaceholder = "-- Custom SQL migration file";

const { values } = parseArgs({ options: { name: { type: "string", default: "functions" } } });
const name = values.name ?? "functions";
if (!/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:functions [-- --name lower_case_words]");
  process.exit(2);
}

const database = await openDatabase({ dataDir: null });
const session = await database.session();
let exitCode = 0;
try {
  const files = readFunctionFiles();
  const drift = await functionDrift(session, files);
  for (const signature of drift.missing) console.error(`${signature}: defined by the migrations, in no file of api/db/functions`);
  for (const { signature, files: defining } of drift.duplicated) console.error(`${signature}: defined in ${defining.join(" and ")}`);
  if (drift.missing.length || drift.duplicated.length) exitCode = 1;
  else if (!drift.changed.length && !drift.added.length) console.log("api/db/functions and the migrations agree: no migration to make.");
  else {
    execFileSync(path.join(root, "node_modules/.bin/drizzle-kit"), ["generate", "--custom", `--name=${name}`], { cwd: root, stdio: "inherit" });
    const journal = JSON.parse(readFileSync(path.join(migrations, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
    const file = path.join(migrations, `${journal.entries[journal.entries.length - 1]!.tag}.sql`);
    if (!readFileSync(file, "utf8").startsWith(drizzlePlaceholder)) throw new Error(`${file} is not the migration drizzle-kit just prepared`);
    const changes = [
      ...drift.changed.map(({ signature, file: source }) => `--   ${signature} changed (api/db/functions/${source})`),
      ...drift.added.map(({ signature, file: source }) => `--   ${signature} new (api/db/functions/${source})`),
    ];
    writeFileSync(file, `-- Made by npm run db:functions from api/db/functions:\n${changes.join("\n")}\n${functionsMigrationSql(drift, files)}`);
    console.log(path.relative(root, file));
    for (const line of changes) console.log(line.slice(2));
  }
} finally {
  await session.release();
  await database.close();
}
process.exit(exitCode);
