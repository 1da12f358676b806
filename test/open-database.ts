// Opens an isolated, migrated database inside the test process (for tests of the database layer
// itself). Kept apart from database.ts because it loads server-only code.
import { resolveDatabaseConfig } from "../lib/db/config";
import { type Database, openDatabase } from "../lib/db/database";
import { createIsolatedDatabaseConfig } from "./database";

/** Opens an isolated, migrated database in this process; close() also drops it. */
export async function openIsolatedDatabase(): Promise<Database> {
  const base = resolveDatabaseConfig(process.env);
  if (base.kind === "pglite") return openDatabase({ kind: "pglite", dataDir: null });
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
