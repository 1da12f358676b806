// Integration-test setup: with DATABASE_URL set, migrate one template database on that server so
// every test file can clone a fresh, isolated database from it in milliseconds.
import { resolveDatabaseConfig } from "../lib/db/config";
import { TEMPLATE_DATABASE, prepareTemplateDatabase } from "./database";

export async function setup(): Promise<void> {
  const config = resolveDatabaseConfig(process.env);
  if (config.kind === "postgres") {
    await prepareTemplateDatabase(config.url);
    console.log(`[integration] Postgres server mode: template database "${TEMPLATE_DATABASE}" migrated`);
  } else {
    console.log("[integration] PGlite mode (DATABASE_URL is not set)");
  }
}
