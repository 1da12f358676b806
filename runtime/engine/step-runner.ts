// One step of one thread (spec runtime §3), as a short sequence of transactions so that a crash
// re-runs at most the model call or the tool call in flight. This file is the orchestration; each
// phase is a module under ./step/ (docs/runtime.md "The step cycle"):
//   1. drain input: the inbox into messages; a new turn starts for the side it addresses (drain-input)
//   2. model turn: context assembled → one model call, text streamed as ephemeral chunks (model-turn)
//   3. the reply committed with its model-call log, usage and counters (reply-commit)
//   4. tool calls one at a time in returned order, each result committed (tool-calls), with
//      sub-prompts (subprompt) and batches of one-off spawns (spawn-batch); the last commit also
//      decides and finishes the step — continue, switch side, hand off, park (decide, handoff, park)
// Every commit checks that this process still holds the thread's lease and that it is not terminated
// (ThreadCommitter).

import { crashPoint } from "../faults";
import type { StoredMessage } from "../store/messages";
import { findThreadForStep, type ThreadForStep } from "../store/thread-store";
import { envLookup, subagentBranches } from "../subagents/branches";
import { type Metrics, metrics } from "../telemetry/metrics";
import { tracing } from "../telemetry/tracing";
import { endRunIfSettled, type RunTrace, runTraceForStep } from "./run-trace";
import { activeSide, catalogFor } from "./step/active-side";
import { invocationEnded, parkOnChild } from "./step/blocked-call";
import { drainInput } from "./step/drain-input";
import { LeaseLost, StoppedByUser, ThreadTerminated } from "./step/errors";
import { afterCreate, runCreatedHooks, stepExtensions } from "./step/hooks";
import { startImmediate } from "./step/immediate";
import { modelTurn } from "./step/model-turn";
import { parkThread } from "./step/park";
import { parkForReplayInput, replayDrainPlan } from "./step/replay-gate";
import { RunMemory } from "./step/run-memory";
import { ThreadCommitter } from "./step/thread-committer";
import { unansweredToolCalls } from "./step/tool-call-records";
import { runTools } from "./step/tool-calls";
import type { RunnerContext, StepContext, StepOutcome, StepRunnerDependencies } from "./step/types";
import { mcpServersOf } from "./tool-catalog";

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

  /** The scheduler renewed the thread's lease, which moved its row from version `from` to `to`. */
  leaseRenewed(threadId: string, from: string, to: string): void {
    this.ctx.commits.leaseRenewed(threadId, from, to);
  }

  /** A lease renewal is under way; `settled` resolves once it has reported its moves. */
  leaseRenewing(settled: Promise<void>): void {
    this.ctx.commits.leaseRenewing(settled);
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

  private async step(threadId: string, abortSignal: AbortSignal): Promise<StepOutcome> {
    const ctx = this.ctx;
    const { commits } = ctx;
    // Definitions are read before any transaction: on PGlite (one connection) a query outside the
    // open transaction would wait for it forever.
    const found = commits.takeSnapshot(threadId) ?? (await findThreadForStep(ctx.db, threadId));
    if (!found) return "terminated";
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
      return commits.commit(threadId, (tx, row) => parkOnChild(ctx, tx, row, blockedOn.callId), {
        allowUserStopped: true,
      });
    }
    // Mid-run with no new input (the common case), there is nothing to drain: skip that transaction.
    // The step's commit still checks lease, termination and user stop under the row lock.
    const midRun =
      (!found.hasInput || blockedOn !== null) &&
      current.status === "running" &&
      !current.user_stopped &&
      current.terminated_at === null &&
      current.lease_owner === ctx.deps.leaseOwner;
    // A replayed thread drains what the source drained at this point (runtime/engine/step/replay-gate.ts).
    const plan = !midRun && current.execution.replayOf ? await replayDrainPlan(ctx.db, current) : null;
    if (plan?.kind === "wait") {
      return commits.commit(
        threadId,
        async (tx, row) => {
          await parkForReplayInput(tx, row, () => parkThread(ctx, tx, row, null, {}));
          return "parked" as const;
        },
        { allowUserStopped: true },
      );
    }
    const only = plan?.kind === "take" ? plan.ids : null;
    const deferred =
      plan?.kind === "defer" &&
      current.status === "running" &&
      !current.user_stopped &&
      current.terminated_at === null &&
      current.lease_owner === ctx.deps.leaseOwner;
    const started =
      midRun || deferred
        ? { kind: "run" as const, row: current, drained: [] }
        : await commits.commit(
            threadId,
            (tx, row, read) => drainInput(ctx, tx, row, definitions, read, only),
            {
              allowUserStopped: true,
              speculate: true,
              readBack: true,
            },
          );
    if (started.kind === "parked") return "parked";
    const row = started.row;
    const active = await activeSide(ctx.deps.definitions, row);
    if (typeof active === "string") {
      await commits.commit(threadId, (tx, current) =>
        parkThread(ctx, tx, current, "failSession", { failure: active, stopReason: active }),
      );
      return "parked";
    }
    const history = await ctx.memory.historyOf(row);
    const prompt = active.definitions.index.prompts.get(active.sideConfig.prompt)?.definition;
    if (!prompt) return "parked"; // activeSide checked it
    const ext = await stepExtensions(ctx, row, active, history, abortSignal);
    await afterCreate(ext, prompt.name, [...createdWith, ...started.drained]);
    // A spawned child runs its after_thread_created hooks before its first step, once.
    if (await runCreatedHooks(ctx, row, ext, prompt.name)) return "continue"; // the next step reads what they wrote
    const threadEnv = envLookup(row.env, row.scoped_env, active.agent.env, prompt.env);
    await ext.registry?.mcp.prepare(mcpServersOf(prompt, active.definitions.index));
    const catalog = catalogFor(prompt, active, ext, threadEnv);
    const step: StepContext = {
      ...ctx,
      threadId: row.id,
      rootId: row.root_id,
      active,
      catalog,
      ext,
      abortSignal,
      trace: this.runTraces.get(row.id) ?? null,
    };

    // Tool calls left unanswered (a crash, a stop, a blocking call answered): run them first.
    const pending = unansweredToolCalls(history, active.side);
    if (pending) return runTools(step, pending.message, pending.calls);

    const branches = subagentBranches(prompt, active.definitions.index, threadEnv);
    if (!row.execution.immediateDone.includes(prompt.name)) {
      const immediate = await startImmediate(ctx, row, active, prompt.name, branches, history, threadEnv);
      if (immediate) {
        ext.history.push(immediate.message);
        return runTools(step, immediate.message, immediate.calls);
      }
    }

    if (abortSignal.aborted) return "aborted";
    return modelTurn(step, row, prompt, history, branches);
  }
}
