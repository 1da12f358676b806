// One step of one thread (spec runtime §3), as a short sequence of transactions so that a crash
// re-runs at most the model call or the tool call in flight. This file is the orchestration: the
// method `step` runs the phases in order — start and drain input, prepare, model turn, reply
// commit, tool calls; the decision closes the last commit — each a module under ./step/ that
// returns to it (docs/runtime.md "The step cycle"). Every commit checks that this process still
// holds the thread's lease and that it is not terminated (ThreadCommitter).

import { crashPoint } from "../faults";
import type { StoredMessage } from "../store/messages";
import { findThreadForStep, type ThreadForStep } from "../store/thread-store";
import { subagentBranches } from "../subagents/branches";
import { type Metrics, metrics } from "../telemetry/metrics";
import { tracing } from "../telemetry/tracing";
import { endRunIfSettled, type RunTrace, runTraceForStep } from "./run-trace";
import { drainInput } from "./step/drain-input";
import { LeaseLost, StoppedByUser, ThreadTerminated } from "./step/errors";
import { startImmediate } from "./step/immediate";
import { modelTurn } from "./step/model-turn";
import { parkThread } from "./step/park";
import { prepareStep } from "./step/prepare-step";
import { commitReply, type ModelReply, type ReplyCommitResult } from "./step/reply-commit";
import { RunMemory } from "./step/run-memory";
import { startStep } from "./step/start-step";
import { ThreadCommitter } from "./step/thread-committer";
import { unansweredToolCalls } from "./step/tool-call-records";
import { runTools } from "./step/tool-calls";
import type { RunnerContext, StepContext, StepOutcome, StepRunnerDependencies } from "./step/types";

export { messageEvent, threadEvent } from "../store/thread-events";
export { unansweredToolCalls } from "./step/tool-call-records";
export {
  type CallModelFunction,
  EMPTY_RESPONSE_RESULT,
  EXECUTION_STOPPED_RESULT,
  MAX_STEPS_PER_TURN,
  MAX_SUBPROMPT_DEPTH,
  type StepOutcome,
  type StepRunnerDependencies,
  type ThreadCache,
} from "./step/types";

export class StepRunner {
  private readonly ctx: RunnerContext;
  /** The trace of each thread's run while this runner holds it (traces exported only). */
  private readonly runTraces = new Map<string, RunTrace>();
  /** This process's metrics while they are exported, else null (docs/observability.md "Metrics"). */
  private readonly metrics: Metrics | null;

  constructor(deps: StepRunnerDependencies) {
    const db = deps.database.sql;
    const memory = new RunMemory(db, deps);
    const commits = new ThreadCommitter(db, deps.leaseOwner, memory, deps.parentWaker);
    this.ctx = { deps, db, memory, commits };
    const meter = metrics();
    this.metrics = meter.enabled ? meter : null;
  }

  /**
   * The thread as the caller just read it (the claim that took its lease): the next step starts from
   * it instead of reading the thread again, exactly as from a read at the step's start.
   */
  startFrom(read: ThreadForStep): void {
    this.ctx.commits.startFrom(read);
  }

  /**
   * Messages stored with the thread's run started, not drained (`TakenThread.announce`): its next
   * step announces them to after_create_message, as it does the input it drains.
   */
  announceFirst(threadId: string, messages: readonly StoredMessage[]): void {
    this.ctx.memory.announceLater(threadId, messages);
  }

  /** Runs one step of the thread; the caller holds its lease and loops while the outcome is "continue". */
  runStep(threadId: string, abortSignal: AbortSignal): Promise<StepOutcome> {
    return this.metrics
      ? this.timedStep(this.metrics, threadId, abortSignal)
      : this.oneStep(threadId, abortSignal);
  }

  /** A step with its latency recorded (`tandem.step.duration`, by outcome; "error" when it threw). */
  private async timedStep(meter: Metrics, threadId: string, abortSignal: AbortSignal): Promise<StepOutcome> {
    const started = performance.now();
    let outcome = "error";
    try {
      outcome = await this.oneStep(threadId, abortSignal);
      return outcome as StepOutcome;
    } finally {
      meter.step((performance.now() - started) / 1000, outcome);
    }
  }

  private async oneStep(threadId: string, abortSignal: AbortSignal): Promise<StepOutcome> {
    const { memory, commits } = this.ctx;
    const run = tracing().enabled ? await this.runTraceOf(threadId) : null;
    let outcome: StepOutcome;
    try {
      memory.endedSessions.delete(threadId);
      outcome = await this.step(threadId, abortSignal);
      const ended = memory.endedSessions.get(threadId);
      if (ended !== undefined) crashPoint("after_terminal_commit", ended);
    } catch (error) {
      commits.dropSnapshot();
      memory.forget(threadId);
      if (run) this.endRun(threadId, run, error instanceof LeaseLost ? "lease_lost" : "terminated");
      if (error instanceof LeaseLost) return "lease_lost";
      if (error instanceof ThreadTerminated) return "terminated";
      if (error instanceof StoppedByUser) return "aborted";
      throw error;
    }
    if (outcome !== "continue") {
      if (run) this.endRun(threadId, run, outcome);
      commits.dropSnapshot();
      const cache = memory.forget(threadId);
      // A parked thread (an ai_human waiting for its next message, a parent waiting for a child)
      // usually runs again here soon: keep its cache, bounded, for the next run to reuse if nothing
      // changed the thread meanwhile (see RunMemory.restoreParked).
      if (outcome === "parked" && cache?.history) this.ctx.deps.parkedCaches?.park(threadId, cache);
    }
    return outcome;
  }

