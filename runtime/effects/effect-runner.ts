// Runs scheduled effects (spec Effects) in this process. An effect is claimed with a lease (`FOR UPDATE
// SKIP LOCKED`, so any number of processes share one database), renewed while its handler runs (one
// statement for all of this process's effects) and ended by a compare-and-set on the lease: done, a
// retry after exponential back-off, or failed once its attempts are used up. A process that dies
// leaves an expiring lease and any runner claims the effect again (at least once; one success is
// recorded). Wake-ups: a timer set to the next due time (or lease expiry), a NOTIFY committed with
// every new effect, and a slow backup poll. A drain stops claiming, lets running handlers finish until
// a deadline and hands the rest back as scheduled (their interrupted attempt does not count).
import { randomUUID } from "node:crypto";
import type { NotificationBus } from "@/lib/db/notifications";
import type { SqlClient } from "@/lib/db/sql-client";
import { type EffectAttemptEnd, recordEffectRun } from "../engine/run-trace";
import type { EffectDefinition, ThreadState } from "../extensions/define";
import { crashPoint } from "../faults";
import {
  type ClaimedEffect,
  cancelClaimedEffect,
  claimDueEffects,
  EFFECTS_CHANNEL,
  endEffectRun,
  handBackRunningEffects,
  msUntilNextEffect,
  renewEffectLeases,
} from "../store/effect-store";
import { tracing } from "../telemetry/tracing";
import { EFFECT_DEFAULTS, type EffectSettings, retryDelayMs } from "./settings";

/** Most effects one claim statement takes. */
const CLAIM_BATCH = 16;
/** Longest timer Node accepts (about 24.8 days); a later due time is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface EffectRunnerDeps {
  db: SqlClient;
  notifications: NotificationBus;
  /** The server's effects by name (the extension registry). */
  effects: () => Promise<ReadonlyMap<string, EffectDefinition>>;
  /** The thread's ThreadState for a handler (execution null; its messages carry the effect), or null when the thread is gone. */
  stateFor: (threadId: string, effect: { id: string; name: string }) => Promise<ThreadState | null>;
  log?: (message: string) => void;
}

export class EffectRunner {
  readonly owner = `${process.pid}:effects:${randomUUID()}`;
  private readonly settings: EffectSettings;
  private readonly running = new Map<string, ClaimedEffect>();
  private stopped = true;
  private claiming = false;
  private wakeAgain = false;
  private atCapacity = false;
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly log: (message: string) => void;

  constructor(
    private readonly deps: EffectRunnerDeps,
    settings: Partial<EffectSettings> = {},
  ) {
    this.settings = { ...EFFECT_DEFAULTS, leaseMs: 6_000, ...settings };
    this.log = deps.log ?? ((message) => console.error(`[tandem] ${message}`));
  }

  /** Effects this process is running now. */
  get inFlight(): number {
    return this.running.size;
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.unlisten = await this.deps.notifications.listen(EFFECTS_CHANNEL, () => this.wake());
    this.poll = setInterval(() => this.wake(), this.settings.pollMs);
    this.poll.unref();
    this.heartbeat = setInterval(
      () => void this.renewLeases(),
      Math.max(50, Math.floor(this.settings.leaseMs / 3)),
    );
    this.heartbeat.unref();
    this.wake();
  }

  /**
   * Stops claiming, lets running handlers finish until the deadline, then hands the others back:
   * scheduled again, due now, their interrupted attempt not counted (another process runs them).
   */
  async drain(deadlineMs: number): Promise<{ finished: number; handedBack: number }> {
    this.stopped = true;
    this.clearTimers();
    await this.unlisten?.().catch(() => {});
    this.unlisten = null;
    const before = this.running.size;
    const deadline = Date.now() + deadlineMs;
    while (this.running.size > 0 && Date.now() < deadline) await sleep(20);
    const left = [...this.running.keys()];
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (left.length > 0) {
      await handBackRunningEffects(this.deps.db, { ids: left, owner: this.owner }).catch((error: unknown) =>
        this.log(`handing effects back failed (their leases expire): ${errorText(error)}`),
      );
      for (const id of left) this.running.delete(id);
    }
    return { finished: before - left.length, handedBack: left.length };
  }

  /** Stops at once, handing running effects back (a drain with no deadline). */
  async stop(): Promise<void> {
    await this.drain(0);
  }

