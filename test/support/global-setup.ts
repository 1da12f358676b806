// Integration-test setup: with DATABASE_URL set, migrate one template database on that server so
// every test file can clone a fresh, isolated database from it in milliseconds.
import { resolveDatabaseConfig } from "../../lib/db/config";
import { prepareTemplateDatabase, TEMPLATE_DATABASE } from "./database";
import { assertBuilt } from "./server";

export async function setup(): Promise<void> {
  assertBuilt();
  const config = resolveDatabaseConfig(process.env);
  if (config.kind === "postgres") {
    await prepareTemplateDatabase(config.url);
    console.log(`[integration] Postgres server mode: template database "${TEMPLATE_DATABASE}" migrated`);
  } else {
    console.log("[integration] PGlite mode (DATABASE_URL is not set)");
  }
}
