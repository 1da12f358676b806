// Applies the committed Prisma migrations (prisma/migrations/*/migration.sql) in order, keeping
// Prisma's own `_prisma_migrations` bookkeeping, so `prisma migrate deploy` would agree with us.
// Why not the Prisma CLI: it downloads a native engine, which offline machines cannot do.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { SqlClient } from "./sql-client";

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  readonly code = "migration_failed";
}

/** Tandem runs from the project root (npm scripts, `next start`); bundled code has no module path. */
export const DEFAULT_MIGRATIONS_DIR = path.join(
  /*turbopackIgnore: true*/ process.cwd(),
  "prisma",
  "migrations",
);

/** Prisma takes this advisory lock key too, so our deploy and Prisma's never run at once. */
const MIGRATION_LOCK_KEY = 72707369;

const BOOKKEEPING_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
);`;

export function readMigrationFiles(migrationsDir: string = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  if (!fs.existsSync(migrationsDir)) return [];
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export async function applyMigrations(
  client: SqlClient,
  migrations: MigrationFile[] = readMigrationFiles(),
): Promise<MigrationReport> {
  return client.transaction(async (tx) => {
    // Transaction-scoped lock: released on commit, so concurrent deployers queue up safely.
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.exec(BOOKKEEPING_TABLE);
    const rows = await tx.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const report: MigrationReport = { applied: [], alreadyApplied: [] };
    for (const migration of migrations) {
      const appliedChecksum = done.get(migration.name);
      if (appliedChecksum !== undefined) {
        if (appliedChecksum !== migration.checksum) {
          throw new MigrationError(
            `Migration ${migration.name} was changed after it was applied (checksum mismatch). ` +
              "Never edit an applied migration: create a new one with `npm run db:new-migration <name>`.",
          );
        }
        report.alreadyApplied.push(migration.name);
        continue;
      }
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      report.applied.push(migration.name);
    }
    return report;
  });
}
