// Integration-test setup: with DATABASE_URL set, migrate one template database on that server so
// every test file can clone a fresh, isolated database from it in milliseconds; and, in both modes,
// migrate one PGlite folder that every fresh PGlite database (a test file's server, a database-layer test's
// own) starts from as a copy (removed at the end).
import fs from "node:fs";
import { resolveDatabaseConfig } from "../../lib/db/config";
import { PGLITE_TEMPLATE_ENV, prepareTemplateDatabase, TEMPLATE_DATABASE } from "./database";
import { preparePGliteTemplate } from "./pglite-template";
import { assertBuilt } from "./server";

export async function setup(): Promise<() => void> {
  assertBuilt();
  const config = resolveDatabaseConfig(process.env);
  if (config.kind === "postgres") {
    await prepareTemplateDatabase(config.url);
    console.log(`[integration] Postgres server mode: template database "${TEMPLATE_DATABASE}" migrated`);
  } else {
    console.log("[integration] PGlite mode (DATABASE_URL is not set)");
  }
  // Database-layer tests run on PGlite in both modes (testDatabaseBackends).
  const template = await preparePGliteTemplate();
  process.env[PGLITE_TEMPLATE_ENV] = template;
  return () => fs.rmSync(template, { recursive: true, force: true });
}
