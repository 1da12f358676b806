// Opens Tandem's database (embedded PGlite or a Postgres server), applies pending migrations, and
// hands out one process-wide handle: Prisma for CRUD, a SQL client for the runtime, notifications.
import "server-only";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import postgres from "postgres";
import { connectCoalescingSocket } from "./coalescing-socket";
import {
  type DatabaseConfig,
  describeDatabase,
  groupCommitSettings,
  postgresConnection,
  resolveDatabaseConfig,
} from "./config";
import { PrismaClient } from "./generated/prisma/client";
import { applyMigrations } from "./migrations";
import {
  type NotificationBus,
  notificationBusFromPGlite,
  notificationBusFromPostgres,
} from "./notifications";
import { type SqlClient, sqlClientFromPGlite, sqlClientFromPostgres } from "./sql-client";

export interface Database {
  readonly config: DatabaseConfig;
  readonly prisma: PrismaClient;
  readonly sql: SqlClient;
  /**
   * The scheduler's own small pool (SCHEDULER_CONNECTIONS) on a Postgres server, for its claims
   * and lease renewals: they never queue for a connection behind request traffic and step commits
   * (a burst of 100 messages made the claim that starts their steps wait for all 100 posts). The
   * same client as `sql` on PGlite (one connection).
   */
  readonly schedulerSql: SqlClient;
  readonly notifications: NotificationBus;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Apply pending migrations on open (default true; idempotent and guarded by an advisory lock). */
  migrate?: boolean;
  /** Pool size for a Postgres server (default 10). */
  maxConnections?: number;
  /** Group commit on a Postgres server (default: TANDEM_GROUP_COMMIT, see `groupCommitEnabled`). */
  groupCommit?: boolean;
}

/** postgres.js's `max_pipeline` for groups of up to `maxParts` commits (never below its default, 100). */
export function pipelineFor(maxParts: number): number {
  return Math.max(100, maxParts * 3 + 2);
}

/** Connections of the scheduler's own pool (`Database.schedulerSql`): a claim and a renewal at once. */
export const SCHEDULER_CONNECTIONS = 2;

export async function openDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const database = config.kind === "postgres" ? openPostgres(config, options) : await openPGlite(config);
  if (options.migrate ?? true) await applyMigrations(database.sql);
  return database;
}

function openPostgres(
  config: Extract<DatabaseConfig, { kind: "postgres" }>,
  options: OpenDatabaseOptions,
): Database {
  const connection = postgresConnection(config.url);
  const settings = groupCommitSettings(process.env);
  const groupCommit = { ...settings, enabled: options.groupCommit ?? settings.enabled };
  // postgres.js reads the server's array types on every connection it opens (15–25 ms of server
  // CPU each, docs/benchmarks.md). Turning that off (`fetch_types: false`, also only after a pool's
  // first connection) makes a transaction that opens a connection hang: postgres.js 3.4.9 never
  // hands that connection to its `reserve()` (porsager/postgres#751, #1219), so it stays on.
  const pool = (max: number) =>
    postgres(connection.url, {
      ...(connection.path ? { path: connection.path } : {}),
      max,
      onnotice: () => {},
      // Not in postgres.js's types: a factory for the connection's socket (documented), and
      // `max_pipeline`, the statements a connection sends before it waits for answers (read by its
      // option parser, default 100; past it, the rest go one per answer): a group commit's BEGIN,
      // each part's statement, its checks when they are not locked ahead and its read, and COMMIT
      // must all fit (`pipelineFor`).
      ...({
        socket: connectCoalescingSocket,
        max_pipeline: pipelineFor(groupCommit.maxParts),
      } as Record<string, unknown>),
    });
  const sql = pool(options.maxConnections ?? 10);
  const schedulerSql = pool(SCHEDULER_CONNECTIONS);
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: config.url }) });
  return {
    config,
    prisma,
    sql: sqlClientFromPostgres(sql, groupCommit),
    schedulerSql: sqlClientFromPostgres(schedulerSql),
    notifications: notificationBusFromPostgres(sql),
    async close() {
      await Promise.allSettled([
        prisma.$disconnect(),
        sql.end({ timeout: 5 }),
        schedulerSql.end({ timeout: 5 }),
      ]);
    },
  };
}

async function openPGlite(config: Extract<DatabaseConfig, { kind: "pglite" }>): Promise<Database> {
  if (config.dataDir) fs.mkdirSync(config.dataDir, { recursive: true });
  const pglite = config.dataDir ? new PGlite(config.dataDir) : new PGlite();
  await pglite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const client = sqlClientFromPGlite(pglite);
  return {
    config,
    prisma,
    sql: client,
    schedulerSql: client,
    notifications: notificationBusFromPGlite(pglite),
    async close() {
      // PGlite runs one query at a time: this barrier waits for everything already queued, since
      // closing with work in flight can leave the folder unopenable.
      await pglite.query("SELECT 1").catch(() => {});
      await prisma.$disconnect().catch(() => {});
      await pglite.close();
    },
  };
}

async function openProcessDatabase(): Promise<Database> {
  const config = resolveDatabaseConfig(process.env);
  const started = Date.now();
  const database = await openDatabase(config);
  console.log(
    `[tandem] database ready: ${describeDatabase(config)} (${Date.now() - started} ms, pid ${process.pid})`,
  );
  return database;
}

type DatabaseGlobal = typeof globalThis & { __tandemDatabase?: Promise<Database> };

/**
 * The process-wide database, opened once from the environment. Kept on globalThis so Next's dev
 * hot reload reuses it instead of opening a second PGlite on the same folder (which would fail).
 */
export function getDatabase(): Promise<Database> {
  const holder = globalThis as DatabaseGlobal;
  holder.__tandemDatabase ??= openProcessDatabase().catch((error: unknown) => {
    holder.__tandemDatabase = undefined;
    throw error;
  });
  return holder.__tandemDatabase;
}
