// Isolated databases for integration tests: a fresh database cloned from a migrated template on the
// Postgres server named by DATABASE_URL, or a fresh PGlite (in memory or in a temp folder) otherwise.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { type DatabaseConfig, resolveDatabaseConfig } from "../../lib/db/config";
import { applyMigrations } from "../../lib/db/migrations";
import { sqlClientFromPostgres } from "../../lib/db/sql-client";

export const TEMPLATE_DATABASE = "tandem_test_template";
/** Names the migrated PGlite folder every isolated PGlite database starts as a copy of (global setup). */
export const PGLITE_TEMPLATE_ENV = "TANDEM_TEST_PGLITE_TEMPLATE";

export function testBackend(): DatabaseConfig["kind"] {
  return resolveDatabaseConfig(process.env).kind;
}

function urlForDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function prepareTemplateDatabase(serverUrl: string): Promise<void> {
  const admin = postgres(urlForDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const template = postgres(urlForDatabase(serverUrl, TEMPLATE_DATABASE), { max: 1, onnotice: () => {} });
  try {
    await applyMigrations(sqlClientFromPostgres(template));
  } finally {
    await template.end();
  }
}

/** A database config nobody else uses: a clone of the template, or a new PGlite folder. */
export async function createIsolatedDatabaseConfig(): Promise<{
  config: DatabaseConfig;
  env: Record<string, string>;
  drop(): Promise<void>;
}> {
  const base = resolveDatabaseConfig(process.env);
  if (base.kind === "postgres") {
    const name = `tandem_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const admin = postgres(urlForDatabase(base.url, "postgres"), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
    } finally {
      await admin.end();
    }
    const url = urlForDatabase(base.url, name);
    return {
      config: { kind: "postgres", url },
      env: { DATABASE_URL: url },
      async drop() {
        const cleaner = postgres(urlForDatabase(base.url, "postgres"), { max: 1, onnotice: () => {} });
        try {
          await cleaner.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await cleaner.end();
        }
      },
    };
  }
  const { dataDir, drop } = freshPGliteFolder();
  return { config: { kind: "pglite", dataDir }, env: { DATABASE_URL: `pglite:${dataDir}` }, drop };
}

/**
 * A new PGlite folder nobody else uses: a copy of the migrated folder the global setup made, when
 * there is one (a server or a test then opens a ready database instead of creating and migrating
 * one in WebAssembly, ~6 s of CPU each), else empty.
 */
export function freshPGliteFolder(): { dataDir: string; drop(): Promise<void> } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tandem-pglite-"));
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template && fs.existsSync(template)) fs.cpSync(template, dataDir, { recursive: true });
  return {
    dataDir,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
