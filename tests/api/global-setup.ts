import type { TestProject } from "vitest/node";
import { buildOpenApiDocument } from "../../api/openapi/document";
import { compileAnswerSchemas, type AnswerTable } from "./answer-schemas";
import { createTemplateDatabase, type TemplateDatabase } from "./template-database";

declare module "vitest" {
  export interface ProvidedContext {
    apiTemplate: TemplateDatabase;
    openApiAnswers: AnswerTable;
  }
}

/**
 * Migrates and seeds the api tests' database once per pass; every file starts from a copy (tests/api/harness.ts).
 * Compiles the OpenAPI document's answer schemas once per pass as well.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const template = await createTemplateDatabase(process.env.DATABASE_URL || undefined);
  console.log(`api tests: template database seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide("apiTemplate", { uploadsDir: template.uploadsDir, pgliteDump: template.pgliteDump, postgresTemplate: template.postgresTemplate });
  // The OpenAPI document's answer schemas, compiled once for every file's check of its answers (tests/api/answer-check.ts).
  const answers = compileAnswerSchemas(buildOpenApiDocument());
  project.provide("openApiAnswers", answers.table);
  return async () => {
    answers.dispose();
    await template.dispose();
  };
}
