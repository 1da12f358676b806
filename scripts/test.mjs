#!/usr/bin/env node
// `npm test`: the whole suite, in order — lint/format check, type check, unit tests, production
// build, integration tests (real HTTP, a real database), the fault-injection suite (Postgres only),
// end-to-end tests in Chromium.
// Database: the Postgres server named by DATABASE_URL, or PGlite when it is unset.
// TANDEM_TEST_STAGES=unit,integration (comma list) runs only some stages.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { playwrightFailures, vitestFailures } from "./test-reports.mjs";

const ALL_STAGES = ["lint", "typecheck", "unit", "build", "integration", "faults", "e2e"];
const requested = (process.env.TANDEM_TEST_STAGES ?? ALL_STAGES.join(","))
  .split(",")
  .map((stage) => stage.trim())
  .filter(Boolean);
const unknown = requested.filter((stage) => !ALL_STAGES.includes(stage));
if (unknown.length > 0) {
  console.error(`Unknown test stage(s): ${unknown.join(", ")}. Stages: ${ALL_STAGES.join(", ")}`);
  process.exit(2);
}
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  CHECKPOINT_DISABLE: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
fs.mkdirSync("test-results", { recursive: true });
fs.mkdirSync("e2e-artifacts", { recursive: true });
// TANDEM_TEST_REPORT_TAG names this run's reports (test-results/<stage>-<tag>.json, Playwright's output
// in test-results/e2e-<tag>), so two runs can share a clone at once (.ci/run: Postgres and PGlite).
const reportTag = env.TANDEM_TEST_REPORT_TAG ? `-${env.TANDEM_TEST_REPORT_TAG}` : "";

const results = [];
let passedTests = 0;
let failedTests = 0;
/** Names (and first message line) of the tests that failed, repeated at the end of the run. */
const failureLines = [];

function run(command, args) {
  const started = Date.now();
  const outcome = spawnSync(command, args, { stdio: "inherit", env });
  return { ok: outcome.status === 0, seconds: (Date.now() - started) / 1000 };
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function vitestStage(project) {
  const report = path.join("test-results", `${project}${reportTag}.json`);
  fs.rmSync(report, { force: true });
  const outcome = run("npx", [
    "vitest",
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ]);
  const json = readJson(report);
  failureLines.push(...vitestFailures(json, project, process.cwd()));
  const passed = json?.numPassedTests ?? 0;
  const failed = (json?.numFailedTests ?? 0) + (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0);
  passedTests += passed;
  failedTests += failed;
  const ran = passed + failed > 0;
  return {
    ...outcome,
    ok: outcome.ok && ran && failed === 0,
    detail: `${passed} passed, ${failed} failed or skipped`,
  };
}

/** On a fresh Debian machine as root, fetch Debian's Chromium (the registry's browsers need the internet). */
function installDebianChromium() {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !fs.existsSync("/usr/bin/apt-get")) return;
  console.log(
    "Chromium is missing: installing Debian's package for the browser tests (apt-get install -y chromium-headless-shell)…",
  );
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  spawnSync("apt-get", ["install", "-y", "-qq", "chromium-headless-shell"], {
    stdio: "inherit",
    env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

/** The browser the e2e stage drives: as playwright.config.ts picks it (the headless shell first). */
function chromiumPath() {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return fs.existsSync("/usr/bin/chromium-headless-shell")
    ? "/usr/bin/chromium-headless-shell"
    : "/usr/bin/chromium";
}

const stages = {
  // `npm run lint`: Biome, then the layer rules of scripts/layers/layer-list.mjs.
  lint: () => run("npm", ["run", "--silent", "lint"]),
  typecheck: () => run("npx", ["tsc", "--noEmit", "-p", "."]),
  unit: () => vitestStage("unit"),
  // scripts/build.mjs: `next build` plus the source stamp the integration suite checks the build against.
  build: () => run(process.execPath, ["scripts/build.mjs"]),
  integration: () => vitestStage("integration"),
  // The fault-injection suite needs a Postgres server (it kills processes mid-write and restarts the
  // database); on the embedded default it is not run, and the summary says so.
  faults: () =>
    /^postgres(ql)?:/.test(env.DATABASE_URL ?? "")
      ? vitestStage("faults")
      : { ok: true, seconds: 0, detail: "not run: needs DATABASE_URL (a Postgres server); CI runs it" },
  e2e: () => {
    if (!fs.existsSync(chromiumPath()) && !env.CHROMIUM_PATH) installDebianChromium();
    if (!fs.existsSync(chromiumPath())) {
      console.error(
        `No Chromium at ${chromiumPath()}. Install Debian's: \`sudo apt-get install -y chromium-headless-shell\`, ` +
          "or point CHROMIUM_PATH at a Chromium/Chrome binary. (Never `npx playwright install`: it needs the internet.)",
      );
      return { ok: false, seconds: 0, detail: "no browser" };
    }
    const report = path.join("test-results", `e2e-report${reportTag}.json`);
    fs.rmSync(report, { force: true });
    const outcome = run("npx", ["playwright", "test"]);
    const e2eJson = readJson(report);
    failureLines.push(...playwrightFailures(e2eJson));
    const stats = e2eJson?.stats ?? {};
    const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
    const failed = (stats.unexpected ?? 0) + (stats.skipped ?? 0);
    passedTests += passed;
    failedTests += failed;
    return {
      ...outcome,
      ok: outcome.ok && passed + failed > 0 && failed === 0,
      detail: `${passed} passed, ${failed} failed or skipped`,
    };
  },
};

let buildFailed = false;
for (const stage of ALL_STAGES.filter((name) => requested.includes(name))) {
  if (buildFailed && (stage === "integration" || stage === "faults" || stage === "e2e")) {
    results.push({ stage, ok: false, seconds: 0, detail: "not run: the build failed" });
    continue;
  }
  console.log(`\n━━ ${stage} ━━`);
  const result = stages[stage]();
  results.push({ stage, ...result });
  if (stage === "build" && !result.ok) buildFailed = true;
}

console.log("\n━━ summary ━━");
for (const result of results) {
  console.log(
    `${result.ok ? "ok  " : "FAIL"} ${result.stage.padEnd(12)} ${result.seconds.toFixed(1).padStart(6)} s${result.detail ? `  ${result.detail}` : ""}`,
  );
}
const failedStages = results.filter((result) => !result.ok);
// Stages without test counts (lint, typecheck, build) count as one check each when they fail.
const failedChecks = failedStages.filter(
  (result) => !["unit", "integration", "e2e"].includes(result.stage),
).length;
if (failureLines.length > 0) {
  console.log("failed tests:");
  for (const line of failureLines) console.log(`  ${line}`);
}
console.log(`tests: ${passedTests} passed, ${failedTests + failedChecks} failed`);
process.exit(failedStages.length === 0 && failedTests === 0 ? 0 : 1);