  /** Looks for due effects now (coalesced: one claim loop at a time). */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.wakeAgain = true;
      return;
    }
    this.claiming = true;
    void this.claimLoop()
      .catch((error: unknown) => this.log(`claiming effects failed: ${errorText(error)}`))
      .finally(() => {
        this.claiming = false;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        }
      });
  }

  private clearTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    this.timer = null;
    this.poll = null;
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopped && this.running.size < this.settings.concurrency) {
      const wanted = Math.min(this.settings.concurrency - this.running.size, CLAIM_BATCH);
      const claimed = await claimDueEffects(this.deps.db, this.owner, this.settings.leaseMs, wanted);
      for (const effect of claimed) {
        this.running.set(effect.id, effect);
        void this.run(effect);
      }
      if (claimed.length < wanted) {
        this.atCapacity = false;
        await this.armTimer();
        return;
      }
    }
    if (!this.stopped) this.atCapacity = true;
  }

  /** Sets the timer to the next due time or lease expiry (nothing due now: the claim just looked). */
  private async armTimer(): Promise<void> {
    const wait = await msUntilNextEffect(this.deps.db);
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (wait === null) return;
    // Due now but not claimed: another runner holds it mid-claim; look again shortly.
    this.timer = setTimeout(() => this.wake(), Math.min(MAX_TIMER_MS, Math.max(wait, 25)));
    this.timer.unref();
  }

  private async renewLeases(): Promise<void> {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    try {
      const held = await renewEffectLeases(this.deps.db, ids, this.owner, this.settings.leaseMs);
      for (const id of ids)
        if (!held.has(id) && this.running.has(id))
          this.log(`lost the lease of effect ${id}; another process may run it again`);
    } catch (error) {
      this.log(`renewing effect leases failed: ${errorText(error)}`);
    }
  }

  private async run(effect: ClaimedEffect): Promise<void> {
    const { maxAttempts } = this.settings;
    let retrying = false;
    // Traces out: how the attempt ended, for its `run_effect` span (docs/observability.md).
    let ended: EffectAttemptEnd | null = null;
    const end = async (outcome: Parameters<typeof endEffectRun>[3]) => {
      const recorded = await endEffectRun(this.deps.db, effect.id, this.owner, outcome);
      if (recorded)
        ended =
          "retryInMs" in outcome
            ? { status: "retry", error: outcome.error }
            : outcome.status === "failed"
              ? { status: "failed", error: outcome.error }
              : { status: "done" };
      return recorded;
    };
    try {
      // Claimed again after its runs kept ending without a result (the process died each time).
      if (effect.attempts > maxAttempts) {
        await end({
          status: "failed",
          error: `Gave up after ${maxAttempts} attempts: the process running it stopped before it finished${effect.error ? ` (last error: ${effect.error})` : ""}`,
        });
        return;
      }
      const definition = (await this.deps.effects()).get(effect.name);
      if (!definition) {
        await end({ status: "failed", error: `Effect not found: ${effect.name}` });
        return;
      }
      let args: Record<string, unknown> = effect.args;
      if (definition.args) {
        const parsed = definition.args.safeParse(effect.args);
        if (!parsed.success) {
          const issues = parsed.error.issues
            .map((issue) => `[${issue.path.join(".")}] ${issue.message}`)
            .join("; ");
          await end({ status: "failed", error: `Effect argument validation failed: ${issues}` });
          return;
        }
        args = parsed.data as Record<string, unknown>;
      }
      const state = await this.deps.stateFor(effect.thread_id, { id: effect.id, name: effect.name });
      if (!state) {
        await end({ status: "failed", error: `Thread ${effect.thread_id} no longer exists` });
        return;
      }
      if (state.terminated !== null) {
        await cancelClaimedEffect(
          this.deps.db,
          effect.id,
          this.owner,
          "The thread was terminated before the effect ran.",
        );
        ended = { status: "cancelled" };
        return;
      }
      crashPoint("effect_started", effect.name);
      try {
        await withTimeout(
          Promise.resolve((definition.execute as (s: ThreadState, a: unknown) => unknown)(state, args)),
          this.settings.timeoutMs,
        );
      } catch (error) {
        const message = errorText(error);
        retrying = effect.attempts < maxAttempts;
        const ended = retrying
          ? await end({ retryInMs: retryDelayMs(this.settings.retryMs, effect.attempts), error: message })
          : await end({ status: "failed", error: message });
        if (!ended)
          this.log(`effect ${effect.id} (${effect.name}) failed after its lease was lost: ${message}`);
        return;
      }
      crashPoint("before_effect_commit", effect.name);
      if (!(await end({ status: "done" })))
        this.log(`effect ${effect.id} (${effect.name}) finished after its lease was lost; not recorded`);
    } catch (error) {
      // A database failure while starting or ending it: the lease expires and a runner claims it again.
      this.log(
        `running effect ${effect.id} (${effect.name}) failed; its lease will expire: ${errorText(error)}`,
      );
    } finally {
      if (ended && tracing().enabled)
        recordEffectRun(
          this.deps.db,
          {
            id: effect.id,
            threadId: effect.thread_id,
            name: effect.name,
            attempt: effect.attempts,
            startMs: effect.started_at / 1000,
          },
          ended,
        ).catch((error: unknown) =>
          this.log(`recording effect ${effect.id}'s span failed: ${errorText(error)}`),
        );
      this.running.delete(effect.id);
      // A retry moved its due time: the timer must see it (as must claims left waiting while full).
      if (this.atCapacity || retrying) this.wake();
    }
  }
}

class EffectTimeoutError extends Error {}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new EffectTimeoutError(
            `The effect did not finish within ${timeoutMs} ms (TANDEM_EFFECT_TIMEOUT_MS)`,
          ),
        ),
      timeoutMs,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
