// Database migrations from the command line.
//   deploy        apply committed migrations to DATABASE_URL (or the embedded PGlite folder)
//   create <name> write prisma/migrations/<timestamp>_<name>/migration.sql for schema changes
//   status        list applied and pending migrations
// Run through npm: `npm run db:migrate`, `npm run db:new-migration <name>`.
import { describeDatabase, resolveDatabaseConfig } from "../lib/db/config";
import { createMigration } from "./schema-engine";

const usage = `Usage: tsx scripts/migrate.ts deploy | status | create <name>

DATABASE_URL   postgres://… for a server; unset for embedded PGlite in .data/pglite
               (PGLITE_DIR overrides the folder); "pglite:memory" for a throwaway database.`;

async function main(argv: string[]): Promise<number> {
  const [command, name] = argv;
  if (command === "--help" || command === "-h" || !command) {
    console.log(usage);
    return command ? 0 : 2;
  }
  if (command === "create") {
    if (!name || !/^[a-z0-9_]+$/.test(name)) {
      console.error("create needs a snake_case migration name, e.g. `npm run db:new-migration add_threads`");
      return 2;
    }
    const created = await createMigration(name);
    console.log(
      created ? `Created prisma/migrations/${created}/migration.sql` : "No schema changes: nothing created.",
    );
    return 0;
  }
  if (command !== "deploy" && command !== "status") {
    console.error(`Unknown command "${command}".\n${usage}`);
    return 2;
  }
  // Imported lazily: the database module refuses to load in client bundles ("server-only").
  const { openDatabase } = await import("../lib/db/database");
  const { applyMigrations, readMigrationFiles } = await import("../lib/db/migrations");
  const config = resolveDatabaseConfig(process.env);
  const database = await openDatabase(config, { migrate: false, maxConnections: 1 });
  try {
    if (command === "status") {
      const rows = await database.sql
        .query<{ migration_name: string }>(
          `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`,
        )
        .catch(() => []);
      const applied = new Set(rows.map((row) => row.migration_name));
      for (const migration of readMigrationFiles()) {
        console.log(`${applied.has(migration.name) ? "applied" : "pending"}  ${migration.name}`);
      }
      return 0;
    }
    const report = await applyMigrations(database.sql);
    console.log(
      `Database ready (${describeDatabase(config)}): ${report.applied.length} migration(s) applied, ` +
        `${report.alreadyApplied.length} already up to date.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
