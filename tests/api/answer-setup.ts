import { afterAll, afterEach } from "vitest";
import { takeAnswerFailures } from "./answer-check";

/**
 * Every api test file (vitest.config.ts setupFiles): a test during which the api answered outside its OpenAPI
 * document fails (tests/api/answer-check.ts); an answer in a file's own hooks fails the file at its end.
 */
function failOnUndocumentedAnswers(): void {
  const found = takeAnswerFailures();
  if (found.length) throw new Error(`api answers outside the OpenAPI document (api/openapi/):\n${found.join("\n")}`);
}

afterEach(failOnUndocumentedAnswers);
afterAll(failOnUndocumentedAnswers);
