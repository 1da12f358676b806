// A project's row as the runtime reads it: whether the project exists, and which version of it new
// threads are pinned to (`projects.current_version`), remembered per process so that creating a
// thread need not read it first: the creation carries a check of the version it used
// (`projectVersionCheck`), and a creation whose remembered version is no longer current (a publish
// by any process, a deleted project) fails that check, forgets it and goes again with the version
// read afresh (ThreadService.create).
import type { SqlExecutor, SqlStatement } from "@/lib/db/sql-client";

export async function projectExists(db: SqlExecutor, projectId: string): Promise<boolean> {
  return (await db.query<{ id: string }>("SELECT id FROM projects WHERE id = $1", [projectId])).length > 0;
}

/** The project's latest saved version; null when there is no such project. */
export async function currentProjectVersion(db: SqlExecutor, projectId: string): Promise<number | null> {
  const [row] = await db.query<{ current_version: number }>(
    "SELECT current_version FROM projects WHERE id = $1",
    [projectId],
  );
  return row ? Number(row.current_version) : null;
}

/** The message of the error `projectVersionCheck` raises (its SQLSTATE is plpgsql's P0001). */
export const PROJECT_VERSION_CHANGED_MESSAGE = "tandem:project_version_changed";

/** How many projects' versions a process remembers (cleared when full: a cache, not a record). */
const REMEMBERED_PROJECTS = 1_024;

export class ProjectVersions {
  private readonly known = new Map<string, number>();
  /** Reads in flight, one per project: a burst of creations for a project nobody read yet shares one. */
  private readonly reading = new Map<string, { promise: Promise<number | null> }>();

  /** The version last read for the project, if any (it may have changed since). */
  remembered(projectId: string): number | undefined {
    return this.known.get(projectId);
  }

  /**
   * The project's current version read from the database (null: no such project), remembered. A
   * read already in flight for the project is shared unless `forget` was called since it started.
   */
  read(db: SqlExecutor, projectId: string): Promise<number | null> {
    const inFlight = this.reading.get(projectId);
    if (inFlight) return inFlight.promise;
    const read = { promise: Promise.resolve<number | null>(null) };
    read.promise = this.readNow(db, projectId, read).finally(() => {
      if (this.reading.get(projectId) === read) this.reading.delete(projectId);
    });
    this.reading.set(projectId, read);
    return read.promise;
  }

  forget(projectId: string): void {
    this.known.delete(projectId);
    this.reading.delete(projectId);
  }

  private async readNow(db: SqlExecutor, projectId: string, read: object): Promise<number | null> {
    const version = await currentProjectVersion(db, projectId);
    // Forgotten while it was read (a creation found the version changed): it may be older than
    // what a fresh read gives, so only its caller uses it.
    const current = this.reading.get(projectId) === read;
    if (version === null) {
      if (current) this.known.delete(projectId);
      return null;
    }
    if (!current) return version;
    if (this.known.size >= REMEMBERED_PROJECTS && !this.known.has(projectId)) this.known.clear();
    this.known.set(projectId, version);
    return version;
  }
}

/**
 * A check (first in a LazyTransaction) that raises, failing the whole transaction, unless `version`
 * is still the project's current version (it raises too when the project is gone).
 */
export function projectVersionCheck(projectId: string, version: number): SqlStatement {
  return {
    text: `SELECT tandem_expect(
       (SELECT current_version FROM projects WHERE id = $1::uuid) IS NOT DISTINCT FROM $2::int,
       '${PROJECT_VERSION_CHANGED_MESSAGE} ' || $1)`,
    params: [projectId, version],
  };
}

export function isProjectVersionChangedError(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.startsWith(PROJECT_VERSION_CHANGED_MESSAGE);
}
