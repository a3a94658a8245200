import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "../../api/db/client";
import { seedDemoData } from "../../api/db/seed";
import { setPasswordHashCost } from "../../api/domain/passwords";

/**
 * The api tests' database, migrated and seeded once per pass (tests/api/global-setup.ts) and copied for
 * each test file: on PGlite a dump of the data directory loaded into a fresh in-memory instance, on
 * PostgreSQL a database made with `CREATE DATABASE ... TEMPLATE`, so files run side by side on both.
 */
export type TemplateDatabase = {
  /** The seeded uploads (demo photos), copied into each file's DATA_DIR. */
  uploadsDir: string;
  /** PGlite: the dump of the seeded data directory (a tar file). */
  pgliteDump?: string;
  /** PostgreSQL: the seeded database each file's copy is made from. */
  postgresTemplate?: string;
};

/** The cost of password hashes in the api tests (PASSWORD_HASH_COST); tests/unit/passwords.test.ts proves production's 17. */
export const testHashCost = 10;

export async function createTemplateDatabase(databaseUrl: string | undefined): Promise<TemplateDatabase & { dispose: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "rdv-api-template-"));
  const uploadsDir = path.join(dir, "uploads");
  setPasswordHashCost(testHashCost);
  if (!databaseUrl) {
    const database = await openDatabase({ dataDir: null });
    await seedDemoData(database.db, { uploadsDir });
    if (!database.dumpDataDir) throw new Error("PGlite gave no dump of its data directory");
    const dump = await database.dumpDataDir();
    const pgliteDump = path.join(dir, "db.tar");
    writeFileSync(pgliteDump, Buffer.from(await dump.arrayBuffer()));
    await database.close();
    return { uploadsDir, pgliteDump, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const postgresTemplate = `rdv_template_${randomBytes(4).toString("hex")}`;
  await admin(databaseUrl, `CREATE DATABASE ${postgresTemplate}`);
  const database = await openDatabase({ databaseUrl: databaseAt(databaseUrl, postgresTemplate), dataDir: null });
  await seedDemoData(database.db, { uploadsDir });
  await database.close();
  return {
    uploadsDir,
    postgresTemplate,
    dispose: async () => {
      await admin(databaseUrl, `DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A copy of the template for one test file: its database and a DATA_DIR holding the seeded uploads. */
export async function copyTemplate(template: TemplateDatabase, databaseUrl: string | undefined, dataDir: string): Promise<{ database: Database; databaseUrl?: string }> {
  if (existsSync(template.uploadsDir)) cpSync(template.uploadsDir, path.join(dataDir, "uploads"), { recursive: true });
  if (template.pgliteDump) {
    const database = await openDatabase({ dataDir: null, loadDataDir: new Blob([readFileSync(template.pgliteDump)]) });
    return { database };
  }
  if (!databaseUrl || !template.postgresTemplate) throw new Error("the api tests' template database is missing: run them through vitest.config.ts");
  const name = `rdv_test_${randomBytes(6).toString("hex")}`;
  await admin(databaseUrl, `CREATE DATABASE ${name} TEMPLATE ${template.postgresTemplate}`);
  const url = databaseAt(databaseUrl, name);
  const database = await openDatabase({ databaseUrl: url, dataDir: null });
  const close = database.close;
  return {
    databaseUrl: url,
    database: {
      ...database,
      close: async () => {
        await close();
        await admin(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    },
  };
}

function databaseAt(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** One statement on the server's maintenance connection (CREATE/DROP DATABASE cannot run in a transaction). */
async function admin(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
