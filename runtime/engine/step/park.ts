// Parking a thread at the end of its run: the changes of the step's last commit, the lease
// released, runnable again only if input waits. A child's session end carries its report to the
// parent in the same commit (spec §7.10): `reportToParent` in runtime/subagents/report-to-parent.ts.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { crashPoint } from "../../faults";
import { appendEvents, type NewEvent } from "../../store/event-log";
import type { Side } from "../../store/messages";
import { advanceReplay } from "../../store/replay-inputs";
import { telemetryEvent, threadEvent } from "../../store/thread-events";
import { applyLocked, isSessionEnded, type ParkTransition, parkStatus } from "../../store/thread-lifecycle";
import type { ThreadRow } from "../../store/thread-row";
import { type ThreadChanges, updateLockedThread } from "../../store/thread-store";
import { childOutcomeOf, reportToParent } from "../../subagents/report-to-parent";
import type { RunnerContext } from "./types";

/**
 * Parks the thread: applies the changes (with `transition`, or keeping its status when null), releases
 * the lease, stays runnable only if input waits.
 */
export async function parkThread(
  ctx: RunnerContext,
  tx: SqlExecutor,
  row: ThreadRow,
  transition: ParkTransition | null,
  changes: ThreadChanges,
  {
    events = [],
    side,
    reportedAttachments = [],
  }: {
    /** Events committed with the park (the step's telemetry). */
    events?: NewEvent[];
    /** The side whose step ended the session (named in the "stopped" event). */
    side?: Side;
    /** Files a child's report carries to its parent. */
    reportedAttachments?: readonly string[];
  } = {},
): Promise<void> {
  // A child's session end and its report to the parent commit together (spec §7.10).
  const status = transition ? parkStatus(transition) : null;
  const outcome =
    row.parent_id && status
      ? childOutcomeOf(status, {
          result: changes.result ?? null,
          failure: changes.failure ?? null,
          stopReason: changes.stopReason ?? null,
        })
      : null;
  const oneOff = outcome && reportedAttachments.length === 0 ? ctx.memory.oneOffRoute(row.id) : null;
  // A user stop parks queued input until the next human message (which marks the thread runnable).
  // A one-off child can get no input but its spawn's, and no report (it has no children).
  const all = ctx.commits.withMessageSeq(row.id, {
    ...changes,
    runnable: row.user_stopped || oneOff ? false : "if_input",
    releaseLease: true,
  });
  const updated = transition
    ? await applyLocked(tx, row, transition, all)
    : await updateLockedThread(tx, row, all);
  rememberParkedAs(ctx, updated);
  const ended = status !== null && isSessionEnded(status);
  const stopped =
    ended && status !== row.status
      ? [telemetryEvent(row, { type: "stopped", reason: changes.stopReason ?? status, side: side ?? null })]
      : [];
  if (ended) {
    crashPoint("before_terminal_commit", row.agent_name);
    ctx.memory.endedSessions.set(row.id, row.agent_name);
  }
  // Where the child's report reaches its parent: runtime/subagents/report-to-parent.ts.
  const report = outcome
    ? await reportToParent(tx, row, outcome, {
        wake: "after_commit",
        attachmentPaths: reportedAttachments,
        oneOff,
      })
    : null;
  for (const parentId of report?.wakeAfterCommit ?? []) ctx.commits.wakeParentAfterCommit(parentId);
  await appendEvents(tx, [...events, ...stopped, threadEvent(updated), ...(report?.events ?? [])]);
  // A replayed tree gets its next recorded input once it is quiet (runtime/store/replay-inputs.ts).
  if (row.execution.replayOf) await advanceReplay(tx, row.root_id, row.id);
}

/** How the thread parked, remembered with the cache kept for its next run here (StepRunner.runStep). */
function rememberParkedAs(ctx: RunnerContext, updated: ThreadRow): void {
  const cache = ctx.memory.peek(updated.id);
  if (cache)
    cache.parkedAs = {
      projectId: updated.project_id,
      rootId: updated.root_id,
      projectVersion: updated.project_version,
      agentName: updated.agent_name,
    };
}
