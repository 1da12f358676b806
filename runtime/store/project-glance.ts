// Every project's activity at a glance, for the home page's list (`GET /api/projects`): its runs
// (root threads) — how many, and the latest one — and its tool calls waiting for approval. Two
// grouped queries for the whole list, whatever its length.
import type { SqlExecutor } from "@/lib/db/sql-client";

export interface ProjectGlance {
  runs: number;
  last_run: { id: string; created_at: number; status: string } | null;
  pending_approvals: number;
}

export const NO_ACTIVITY: ProjectGlance = { runs: 0, last_run: null, pending_approvals: 0 };

/** Per project id; a project with no run and nothing pending is absent (NO_ACTIVITY). */
export async function projectGlances(db: SqlExecutor): Promise<Map<string, ProjectGlance>> {
  const [runs, approvals] = await Promise.all([
    db.query<Record<string, unknown>>(
      `SELECT DISTINCT ON (project_id) project_id, id, created_at, status,
              count(*) OVER (PARTITION BY project_id)::int AS runs
         FROM threads WHERE parent_id IS NULL
        ORDER BY project_id, created_at DESC, id DESC`,
    ),
    db.query<Record<string, unknown>>(
      `SELECT project_id, count(*)::int AS pending FROM tool_approvals
        WHERE state = 'pending' GROUP BY project_id`,
    ),
  ]);
  const glances = new Map<string, ProjectGlance>();
  for (const row of runs)
    glances.set(String(row.project_id), {
      runs: Number(row.runs),
      last_run: { id: String(row.id), created_at: Number(row.created_at), status: String(row.status) },
      pending_approvals: 0,
    });
  for (const row of approvals) {
    const id = String(row.project_id);
    glances.set(id, { ...(glances.get(id) ?? NO_ACTIVITY), pending_approvals: Number(row.pending) });
  }
  return glances;
}
