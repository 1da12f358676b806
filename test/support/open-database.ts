// Opens an isolated, migrated database inside the test process (for tests of the database layer
// itself). Kept apart from database.ts because it loads server-only code.
import { type DatabaseConfig, resolveDatabaseConfig } from "../../lib/db/config";
import { type Database, openDatabase } from "../../lib/db/database";
import { createIsolatedDatabaseConfig, freshPGliteFolder, PGLITE_TEMPLATE_ENV } from "./database";

/**
 * A fresh PGlite in this process: a copy of the global setup's migrated folder when there is one
 * (opening it costs ~1 s of CPU, creating and migrating a cluster ~6 s), else an in-memory one.
 */
async function openFreshPGlite(): Promise<Database> {
  if (!process.env[PGLITE_TEMPLATE_ENV]) return openDatabase({ kind: "pglite", dataDir: null });
  const folder = freshPGliteFolder();
  const database = await openDatabase({ kind: "pglite", dataDir: folder.dataDir });
  return {
    ...database,
    async close() {
      await database.close();
      await folder.drop();
    },
  };
}

/** Opens an isolated, migrated database in this process; close() also drops it. */
export async function openIsolatedDatabase(): Promise<Database> {
  const base = resolveDatabaseConfig(process.env);
  if (base.kind === "pglite") return openFreshPGlite();
  const isolated = await createIsolatedDatabaseConfig();
  const database = await openDatabase(isolated.config);
  return {
    ...database,
    async close() {
      await database.close();
      await isolated.drop();
    },
  };
}

export type TestBackend = DatabaseConfig["kind"];

/** The backends a database-layer test runs on: PGlite always, the Postgres server when DATABASE_URL names one. */
export function testDatabaseBackends(): TestBackend[] {
  return resolveDatabaseConfig(process.env).kind === "postgres" ? ["pglite", "postgres"] : ["pglite"];
}

/** A fresh database of that backend: a fresh PGlite (`openFreshPGlite`), or an isolated Postgres database. */
export function openTestDatabase(backend: TestBackend): Promise<Database> {
  return backend === "pglite" ? openFreshPGlite() : openIsolatedDatabase();
}
