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

/**
 * How postgres.js reaches the server of a postgres:// URL. A `host` query parameter naming a folder
 * (libpq's way to say "the Unix socket in this folder", e.g. `postgresql://postgres@localhost:5432/db
 * ?host=/var/run/postgresql`) becomes postgres.js's socket `path`; postgres.js would otherwise send
 * it to the server as a setting. Other URLs are used as they are.
 */
export function postgresConnection(url: string): { url: string; path?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  const folder = parsed.searchParams.get("host");
  if (!folder?.startsWith("/")) return { url };
  parsed.searchParams.delete("host");
  const port = parsed.port || "5432";
  return { url: parsed.toString(), path: `${folder.replace(/\/+$/, "")}/.s.PGSQL.${port}` };
}

/**
 * Group commit (`commit-batcher.ts`), from TANDEM_GROUP_COMMIT: "1"/"on"/"true" or "0"/"off"/"false";
 * unset means the default. Only a Postgres server groups commits (PGlite has one connection).
 * TANDEM_GROUP_COMMIT_IN_FLIGHT: groups in flight at once (each on its own connection);
 * TANDEM_GROUP_COMMIT_MAX: commits in one group at most.
 */
export const GROUP_COMMIT_DEFAULTS = { enabled: true, maxInFlight: 4, maxParts: 64 };

export interface GroupCommitSettings {
  enabled: boolean;
  maxInFlight: number;
  maxParts: number;
}

export function groupCommitSettings(env: Record<string, string | undefined>): GroupCommitSettings {
  const raw = env.TANDEM_GROUP_COMMIT?.trim().toLowerCase();
  let enabled = GROUP_COMMIT_DEFAULTS.enabled;
  if (raw && ["1", "on", "true", "yes"].includes(raw)) enabled = true;
  else if (raw && ["0", "off", "false", "no"].includes(raw)) enabled = false;
  else if (raw) throw new DatabaseConfigError(`TANDEM_GROUP_COMMIT must be 1/on or 0/off; got "${raw}".`);
  return {
    enabled,
    maxInFlight: positiveInteger(env, "TANDEM_GROUP_COMMIT_IN_FLIGHT", GROUP_COMMIT_DEFAULTS.maxInFlight),
    maxParts: positiveInteger(env, "TANDEM_GROUP_COMMIT_MAX", GROUP_COMMIT_DEFAULTS.maxParts),
  };
}

function positiveInteger(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new DatabaseConfigError(`${name} must be a positive integer; got "${raw}".`);
  return value;
}

/** A URL safe to print: the password, if any, is replaced. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@");
}

export function describeDatabase(config: DatabaseConfig): string {
  if (config.kind === "postgres") return `Postgres at ${redactUrl(config.url)}`;
  return config.dataDir ? `embedded PGlite in ${config.dataDir}` : "embedded PGlite in memory";
}
