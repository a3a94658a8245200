import type { TestProject } from "vitest/node";
import { createTemplateDatabase, type TemplateDatabase } from "./template-database";

declare module "vitest" {
  export interface ProvidedContext {
    apiTemplate: TemplateDatabase;
  }
}

/** Migrates and seeds the api tests' database once per pass; every file starts from a copy (tests/api/harness.ts). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const template = await createTemplateDatabase(process.env.DATABASE_URL || undefined);
  console.log(`api tests: template database seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide("apiTemplate", { uploadsDir: template.uploadsDir, pgliteDump: template.pgliteDump, postgresTemplate: template.postgresTemplate });
  return template.dispose;
}
