// The process's database (lib/db/database.ts): embedded PGlite or the Postgres server of
// DATABASE_URL, opened and migrated on first use, one handle shared by the whole process. The
// runtime facade is created on it (getRuntime).
import { type Database, getDatabase } from "@/lib/db/database";

/** The process-wide database handle, opened (and migrated) by the first call; later calls share it. */
export function processDatabase(): Promise<Database> {
  return getDatabase();
}
