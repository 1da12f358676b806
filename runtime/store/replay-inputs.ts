// A replay's inputs (docs/runtime.md "Replay"): the source root's external inputs (what the API
// posted: a person's messages, a client's), grouped as the source consumed them, are posted to the
// replay root one group at a time, each once the whole replayed tree is quiet — no thread queued,
// running, leased, waiting for an approval or with input waiting — as the person posted the next
// message once the agent had answered. Called from every park of a replayed thread, in the park's
// transaction: the root's thread_replays row is locked first, so of two threads parking at once the
// later one sees the earlier one's park and posts. Once every group is posted and the tree is quiet,
// the replay is finished (finished_at).

import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { type InboxMessagePayload, InboxMessagePayloadSchema } from "./inbox-item";
import { queueThreadInput } from "./queue-input";
import { nowMicroseconds } from "./thread-row";
import { lockThread } from "./thread-store";

/** An input to post again: the source's payload without its message id (each post gets a new one). */
export const ReplayInputSchema = InboxMessagePayloadSchema.omit({ messageId: true });
export type ReplayInput = z.infer<typeof ReplayInputSchema>;
const ReplayInputsSchema = z.array(z.array(ReplayInputSchema));

/** The source root's external inputs, grouped by the drain that consumed them, in order. */
export async function externalInputsOf(db: SqlExecutor, sourceId: string): Promise<ReplayInput[][]> {
  const rows = await db.query<{ payload: unknown; consumed_at: string | number }>(
    `SELECT payload, consumed_at FROM inbox_items
      WHERE thread_id = $1 AND consumed_at IS NOT NULL
        AND (payload->>'external' = 'true' OR payload->>'fromHuman' = 'true')
      ORDER BY seq`,
    [sourceId],
  );
  const groups: ReplayInput[][] = [];
  let last: number | null = null;
  for (const row of rows) {
    const payload = ReplayInputSchema.parse(
      typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload,
    );
    const consumedAt = Number(row.consumed_at);
    if (consumedAt === last) groups.at(-1)!.push(payload);
    else groups.push([payload]);
    last = consumedAt;
  }
  return groups;
}

/** Whether any thread of the tree still has work: queued, running, leased, waiting or with input waiting. */
async function treeBusy(tx: SqlExecutor, rootId: string): Promise<boolean> {
  const rows = await tx.query(
    `SELECT 1 FROM threads t
      WHERE t.root_id = $1 AND t.terminated_at IS NULL
        AND (t.runnable OR t.lease_owner IS NOT NULL OR t.status IN ('queued', 'running', 'waiting_approval')
             OR EXISTS (SELECT 1 FROM inbox_items i WHERE i.thread_id = t.id AND i.consumed_at IS NULL))
      LIMIT 1`,
    [rootId],
  );
  return rows.length > 0;
}

/**
 * After a replayed thread parked: posts the root's next input group when the tree is quiet, or marks
 * the replay finished when none is left. A child's park looks at the root first without a lock and
 * leaves it to the root's own park when the root still has work (the usual case: a report woke it).
 */
export async function advanceReplay(tx: SqlExecutor, rootId: string, parkedId: string): Promise<void> {
  if (parkedId !== rootId) {
    const [root] = await tx.query<{ busy: boolean }>(
      `SELECT (runnable OR lease_owner IS NOT NULL OR status IN ('queued', 'running')
               OR EXISTS (SELECT 1 FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL)) AS busy
         FROM threads WHERE id = $1`,
      [rootId],
    );
    if (!root || root.busy) return;
  }
  const [replay] = await tx.query<{ inputs: unknown; inputs_posted: number; finished_at: unknown }>(
    "SELECT inputs, inputs_posted, finished_at FROM thread_replays WHERE thread_id = $1 FOR UPDATE",
    [rootId],
  );
  if (!replay || replay.finished_at !== null) return;
  if (await treeBusy(tx, rootId)) return;
  const groups = ReplayInputsSchema.parse(
    typeof replay.inputs === "string" ? JSON.parse(replay.inputs) : replay.inputs,
  );
  const posted = Number(replay.inputs_posted);
  const root = await lockThread(tx, rootId);
  const next = groups[posted];
  if (!root || root.terminated_at !== null || root.user_stopped || !next) {
    await tx.query("UPDATE thread_replays SET finished_at = $2 WHERE thread_id = $1", [
      rootId,
      nowMicroseconds(),
    ]);
    return;
  }
  for (const input of next) await queueThreadInput(tx, root, replayPayload(input));
  await tx.query("UPDATE thread_replays SET inputs_posted = inputs_posted + 1 WHERE thread_id = $1", [
    rootId,
  ]);
}

/** The payload to queue for a recorded input: the same message under a new id. */
export function replayPayload(input: ReplayInput): InboxMessagePayload {
  return { ...input, messageId: randomUUID() };
}
