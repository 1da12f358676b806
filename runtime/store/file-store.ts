// The per-thread filesystem (spec Threads: File System), stored in Postgres. Paths are normalised
// and can never leave the thread's own tree.
import type { FileRecord } from "@/lib/contracts/thread-files";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { normaliseThreadPath } from "./thread-paths";
import { nowMicroseconds } from "./thread-row";

export type { FileRecord };

const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

const parseMetadata = (value: unknown) =>
  ((typeof value === "string" ? JSON.parse(value) : value) ?? {}) as Record<string, unknown>;

export async function writeThreadFile(
  db: SqlExecutor,
  threadId: string,
  rawPath: string,
  data: Uint8Array,
  mimeType: string,
  metadata: Record<string, unknown> = {},
): Promise<FileRecord> {
  const path = normaliseThreadPath(rawPath);
  const now = nowMicroseconds();
  await db.query(
    `INSERT INTO thread_files (thread_id, path, mime_type, size, data, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7, $7)
     ON CONFLICT (thread_id, path) DO UPDATE
       SET mime_type = EXCLUDED.mime_type, size = EXCLUDED.size, data = EXCLUDED.data,
           metadata = EXCLUDED.metadata, updated_at = EXCLUDED.updated_at`,
    [threadId, path, mimeType, data.byteLength, data, JSON.stringify(metadata), now],
  );
  return { path, name: nameOf(path), mimeType, size: data.byteLength, isDirectory: false, metadata };
}

/**
 * Writes a new file, never replacing one: returns null when the path is taken by a file or by a
 * directory (a file below it). Attachments use it to find a free name.
 */
export async function createThreadFile(
  db: SqlExecutor,
  threadId: string,
  rawPath: string,
  data: Uint8Array,
  mimeType: string,
  metadata: Record<string, unknown> = {},
): Promise<FileRecord | null> {
  const path = normaliseThreadPath(rawPath);
  const now = nowMicroseconds();
  const rows = await db.query(
    `INSERT INTO thread_files (thread_id, path, mime_type, size, data, metadata, created_at, updated_at)
     SELECT $1::uuid, $2::text, $3::text, $4::int, $5::bytea, $6::text::jsonb, $7::bigint, $7::bigint
     WHERE NOT EXISTS (
       SELECT 1 FROM thread_files WHERE thread_id = $1::uuid AND starts_with(path, $2::text || '/'))
     ON CONFLICT (thread_id, path) DO NOTHING
     RETURNING path`,
    [threadId, path, mimeType, data.byteLength, data, JSON.stringify(metadata), now],
  );
  if (rows.length === 0) return null;
  return { path, name: nameOf(path), mimeType, size: data.byteLength, isDirectory: false, metadata };
}

/** The record of one file without its bytes; null when there is no file at that path. */
export async function statThreadFile(
  db: SqlExecutor,
  threadId: string,
  rawPath: string,
): Promise<FileRecord | null> {
  const path = normaliseThreadPath(rawPath);
  const rows = await db.query<{ mime_type: string; size: number; metadata: unknown }>(
    "SELECT mime_type, size, metadata FROM thread_files WHERE thread_id = $1 AND path = $2",
    [threadId, path],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    path,
    name: nameOf(path),
    mimeType: row.mime_type,
    size: Number(row.size),
    isDirectory: false,
    metadata: parseMetadata(row.metadata),
  };
}

export async function readThreadFile(
  db: SqlExecutor,
  threadId: string,
  rawPath: string,
): Promise<{ record: FileRecord; data: Uint8Array } | null> {
  const path = normaliseThreadPath(rawPath);
  const rows = await db.query<{ mime_type: string; size: number; data: Uint8Array; metadata: unknown }>(
    "SELECT mime_type, size, data, metadata FROM thread_files WHERE thread_id = $1 AND path = $2",
    [threadId, path],
  );
  const row = rows[0];
  if (!row) return null;
  const metadata = (typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata) as Record<
    string,
    unknown
  >;
  return {
    record: {
      path,
      name: nameOf(path),
      mimeType: row.mime_type,
      size: Number(row.size),
      isDirectory: false,
      metadata,
    },
    data: new Uint8Array(row.data),
  };
}

