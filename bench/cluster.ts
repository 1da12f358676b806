// The private Postgres cluster a benchmark run uses: started with fsync ON through
// scripts/postgres-cluster.sh in a fresh temporary folder on a free port, stopped (and its folder
// removed) at the end of the run, also when the run fails or is interrupted.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { postgresConnection } from "@/lib/db/config";
import { processTreeCpuMs } from "./cpu";

const SCRIPT = path.resolve(import.meta.dirname, "../scripts/postgres-cluster.sh");

export interface Cluster {
  readonly port: number;
  readonly dataDir: string;
  /** How clients reach the cluster: its Unix socket (the default, as psql does) or TCP on 127.0.0.1. */
  readonly transport: BenchTransport;
  /** Connection URL of a database on this cluster (over `transport`). */
  urlFor(database: string): string;
  /** A raw postgres.js client of a database on this cluster (over `transport`). */
  connect(database: string, options: postgres.Options<Record<string, never>>): postgres.Sql;
  /** CREATE DATABASE (optionally cloned from a template database). */
  createDatabase(name: string, template?: string): Promise<void>;
  /** The server's version string and the settings that matter for write latency. */
  describe(): Promise<ClusterDescription>;
  /** Total CPU time (user + system, ms) of every process of the cluster so far. */
  cpuMs(): number;
  stop(): void;
}

export type BenchTransport = "socket" | "tcp";

/** BENCH_TRANSPORT=tcp: every client of the run connects over TCP instead of the Unix socket. */
export function benchTransport(env: Record<string, string | undefined> = process.env): BenchTransport {
  return env.BENCH_TRANSPORT?.trim().toLowerCase() === "tcp" ? "tcp" : "socket";
}

export interface ClusterDescription {
  version: string;
  settings: Record<string, string>;
}

const REPORTED_SETTINGS = [
  "fsync",
  "synchronous_commit",
  "wal_sync_method",
  "full_page_writes",
  "shared_buffers",
  "max_connections",
  "wal_level",
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startCluster(): Promise<Cluster> {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "tandem-bench-"));
  // The postgres user must be able to reach the cluster folder inside it.
  fs.chmodSync(parent, 0o755);
  const dataDir = path.join(parent, "pgdata");
  const port = await freePort();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      execFileSync(SCRIPT, ["stop", dataDir], { stdio: "ignore" });
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  };
  try {
    execFileSync(SCRIPT, ["start", dataDir, String(port)], {
      env: { ...process.env, PG_FSYNC: "on" },
      stdio: ["ignore", "ignore", "inherit"],
    });
  } catch (error) {
    stop();
    throw error;
  }
  const transport = benchTransport();
  // scripts/postgres-cluster.sh puts the socket in the data folder (-k).
  const urlFor = (database: string) =>
    transport === "tcp"
      ? `postgresql://postgres@127.0.0.1:${port}/${database}`
      : `postgresql://postgres@localhost:${port}/${database}?host=${encodeURIComponent(dataDir)}`;
  const connect = (database: string, options: postgres.Options<Record<string, never>>) => {
    const connection = postgresConnection(urlFor(database));
    return postgres(connection.url, { ...options, ...(connection.path ? { path: connection.path } : {}) });
  };
  const admin = async <T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
    const sql = connect("postgres", { max: 1, onnotice: () => {} });
    try {
      return await work(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  const postmasterPid = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  return {
    port,
    dataDir,
    transport,
    urlFor,
    connect,
    createDatabase: (name, template) =>
      admin(async (sql) => {
        await sql.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
      }),
    describe: () =>
      admin(async (sql) => {
        const [{ server_version: version }] = (await sql.unsafe("SHOW server_version")) as unknown as [
          { server_version: string },
        ];
        const rows = (await sql.unsafe("SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1)", [
          REPORTED_SETTINGS,
        ])) as unknown as { name: string; setting: string; unit: string | null }[];
        const settings: Record<string, string> = {};
        for (const name of REPORTED_SETTINGS) {
          const row = rows.find((candidate) => candidate.name === name);
          if (row) settings[name] = formatSetting(row.setting, row.unit);
        }
        return { version: version ?? "unknown", settings };
      }),
    cpuMs: () => processTreeCpuMs(postmasterPid),
    stop,
  };
}

function formatSetting(setting: string, unit: string | null): string {
  if (unit === "8kB") return `${(Number(setting) * 8) / 1024} MiB`;
  return unit ? `${setting} ${unit}` : setting;
}
