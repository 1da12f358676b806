// Which thread of the source tree a replayed child follows (docs/runtime.md "Replay"): the source
// parent's child spawned by the same tool call id (a replayed reply repeats the recorded call ids),
// else the source parent's next child of the same subagent tool not yet followed, in spawn order. A
// child with no counterpart (its parent diverged and spawned more) is not a replay: a real model
// answers it. The followed children get their thread_replays rows in the spawn's transaction.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { nowMicroseconds } from "./thread-row";

interface SourceChild {
  child_id: string;
  spawn_call_id: string;
  tool_name: string;
}

/** For each spawn request (its call id and tool), the source child it follows, or null. */
export async function replaySourcesOf(
  tx: SqlExecutor,
  replayParentId: string,
  sourceParentId: string,
  requests: readonly { callId: string; toolName: string }[],
): Promise<(string | null)[]> {
  const [sources, followed] = await Promise.all([
    tx.query<SourceChild>(
      "SELECT child_id, spawn_call_id, tool_name FROM subagents WHERE parent_id = $1 ORDER BY created_at, spawn_call_id",
      [sourceParentId],
    ),
    tx.query<{ source_thread_id: string }>(
      `SELECT r.source_thread_id FROM thread_replays r JOIN threads t ON t.id = r.thread_id
        WHERE t.parent_id = $1`,
      [replayParentId],
    ),
  ]);
  const used = new Set(followed.map((row) => String(row.source_thread_id)));
  return requests.map((request) => {
    const free = sources.filter((source) => !used.has(String(source.child_id)));
    const match =
      free.find((source) => source.spawn_call_id === request.callId) ??
      free.find((source) => source.tool_name === request.toolName) ??
      null;
    if (!match) return null;
    used.add(String(match.child_id));
    return String(match.child_id);
  });
}

/** The thread_replays rows of replayed children (one statement). */
export async function insertChildReplays(
  tx: SqlExecutor,
  rootId: string,
  children: readonly { childId: string; sourceId: string }[],
): Promise<void> {
  if (children.length === 0) return;
  await tx.query(
    `INSERT INTO thread_replays (thread_id, root_id, source_thread_id, created_at)
     SELECT unnest($1::uuid[]), $2::uuid, unnest($3::uuid[]), $4`,
    [
      children.map((child) => child.childId),
      rootId,
      children.map((child) => child.sourceId),
      nowMicroseconds(),
    ],
  );
}
