// End-to-end tests in Debian's Chromium (never a downloaded browser) against the production build.
// The shared server uses DATABASE_URL when set, otherwise a fresh PGlite folder for this run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3107);
// Debian's chromium-headless-shell (the old headless mode, as Playwright's own headless runs use)
// when installed: the same engine, ~14 % less CPU than the full browser over the same tests
// (docs/testing.md). Otherwise the full Chromium; CHROMIUM_PATH picks another.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
const databaseEnv: Record<string, string> = process.env.DATABASE_URL
  ? { DATABASE_URL: process.env.DATABASE_URL }
  : { DATABASE_URL: `pglite:${fs.mkdtempSync(path.join(os.tmpdir(), "tandem-e2e-"))}` };

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

function traceMode(setting: string | undefined): "off" | "on" | "retain-on-failure" {
  if (setting === undefined || setting === "") return "retain-on-failure";
  if (setting === "off" || setting === "on" || setting === "retain-on-failure") return setting;
  throw new Error(`TANDEM_E2E_TRACE must be off, on or retain-on-failure; got "${setting}".`);
}

// TANDEM_TEST_REPORT_TAG (scripts/test.mjs) keeps this run's output and report apart from another
// run's in the same clone; the output folder is cleaned at start, so it is never test-results itself
// (the reports and server logs of the other stages live there).
const reportTag = process.env.TANDEM_TEST_REPORT_TAG ? `-${process.env.TANDEM_TEST_REPORT_TAG}` : "";

export default defineConfig({
  testDir: "e2e",
  outputDir: `test-results/e2e${reportTag}`,
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: `test-results/e2e-report${reportTag}.json` }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: { executablePath: chromiumPath, args: CHROMIUM_ARGS },
    // A trace is recorded for every test and kept when it fails; recording costs about a quarter of
    // the e2e stage's CPU (docs/testing.md). CI, whose artifacts nobody opens, turns it off
    // (TANDEM_E2E_TRACE=off in .ci/run); the failure's screenshot and message stay.
    trace: traceMode(process.env.TANDEM_E2E_TRACE),
    screenshot: "only-on-failure",
  },
  webServer: {
    // Idle keep-alive sockets stay open past a test's pauses: with the default 5 s, a request reusing a
    // socket the server was closing at that moment failed with ECONNRESET under load.
    command: `node scripts/serve.mjs -H 127.0.0.1 -p ${port} --keepAliveTimeout 65000`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_MANUAL_SIG_HANDLE: "true",
      // The test extensions (code tools, hooks, effects): e2e/effects.spec.ts schedules effects.
      TANDEM_EXTENSIONS_DIR: path.resolve("test/extensions"),
      ...databaseEnv,
    },
  },
});
