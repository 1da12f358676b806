// StrykerJS for `npm run test:mutation` (scripts/mutation.mjs runs it once per module, setting
// MUTATE, MUTATION_TESTS and MUTATION_NAME). Outside `npm test`: a run takes minutes per module.
const name = process.env.MUTATION_NAME ?? "all";

export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  // related: false — every test file of the module runs in the initial run (the tests are already
  // scoped per module), including the load check, which imports the mutated files dynamically.
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  coverageAnalysis: "perTest",
  mutate: (process.env.MUTATE ?? "").split(",").filter(Boolean),
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  timeoutMS: 10_000,
  reporters: ["clear-text", "progress-append-only", "json", "html"],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: true },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  // No tsconfig rewrite in the sandbox: Stryker does it with TypeScript's JS API, which TypeScript 7
  // (native) no longer has, and Vitest resolves "@/..." from its own config, not from tsconfig.
  tsconfigFile: "no-tsconfig-rewrite.json",
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
  ignorePatterns: [
    ".next",
    ".data",
    "reports",
    "test-results",
    "e2e-artifacts",
    "playwright-report",
    "docs/screenshots",
    "bench",
    "e2e",
  ],
  // MUTATION_INCREMENTAL=1: reuse the last run's results for mutants whose code and covering tests
  // did not change (Stryker's incremental mode), so a re-run after new tests only runs what they touch.
  incremental: process.env.MUTATION_INCREMENTAL === "1",
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  thresholds: { high: 90, low: 80, break: null },
};
