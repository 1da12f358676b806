// The unit tests a mutation run (`npm run test:mutation`, scripts/mutation.mjs) uses against one module:
// MUTATION_TESTS (comma-separated globs) picks them, so each mutant runs only the tests of its module;
// test/mutation/modules-load.check.ts checks that every mutated module (MUTATE) still loads.
import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    include: [
      ...(process.env.MUTATION_TESTS ?? "").split(",").filter(Boolean),
      "test/mutation/modules-load.check.ts",
    ],
    exclude: ["**/*.integration.test.ts", "node_modules/**"],
    environment: "node",
    // Instrumented code runs slower; a timeout here would fail the initial run, not find a mutant.
    testTimeout: 60_000,
  },
});
