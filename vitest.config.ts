import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
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
          // On PostgreSQL the files share one database and take turns, so TRUNCATE in one cannot hit
          // another; on PGlite each file has a database of its own and the files run side by side.
          fileParallelism: !process.env.DATABASE_URL,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
