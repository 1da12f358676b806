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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tandem-pglite-"));
  return {
    config: { kind: "pglite", dataDir },
    env: { DATABASE_URL: `pglite:${dataDir}` },
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
