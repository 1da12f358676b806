// Which database Tandem talks to: an embedded PGlite folder by default, a Postgres server when
// DATABASE_URL names one. Pure: reads only the environment object it is given.
import path from "node:path";

export type DatabaseConfig =
  | { kind: "pglite"; dataDir: string | null /* null = in memory */ }
  | { kind: "postgres"; url: string };

export class DatabaseConfigError extends Error {
  readonly code = "database_config_invalid";
}

export const DEFAULT_PGLITE_DIR = ".data/pglite";

export function resolveDatabaseConfig(
  env: Record<string, string | undefined>,
  cwd: string = process.cwd(),
): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (!url) {
    return { kind: "pglite", dataDir: path.resolve(cwd, env.PGLITE_DIR?.trim() || DEFAULT_PGLITE_DIR) };
  }
  if (url === "pglite:memory") return { kind: "pglite", dataDir: null };
  if (url.startsWith("pglite:"))
    return { kind: "pglite", dataDir: path.resolve(cwd, url.slice("pglite:".length)) };
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return { kind: "postgres", url };
  throw new DatabaseConfigError(
    `DATABASE_URL must be a postgres:// or postgresql:// URL, "pglite:memory" or "pglite:<folder>"; got "${redactUrl(url)}".`,
  );
}

/** A URL safe to print: the password, if any, is replaced. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@");
}

export function describeDatabase(config: DatabaseConfig): string {
  if (config.kind === "postgres") return `Postgres at ${redactUrl(config.url)}`;
  return config.dataDir ? `embedded PGlite in ${config.dataDir}` : "embedded PGlite in memory";
}
