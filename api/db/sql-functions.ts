import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlSession } from "./client";
import { projectPath } from "../project-files";

/**
 * The SQL functions' sources (docs/operations.md, SQL functions): api/db/functions/<name>.sql holds the current
 * definition of the function <name> (its overloads too), as `CREATE OR REPLACE FUNCTION` statements separated by
 * drizzle's `--> statement-breakpoint`. The migrations are what a database runs; these files are what a reader and a
 * change start from. `functionDrift` compares the two on a migrated database, through PostgreSQL's own rendering of
 * each function (pg_get_functiondef), so layout and comments outside a body do not count and nothing is parsed here.
 */
export const functionsDir = projectPath("api", "db", "functions");

export const statementBreakpoint = "--> statement-breakpoint";

export type FunctionFile = { file: string; sql: string };

/** The function files of `dir`, by name. */
export function readFunctionFiles(dir = functionsDir): FunctionFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((file) => ({ file, sql: readFileSync(path.join(dir, file), "utf8") }));
}

export type FunctionDrift = {
  /** Defined by the migrations, in no file. */
  missing: string[];
  /** In a file, not defined by the migrations (a new function, or an overload with other parameters). */
  added: { signature: string; file: string }[];
  /** In a file and in the migrations, with another definition. */
  changed: { signature: string; file: string; migrations: string; source: string }[];
  /** Defined by more than one file. */
  duplicated: { signature: string; files: string[] }[];
};

/**
 * The public schema's own functions (not an extension's): signature ("send_message(integer,...)") to definition.
 */
async function definedFunctions(session: SqlSession): Promise<Map<string, string>> {
  const { rows } = await session.exec(
    `select p.oid::regprocedure::text as signature, pg_get_functiondef(p.oid) as definition
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
      order by 1`,
    [],
  );
  return new Map(rows.map((row) => [String(row.signature), String(row.definition)]));
}

/** Runs a file's statements one by one, as the migrator runs a migration's. */
export async function runStatements(session: SqlSession, sql: string): Promise<void> {
  for (const statement of sql.split(statementBreakpoint)) {
    if (statement.replace(/--.*$/gm, "").trim()) await session.exec(statement);
  }
}

/**
 * How the function files differ from what the migrations defined, on `session`'s database, migrated and otherwise
 * untouched. In a transaction that is rolled back: every function of the schema is dropped (with the triggers that
 * use them), then each file is run, so each function is known by the file that defines it.
 */
export async function functionDrift(session: SqlSession, files: FunctionFile[]): Promise<FunctionDrift> {
  const migrated = await definedFunctions(session);
  const fromFiles = new Map<string, { definition: string; files: string[] }>();
  await session.exec("begin");
  try {
    // A LANGUAGE sql body is checked when it is created; a file may name a function of a file run after it.
    await session.exec("set local check_function_bodies = off");
    for (const signature of migrated.keys()) await session.exec(`drop function ${signature} cascade`);
    let before = new Map<string, string>();
    for (const { file, sql } of files) {
      await runStatements(session, sql);
      const after = await definedFunctions(session);
      const names = sqlNames(sql);
      for (const [signature, definition] of after) {
        const earlier = fromFiles.get(signature);
        if (!earlier) fromFiles.set(signature, { definition, files: [file] });
        // Defined again by a later file: the later one stands, as it would in a migration.
        else if (names.has(nameOf(signature)) && before.get(signature) !== definition) {
          fromFiles.set(signature, { definition, files: [...earlier.files, file] });
        }
      }
      before = after;
    }
  } finally {
    await session.exec("rollback");
  }
  const drift: FunctionDrift = { missing: [], added: [], changed: [], duplicated: [] };
  for (const signature of migrated.keys()) if (!fromFiles.has(signature)) drift.missing.push(signature);
  for (const [signature, { definition, files: defining }] of fromFiles) {
    const file = defining[defining.length - 1]!;
    if (defining.length > 1) drift.duplicated.push({ signature, files: defining });
    const migratedDefinition = migrated.get(signature);
    if (migratedDefinition === undefined) drift.added.push({ signature, file });
    else if (migratedDefinition !== definition) drift.changed.push({ signature, file, migrations: migratedDefinition, source: definition });
  }
  return drift;
}

/** "send_message(integer,text)" → "send_message". */
function nameOf(signature: string): string {
  return signature.slice(0, signature.indexOf("(")).replace(/^"|"$/g, "");
}

/** The function names a file's CREATE statements name. */
function sqlNames(sql: string): Set<string> {
  return new Set([...sql.matchAll(/create\s+(?:or\s+replace\s+)?function\s+(?:public\.)?"?(\w+)"?\s*\(/gi)].map((match) => match[1]!));
}

/** Whether the files and the migrations agree. */
export function inStep(drift: FunctionDrift): boolean {
  return !drift.missing.length && !drift.added.length && !drift.changed.length && !drift.duplicated.length;
}

/**
 * The body of a migration that brings a database to the files: each file with a changed or new function, whole
 * (`CREATE OR REPLACE` of an unchanged overload beside it changes nothing), in the files' order.
 */
export function functionsMigrationSql(drift: FunctionDrift, files: FunctionFile[]): string {
  const touched = new Set([...drift.changed, ...drift.added].map((entry) => entry.file));
  return files
    .filter(({ file }) => touched.has(file))
    .map(({ file, sql }) => `-- api/db/functions/${file}\n${sql.trim()}\n`)
    .join(`${statementBreakpoint}\n`);
}
