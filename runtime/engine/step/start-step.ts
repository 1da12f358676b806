// Step phase 1, the start: the thread read (or taken from the last commit's snapshot), then parked
// on a blocking call whose child has not reported, parked for a replay's next input, or its input
// drained into messages (drain-input). Mid-run with nothing new, no transaction runs here.
import type { StoredMessage } from "../../store/messages";
import type { ThreadRow } from "../../store/thread-row";
import { findThreadForStep } from "../../store/thread-store";
import { invocationEnded, parkOnChild } from "./blocked-call";
import { drainInput } from "./drain-input";
import { parkThread } from "./park";
import { parkForReplayInput, replayDrainPlan } from "./replay-gate";
import type { RunnerContext, StepOutcome } from "./types";

/** What the start leaves the runner: the running thread and the messages to announce, or the outcome. */
export type StepStart =
  | {
      kind: "run";
      row: ThreadRow;
      /** Messages new to after_create_message: stored with the run started, and drained now. */
      announce: StoredMessage[];
    }
  | { kind: "ended"; outcome: StepOutcome };

/** The thread ready to run its step, its input drained; or the step's outcome when it parked. */
export async function startStep(ctx: RunnerContext, threadId: string): Promise<StepStart> {
  const { commits } = ctx;
  const ended = (outcome: StepOutcome): StepStart => ({ kind: "ended", outcome });
  // Definitions are read before any transaction: on PGlite (one connection) a query outside the
  // open transaction would wait for it forever.
  const found = commits.takeSnapshot(threadId) ?? (await findThreadForStep(ctx.db, threadId));
  if (!found) return ended("terminated");
  commits.expect(found);
  const current = found.row;
  ctx.memory.restoreParked(current);
  // Messages stored with the run started (no drain): announced below like drained input.
  const createdWith = ctx.memory.takeUnannounced(threadId);
  const definitions = await ctx.deps.definitions.load(current.project_id, current.project_version);
  // Waiting for a blocking subagent call: park (input waits too) until its child reports; once it
  // has, answer the call first, before new input is drained.
  const blockedOn = current.execution.blockedOn;
  if (blockedOn && !(await invocationEnded(ctx.db, current.id, blockedOn.callId))) {
    return ended(
      await commits.commit(threadId, (tx, row) => parkOnChild(ctx, tx, row, blockedOn.callId), {
        allowUserStopped: true,
      }),
    );
  }
  // Running under this process's lease, unstopped: a step that may skip the drain's transaction.
  // The step's commit still checks lease, termination and user stop under the row lock.
  const runningHere =
    current.status === "running" &&
    !current.user_stopped &&
    current.terminated_at === null &&
    current.lease_owner === ctx.deps.leaseOwner;
  // Mid-run with no new input (the common case), there is nothing to drain: skip that transaction.
  const midRun = (!found.hasInput || blockedOn !== null) && runningHere;
  // A replayed thread drains what the source drained at this point (runtime/engine/step/replay-gate.ts).
  const plan = !midRun && current.execution.replayOf ? await replayDrainPlan(ctx.db, current) : null;
  if (plan?.kind === "wait") {
    return ended(
      await commits.commit(
        threadId,
        async (tx, row) => {
          await parkForReplayInput(tx, row, () => parkThread(ctx, tx, row, null, {}));
          return "parked" as const;
        },
        { allowUserStopped: true },
      ),
    );
  }
  const only = plan?.kind === "take" ? plan.ids : null;
  const deferred = plan?.kind === "defer" && runningHere;
  const started =
    midRun || deferred
      ? { kind: "run" as const, row: current, drained: [] }
      : await commits.commit(threadId, (tx, row, read) => drainInput(ctx, tx, row, definitions, read, only), {
          allowUserStopped: true,
          speculate: true,
          readBack: true,
        });
  if (started.kind === "parked") return ended("parked");
  return { kind: "run", row: started.row, announce: [...createdWith, ...started.drained] };
}