/** Lists the direct children of a directory; directories are implied by file paths. */
export async function listThreadFiles(
  db: SqlExecutor,
  threadId: string,
  rawDirectory = "/",
): Promise<FileRecord[]> {
  const directory = normaliseThreadPath(rawDirectory);
  const prefix = directory === "/" ? "/" : `${directory}/`;
  const rows = await db.query<{ path: string; mime_type: string; size: number; metadata: unknown }>(
    "SELECT path, mime_type, size, metadata FROM thread_files WHERE thread_id = $1 AND starts_with(path, $2) ORDER BY path",
    [threadId, prefix],
  );
  const entries = new Map<string, FileRecord>();
  for (const row of rows) {
    const rest = row.path.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash === -1) {
      const metadata = (typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata) as Record<
        string,
        unknown
      >;
      entries.set(row.path, {
        path: row.path,
        name: rest,
        mimeType: row.mime_type,
        size: Number(row.size),
        isDirectory: false,
        metadata,
      });
    } else {
      const path = `${prefix}${rest.slice(0, slash)}`;
      if (!entries.has(path)) {
        entries.set(path, {
          path,
          name: rest.slice(0, slash),
          mimeType: "inode/directory",
          size: 0,
          isDirectory: true,
          metadata: {},
        });
      }
    }
  }
  return [...entries.values()];
}

export async function deleteThreadFile(db: SqlExecutor, threadId: string, rawPath: string): Promise<boolean> {
  const path = normaliseThreadPath(rawPath);
  const rows = await db.query("DELETE FROM thread_files WHERE thread_id = $1 AND path = $2 RETURNING path", [
    threadId,
    path,
  ]);
  return rows.length > 0;
}

export async function grepThreadFiles(
  db: SqlExecutor,
  threadId: string,
  pattern: string,
): Promise<{ path: string; matches: string[]; lineNumbers: number[] }[]> {
  const rows = await db.query<{ path: string; data: Uint8Array }>(
    "SELECT path, data FROM thread_files WHERE thread_id = $1 AND (mime_type LIKE 'text/%' OR mime_type = 'application/json') ORDER BY path",
    [threadId],
  );
  const results: { path: string; matches: string[]; lineNumbers: number[] }[] = [];
  for (const row of rows) {
    const lines = Buffer.from(row.data).toString("utf8").split("\n");
    const hits = lines.flatMap((line, index) => (line.includes(pattern) ? [{ line, index: index + 1 }] : []));
    if (hits.length > 0)
      results.push({
        path: row.path,
        matches: hits.map((hit) => hit.line),
        lineNumbers: hits.map((hit) => hit.index),
      });
  }
  return results;
}

/**
 * Copies every file of one thread into another (a fork), in one statement; the copies keep their
 * metadata and creation time. Returns how many were copied.
 */
export async function copyThreadFiles(
  tx: SqlExecutor,
  fromThreadId: string,
  toThreadId: string,
): Promise<number> {
  const rows = await tx.query(
    `INSERT INTO thread_files (thread_id, path, mime_type, size, data, metadata, created_at, updated_at)
     SELECT $2::uuid, path, mime_type, size, data, metadata, created_at, $3::bigint FROM thread_files WHERE thread_id = $1::uuid
     RETURNING path`,
    [fromThreadId, toThreadId, nowMicroseconds()],
  );
  return rows.length;
}

/** Copies the files of several threads at once (a fork's subagent copies): `[from, to]` pairs. */
export async function copyFilesOfThreads(
  tx: SqlExecutor,
  pairs: readonly (readonly [from: string, to: string])[],
): Promise<number> {
  if (pairs.length === 0) return 0;
  const rows = await tx.query(
    `INSERT INTO thread_files (thread_id, path, mime_type, size, data, metadata, created_at, updated_at)
     SELECT m.to_id, f.path, f.mime_type, f.size, f.data, f.metadata, f.created_at, $3::bigint
     FROM thread_files f JOIN unnest($1::uuid[], $2::uuid[]) AS m(from_id, to_id) ON f.thread_id = m.from_id
     RETURNING path`,
    [pairs.map(([from]) => from), pairs.map(([, to]) => to), nowMicroseconds()],
  );
  return rows.length;
}
