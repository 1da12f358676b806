// Test projects: `unit` (pure code, no database), `integration` (HTTP + a real database: the server
// named by DATABASE_URL, or an in-memory PGlite per test file when it is unset) and `faults` (the
// fault-injection suite; Postgres only).
import path from "node:path";
import { defineConfig } from "vitest/config";

// Tests run server code outside Next, so "server-only" resolves to its no-op server build here.
const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "runtime/**/*.test.ts",
            "components/**/*.test.ts",
            "scripts/**/*.test.ts",
            "app/**/*.test.ts",
            "bench/**/*.test.ts",
          ],
          // bench/peers/ is its own npm package, installed only for BENCH_ONLY=peers (never in CI).
          exclude: ["**/*.integration.test.ts", "node_modules/**", "bench/peers/**", ".stryker-tmp/**"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: ["node_modules/**", ".data/**", ".stryker-tmp/**"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ["./test/support/global-setup.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          // The fault-injection suite (`npm run test:faults`): kills, restarts and storms on Postgres.
          name: "faults",
          include: ["test/faults/**/*.faults.test.ts"],
          exclude: ["node_modules/**", ".data/**", ".stryker-tmp/**"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          globalSetup: ["./test/faults/global-setup.ts"],
        },
      },
    ],
  },
});
