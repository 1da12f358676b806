// The status of a child's registry entry (`subagents.status`, spec §7.11): `running` while it works,
// the child's own status text while it says one, its session's outcome once it reported. Changed
// only by the named transitions of REGISTRY_STATUS, here: scripts/thread-status-writes.test.ts fails
// on any other writer. `terminated` is final: no transition leaves it.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { statusTable } from "./status-table";

const FINAL = ["terminated"];

export const REGISTRY_STATUS = statusTable("subagents.status", {
  spawn: {
    from: [],
    to: ["running"],
    callers: "spawnChildren (subagents/spawn-child: insertLinks)",
  },
  copy: {
    from: [],
    to: ["*"],
    callers: "forkSubtree (services/fork-subtree: a copy keeps its source's status)",
  },
  showStatusText: {
    from: { anyBut: FINAL },
    to: ["*"],
    callers: "a child's step (engine/thread-state, step/tool-calls, step/reply-commit: setLinkStatus)",
  },
  deliver: {
    from: { anyBut: FINAL },
    to: ["running"],
    callers: "deliverToChild (subagents/deliver-to-child: a parent's subagent_message)",
  },
  report: {
    from: { anyBut: FINAL },
    to: ["completed", "failed", "stopped", "terminated"],
    callers: "reportToParent (subagents/report-to-parent: the child's session ended)",
  },
});

export type RegistryTransition = "showStatusText" | "deliver" | "report";

/**
 * Applies `transition` to the registry entry of `childId`, writing `status` (deferred: it goes out
 * with the transaction's next statement). A status the transition may not write throws
 * StatusTransitionRefusedError; an entry in a status it does not leave from is left as it is.
 */
export async function setRegistryStatus(
  tx: SqlExecutor,
  change: { childId: string; transition: RegistryTransition; status: string; now: number },
): Promise<void> {
  const status = REGISTRY_STATUS.target(change.transition, change.status);
  await tx.defer(
    `UPDATE subagents SET status = $2, updated_at = $3 WHERE child_id = $1 AND ${REGISTRY_STATUS.fromSql(change.transition)}`,
    [change.childId, status, change.now],
  );
}

/** `showStatusText`: the child's own status text (or `running`) on its entry. */
export function setLinkStatus(tx: SqlExecutor, childId: string, status: string, now: number): Promise<void> {
  return setRegistryStatus(tx, { childId, transition: "showStatusText", status, now });
}
