// Rows for database-layer tests that need a project and threads to reference (foreign keys), made
// through the runtime's own insert.
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "../../lib/db/sql-client";
import { initialExecutionState } from "../../runtime/store/messages";
import { createThread } from "../../runtime/store/thread-lifecycle";
import type { NewThread } from "../../runtime/store/thread-store";

export async function insertTestProject(db: SqlExecutor): Promise<string> {
  const projectId = randomUUID();
  await db.query("INSERT INTO projects (id, name, current_version) VALUES ($1, 'p', 1)", [projectId]);
  return projectId;
}

/** A new root thread of agent "agent" (the fields `createThread` and `spawnThreads` take). */
export function newRootThread(id: string, projectId: string): NewThread {
  return {
    id,
    projectId,
    projectVersion: 1,
    agentName: "agent",
    parentId: null,
    rootId: id,
    depth: 0,
    name: null,
    execution: initialExecutionState(),
    env: {},
  };
}

/** An idle root thread of agent "agent" in the project; returns its id. */
export async function insertTestThread(db: SqlExecutor, projectId: string): Promise<string> {
  const id = randomUUID();
  await createThread(db, newRootThread(id, projectId), false);
  return id;
}
