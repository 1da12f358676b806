// A project's threads right now, for `GET /api/projects/:id/activity`: how many threads each agent
// has in each status, and for the running ones, the version they are pinned to and their current
// side. One grouped statement, so the counts and the running threads' sides come from the same
// snapshot (two statements could see a thread idle in one and running in the next).
import type { SqlExecutor } from "@/lib/db/sql-client";

export interface ThreadActivityRow {
  agent_name: string;
  status: string;
  /** Only for running threads (null otherwise): the version its definitions come from. */
  project_version: number | null;
  /** Only for running threads: `execution.currentSide` ("a", "b" or null). */
  side: string | null;
  n: number;
}

export async function threadActivityRows(db: SqlExecutor, projectId: string): Promise<ThreadActivityRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT agent_name, status,
            CASE WHEN status = 'running' THEN project_version END AS project_version,
            CASE WHEN status = 'running' THEN execution->>'currentSide' END AS side,
            count(*)::int AS n
       FROM threads WHERE project_id = $1
      GROUP BY 1, 2, 3, 4`,
    [projectId],
  );
  return rows.map((row) => ({
    agent_name: String(row.agent_name),
    status: String(row.status),
    project_version: row.project_version === null ? null : Number(row.project_version),
    side: row.side === null || row.side === undefined ? null : String(row.side),
    n: Number(row.n),
  }));
}
