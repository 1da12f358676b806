// The liveness probe of the database (GET /api/health): one trivial statement, which fails when the
// database cannot be reached.
import type { SqlExecutor } from "@/lib/db/sql-client";

/** Runs `SELECT 1`; rejects when the database does not answer. */
export async function pingDatabase(db: SqlExecutor): Promise<void> {
  await db.query("SELECT 1");
}
