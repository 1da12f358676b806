// The status of a subagent invocation (`subagent_invocations.status`): `pending` from the spawn or
// subagent_message that opened it until the child's session ends, then that session's outcome,
// exactly once (`finished_at` is set with it). Changed only by the named transitions of
// INVOCATION_STATUS, here, and the settling UPDATE is written once (`settleStatement`):
// scripts/thread-status-writes.test.ts fails on any other writer.
import type { SqlExecutor, SqlParameter } from "@/lib/db/sql-client";
import { statusTable } from "./status-table";

export const INVOCATION_STATUS = statusTable("subagent_invocations.status", {
  open: {
    from: [],
    to: ["pending"],
    callers: "spawnChildren, deliverToChild (insertInvocations)",
  },
  copy: {
    from: [],
    to: ["pending", "completed", "failed", "stopped", "terminated"],
    callers: "forkSubtree (services/fork-subtree: a copy keeps its source's status)",
  },
  settle: {
    from: ["pending"],
    to: ["completed", "failed", "stopped", "terminated"],
    callers:
      "reportToParent (subagents/report-to-parent): the child's open invocations, or a one-off child's one",
  },
});

export type InvocationOutcome = "completed" | "failed" | "stopped" | "terminated";

/** What a settled invocation answers: its status, the report's text and attachments. */
export interface InvocationSettlement {
  status: InvocationOutcome;
  result: string;
  attachments: unknown[];
  now: number;
}

/**
 * The one UPDATE that settles invocations (`settle`): those of `which` still open, with $2..$5 the
 * settlement (status, result, attachments, finished_at). `which` is SQL over the alias `i`.
 */
function settleStatement(which: string, returning = ""): string {
  return `UPDATE subagent_invocations i SET status = $2, result = $3, attachments = $4::text::jsonb, finished_at = $5
     WHERE ${which} AND i.finished_at IS NULL AND ${INVOCATION_STATUS.fromSql("settle", "i.status")}${returning}`;
}

function settlementParams(settlement: InvocationSettlement): SqlParameter[] {
  return [
    INVOCATION_STATUS.target("settle", settlement.status),
    settlement.result,
    JSON.stringify(settlement.attachments),
    settlement.now,
  ];
}

/**
 * `settle` for the child's open invocations whose input it has taken in (a subagent_message still
 * waiting in its inbox belongs to the next session, unless `all`); returns the rows this call ended.
 */
export function settleOpenInvocations<Row>(
  tx: SqlExecutor,
  childId: string,
  settlement: InvocationSettlement,
  options: { all: boolean; returning: string },
): Promise<Row[]> {
  return tx.query<Row>(
    settleStatement(
      `i.child_id = $1
       AND ($6 OR NOT EXISTS (
         SELECT 1 FROM inbox_items b
         WHERE b.idempotency_key = 'subagent-message:' || i.parent_id || ':' || i.call_id AND b.consumed_at IS NULL))`,
      ` RETURNING ${options.returning}`,
    ),
    [childId, ...settlementParams(settlement), options.all],
  );
}

/** `settle` for one invocation (a one-off child's), deferred: it commits with the child's last step. */
export async function settleInvocation(
  tx: SqlExecutor,
  invocationId: string,
  settlement: InvocationSettlement,
): Promise<void> {
  await tx.defer(settleStatement("i.id = $1"), [invocationId, ...settlementParams(settlement)]);
}