  /** The run a step of the thread belongs to; a failure to read it costs the spans, never the step. */
  private async runTraceOf(threadId: string): Promise<RunTrace | null> {
    const known = this.runTraces.get(threadId);
    if (known) return known;
    try {
      const run = await runTraceForStep(this.ctx.db, threadId);
      if (run) this.runTraces.set(threadId, run);
      return run;
    } catch (error) {
      console.error("[tandem] reading a thread's trace failed (its spans are left out):", error);
      return null;
    }
  }

  /** The step ended the runner's hold on the thread: its run's span goes out if the run is over. */
  private endRun(threadId: string, run: RunTrace, outcome: StepOutcome): void {
    this.runTraces.delete(threadId);
    if (outcome === "lease_lost") return;
    endRunIfSettled(this.ctx.db, threadId, run).catch((error: unknown) =>
      console.error("[tandem] ending a thread's trace failed:", error),
    );
  }

  /**
   * Ends the thread's run because a time limit passed (the scheduler enforces them, holding the
   * lease). Input still waiting is drained into the history first, so nothing queued is lost and the
   * thread does not run again for it; a child reports to its parent in the same commit (parkThread).
   * False when the thread was parked, terminated or taken by another process meanwhile.
   */
  async endForLimit(
    threadId: string,
    limit: { status: "failed" | "stopped"; reason: string },
  ): Promise<boolean> {
    const ctx = this.ctx;
    ctx.commits.dropSnapshot();
    ctx.memory.forget(threadId);
    const found = await findThreadForStep(ctx.db, threadId);
    if (!found) return false;
    const definitions = await ctx.deps.definitions.load(found.row.project_id, found.row.project_version);
    try {
      const ended = await ctx.commits.commit(
        threadId,
        async (tx, row) => {
          const started = await drainInput(ctx, tx, row, definitions);
          if (started.kind === "parked") return false;
          await parkThread(ctx, tx, started.row, limit.status === "failed" ? "failSession" : "stopSession", {
            stopReason: limit.reason,
            ...(limit.status === "failed" ? { failure: limit.reason } : {}),
          });
          return true;
        },
        { allowUserStopped: true },
      );
      // Traces out: the run ended on its limit, its span goes out (with the failure, if it failed).
      const run = ended ? (this.runTraces.get(threadId) ?? null) : null;
      if (run) this.endRun(threadId, run, "parked");
      return ended;
    } catch (error) {
      if (error instanceof LeaseLost || error instanceof ThreadTerminated) return false;
      throw error;
    } finally {
      ctx.memory.forget(threadId);
    }
  }

  /**
   * One step, phase by phase in this order; each phase returns to this method, which picks the next
   * (a phase that ended the step returns its outcome):
   *   1. start: the thread read; parked on an unreported blocking call or a replay's next input,
   *      else its input drained into messages (step/start-step, drain-input, replay-gate, blocked-call)
   *   2. preparation: active side, hooks and extensions, tool catalog (step/prepare-step)
   *   3. calls left unanswered (a crash, a stop, a blocking call answered) run first → 7
   *   4. a prompt's immediate subagent calls, when it first becomes active → 7 (step/immediate)
   *   5. model turn: context, one model call streamed (step/model-turn)
   *   6. reply commit: the reply with its call log and counters; decided here when no call is left
   *      to run (step/reply-commit)
   *   7. tool calls in order, each result committed, with sub-prompts and one-off spawn batches
   *      (step/tool-calls, subprompt, spawn-batch, approval-gate)
   * The decision — continue, switch side, hand off, or park (step/decide, handoff, park) — closes
   * the commit of phase 6 or of phase 7's last call, inside that transaction, so that the reply or
   * result and what it decided are one commit.
   */
  private async step(threadId: string, abortSignal: AbortSignal): Promise<StepOutcome> {
    const ctx = this.ctx;
    const started = await startStep(ctx, threadId); // 1
    if (started.kind === "ended") return started.outcome;
    const prepared = await prepareStep(ctx, {
      row: started.row,
      announce: started.announce,
      abortSignal,
      trace: this.runTraces.get(started.row.id) ?? null,
    }); // 2
    if (prepared.kind === "ended") return prepared.outcome;
    const { step, row, prompt, history } = prepared;
    const pending = unansweredToolCalls(history, step.active.side); // 3
    if (pending) return runTools(step, pending.message, pending.calls);
    const branches = subagentBranches(prompt, step.active.definitions.index, prepared.threadEnv);
    if (!row.execution.immediateDone.includes(prompt.name)) {
      const immediate = await startImmediate(
        ctx,
        row,
        step.active,
        prompt.name,
        branches,
        history,
        prepared.threadEnv,
      ); // 4
      if (immediate) {
        step.ext.history.push(immediate.message);
        return runTools(step, immediate.message, immediate.calls);
      }
    }
    if (abortSignal.aborted) return "aborted";
    const turn = await modelTurn(step, { row, prompt, history, branches }); // 5
    if (turn.kind === "ended") return turn.outcome;
    const committed = await this.commitReplyOf(step, turn.reply); // 6
    if (committed.kind === "decided") return committed.outcome;
    return runTools(step, committed.assistant, committed.calls); // 7
  }

  /** Phase 6; the reply's chunk buffer ends once its commit is done, or failed. */
  private async commitReplyOf(step: StepContext, reply: ModelReply): Promise<ReplyCommitResult> {
    try {
      return await commitReply(step, reply);
    } finally {
      this.ctx.deps.endMessage?.(reply.assistantId);
    }
  }
}
