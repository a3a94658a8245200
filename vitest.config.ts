import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where an api test file spends
    // much of its time waiting for its database and server. Two files at once took the api tests from 236 s to 208 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts", "app/**/*.test.ts", "api/**/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          // Migrated and seeded once per pass; each file gets a copy (a database of its own), so files run side by side.
          globalSetup: ["tests/api/global-setup.ts"],
          // Every answer an api test gets is held to the OpenAPI document (tests/api/answer-check.ts).
          setupFiles: ["tests/api/answer-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // A worker imports the api once for all the files it runs, not once per file. A file's api and database are
          // its own (tests/api/harness.ts: an app per startApi, on a copy of the template); what a module of the api
          // keeps is process-wide by design (metrics, fixed lookup tables). Importing per file was about 200 s (summed
          // over the files) of a 409-s pass on PGlite; without it the pass took 243 s (docs/testing.md).
          isolate: false,
        },
      },
      {
        extends: true,
        // Processes of the production build on PostgreSQL: scripts/test.ts runs it after the build, with DATABASE_URL.
        test: { name: "scale", include: ["tests/scale/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 240_000 },
      },
    ],
  },
});
