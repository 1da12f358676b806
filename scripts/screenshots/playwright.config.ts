// `npm run screenshots`: the screenshot gallery (docs/screenshots/) taken in Debian's Chromium at
// 1440×900 against the production build (run `npm run build` first), on a fresh PGlite database.
// A separate config so the gallery is never part of `npm test`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS } from "../../playwright.config";

const port = Number(process.env.SCREENSHOTS_PORT ?? process.env.E2E_PORT ?? 3117);
const database = `pglite:${fs.mkdtempSync(path.join(os.tmpdir(), "tandem-screenshots-"))}`;

export default defineConfig({
  testDir: ".",
  testMatch: "gallery.spec.ts",
  outputDir: "../../test-results/screenshots",
  timeout: 240_000,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    viewport: { width: 1440, height: 900 },
    colorScheme: "light",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS },
  },
  webServer: {
    // Idle keep-alive sockets stay open past a test's pauses: with the default 5 s, a request reusing a
    // socket the server was closing at that moment failed with ECONNRESET under load.
    command: `node node_modules/next/dist/bin/next start -H 127.0.0.1 -p ${port} --keepAliveTimeout 65000`,
    cwd: path.resolve(import.meta.dirname, "../.."),
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_MANUAL_SIG_HANDLE: "true",
      DATABASE_URL: database,
      // The test extensions: an MCP server for the palette's MCP section, effects and endpoints.
      TANDEM_EXTENSIONS_DIR: "test/extensions",
    },
  },
});
