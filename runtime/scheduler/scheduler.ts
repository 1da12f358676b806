// Runs runnable threads in this process. A thread is claimed with a lease (`FOR NO KEY UPDATE SKIP
// LOCKED`, so any number of processes can share one database), renewed while it works (one heartbeat
// statement for all of this process's threads) and released when it parks. A process that dies leaves
// expiring leases: any scheduler claims those threads again and resumes them from their last persisted
// step. LISTEN/NOTIFY wakes schedulers (a hand-back notifies too); a poll backs it up. A drain
// (SIGTERM) stops claiming, lets in-flight steps finish until a deadline and hands the rest back.
// Two bounds: threads this process holds (TANDEM_MAX_CLAIMED_THREADS, memory-bound) and steps doing
// CPU and database work at once (TANDEM_CONCURRENCY, step slots). A step gives its slot up while it
// waits on a model call (`awayFromStepSlot`), so threads waiting on models stay claimed, their leases
// renewed by the heartbeat and their calls abortable, without holding a slot or a connection.
// Taken at once: a thread this process itself makes runnable (a new thread with input, a posted
// message, a spawned child) is leased to it by that very statement when it has room (`takeLocally`),
// and runs here without a NOTIFY or a claim; a process without room leaves it to any scheduler.
// How much room that is depends on whether other processes run threads on the database
// (`PeerSchedulers`): alone, a process takes everything it makes runnable (nobody else would claim
// it); beside others, one more round of steps, so that a burst sent to one of them is shared.
// Time limits: a run past TANDEM_MAX_RUN_MS is stopped, a thread queued past TANDEM_MAX_QUEUED_MS
// fails, both by `StepRunner.endForLimit`, which drains waiting input and parks the thread with
// that status (a child's report reaches its parent in the same commit, as at any session end).
import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db/database";
import type { StepOutcome, StepRunner } from "../engine/step-runner";
import type { LocalTake } from "../store/local-take";
import {
  type Claimed,
  claimOverdueThreads,
  claimRunnableThreads,
  releaseLease,
  renewLeases,
  repairLostWakeups,
} from "../store/thread-scheduling";
import { ABORT_CHANNEL, WORK_CHANNEL } from "../store/thread-store";
import { PeerSchedulers } from "./peer-schedulers";
import { queuedLimitReason, runLimitReason, SCHEDULER_DEFAULTS } from "./settings";
import { StepSlots, withStepSlot } from "./step-slots";

export type { LocalTake };

/** Most threads one claim statement takes (a burst of input is claimed a batch at a time). */
const CLAIM_BATCH = 32;

/**
 * A heartbeat leaves a lease alone when it will still have this long to run at the next heartbeat
 * (see `renewLeases`): a run shorter than a few seconds (a model call, a child's work) is never
 * renewed, so it costs no row write beyond its claim and its steps.
 */
export const LEASE_MARGIN_MS = 2_500;

export interface SchedulerOptions {
  /**
   * Steps doing CPU and database work at once in this process (TANDEM_CONCURRENCY, default
   * SCHEDULER_DEFAULTS.concurrency: 64). A thread waiting on a model call does not count.
   */
  concurrency?: number;
  /**
   * Threads this process holds at once, most of them waiting on model calls
   * (TANDEM_MAX_CLAIMED_THREADS, default SCHEDULER_DEFAULTS.maxClaimed: 10,000).
   */
  maxClaimed?: number;
  /**
   * Lease length (default 6 s). A heartbeat every third of it renews the leases that would
   * otherwise have less than LEASE_MARGIN_MS left at the next heartbeat.
   */
  leaseMs?: number;
  /** Fallback poll for missed notifications, expired leases and overdue threads (default 1 s). */
  pollMs?: number;
  /**
   * Rounds of steps this process takes for itself of the threads it makes runnable (`takeLocally`;
   * TANDEM_LOCAL_TAKE_ROUNDS). Default on Postgres: SCHEDULER_DEFAULTS.localTakeRounds while another
   * process runs threads on the database (`PeerSchedulers`), no bound but maxClaimed while none does;
   * on PGlite (one process only), no bound but maxClaimed.
   */
  localTakeRounds?: number;
  /**
   * Input older than this whose thread is not runnable was queued by a process that died before it
   * woke the thread (a child's report is committed first and wakes its parent right after): the
   * poll makes such threads runnable. Longer than any legitimate wait (a running after_thread_created
   * hook keeps a new thread's input waiting). Default 20 s.
   */
  lostWakeupGraceMs?: number;
  /** A drain's deadline for in-flight steps before they are aborted and handed back (default 10 s). */
  drainMs?: number;
  /** Wall clock of one run; 0 = no limit (default). */
  maxRunMs?: number;
  /** Longest wait of a runnable thread for a scheduler; 0 = no limit (default). */
  maxQueuedMs?: number;
  /** Work the runs handed off (parents' wake-ups), awaited by a drain once the runs have ended. */
  settle?: () => Promise<void>;
}

export class Scheduler {
  readonly owner = `${process.pid}:${randomUUID()}`;
  private readonly running = new Map<string, AbortController>();
  /**
   * When each running thread's lease was last set (performance.now() ms, taken before the statement
   * that set it was sent, so its lease runs at least leaseMs from then).
   */
  private readonly leasedAt = new Map<string, number>();
  private readonly concurrency: number;
  private readonly maxClaimed: number;
  private readonly slots: StepSlots;
  /** Claimed threads whose step has given its slot up for a model call. */
  private away = 0;
  /** Room promised to threads being taken at once (`takeLocally`), not running yet. */
  private promised = 0;
  /** Threads taken at once while their previous run here was still ending: they start after it. */
  private readonly takenWhileEnding = new Map<string, { claimed: Claimed; leasedAt: number }>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  /** TANDEM_LOCAL_TAKE_ROUNDS, or no bound on PGlite; null: it depends on `peers`. */
  private readonly localTakeRounds: number | null;
  /** The other processes running threads on this database, when the bound depends on them. */
  private readonly peers: PeerSchedulers | null;
  private readonly drainMs: number;
  private readonly maxRunMs: number;
  private readonly maxQueuedMs: number;
  private readonly lostWakeupGraceMs: number;
  private lastRepairAt = 0;
  private stopped = true;
  private claiming = false;
  private wakeAgain = false;
  /** The last claim loop stopped because this process was full, not because nothing was runnable. */
  private atCapacity = false;
  /** `whenRunEnds` callbacks, per thread running here. */
  private readonly runEndWaiters = new Map<string, Set<() => void>>();
  /** Threads a NOTIFY named while this process was running them. */
  private readonly notifiedWhileRunning = new Set<string>();
  private sweeping = false;
  /** Threads that stopped running here since a drain began (at a step boundary or aborted). */
  private endedWhileDraining = 0;
  private poll: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopListeningForWork: (() => Promise<void>) | null = null;
  private stopListeningForAborts: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly runnerFor: (leaseOwner: string) => StepRunner,
    options: SchedulerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? SCHEDULER_DEFAULTS.concurrency;
    this.maxClaimed = Math.max(this.concurrency, options.maxClaimed ?? SCHEDULER_DEFAULTS.maxClaimed);
    this.slots = new StepSlots(this.concurrency);
    this.leaseMs = options.leaseMs ?? SCHEDULER_DEFAULTS.leaseMs;
    this.pollMs = options.pollMs ?? SCHEDULER_DEFAULTS.pollMs;
    this.localTakeRounds =
      options.localTakeRounds ?? (database.config.kind === "pglite" ? Number.POSITIVE_INFINITY : null);
    // Gone after three heartbeats unheard (a heartbeat is a third of a lease).
    this.peers =
      this.localTakeRounds === null
        ? new PeerSchedulers(database.notifications, this.owner, 3 * this.heartbeatMs + 1_000)
        : null;
    this.drainMs = options.drainMs ?? SCHEDULER_DEFAULTS.drainMs;
    this.maxRunMs = options.maxRunMs ?? SCHEDULER_DEFAULTS.maxRunMs;
    this.maxQueuedMs = options.maxQueuedMs ?? SCHEDULER_DEFAULTS.maxQueuedMs;
    this.lostWakeupGraceMs = options.lostWakeupGraceMs ?? 20_000;
    this.settle = options.settle ?? (() => Promise.resolve());
  }

  private readonly settle: () => Promise<void>;

  /** How often the heartbeat renews leases: every third of a lease. */
  private get heartbeatMs(): number {
    return Math.max(50, Math.floor(this.leaseMs / 3));
  }

  /** Makes runnable the threads whose input waits with nobody to wake them (see lostWakeupGraceMs). */
  async repairLostWakeups(): Promise<number> {
    return repairLostWakeups(this.database.sql, this.lostWakeupGraceMs);
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopListeningForWork = await this.database.notifications.listen(WORK_CHANNEL, (threadId) => {
      // Work for a thread this process still runs cannot be claimed until its run ends: remember it.
      if (this.running.has(threadId)) this.notifiedWhileRunning.add(threadId);
      this.wake();
    });
    this.stopListeningForAborts = await this.database.notifications.listen(ABORT_CHANNEL, (threadId) =>
      this.running.get(threadId)?.abort(),
    );
    await this.peers?.start();
    this.poll = setInterval(() => this.tick(), this.pollMs);
    this.poll.unref();
    this.heartbeat = setInterval(() => {
      void this.renewLeases();
      void this.peers?.announce().catch((error: unknown) => logFailure("announcing this scheduler", error));
    }, this.heartbeatMs);
    this.heartbeat.unref();
    this.wake();
  }

  /**
   * Graceful shutdown: stops claiming at once, lets in-flight steps finish until the deadline, then
   * aborts the rest. Every thread not parked is handed back (lease released, schedulers notified), so
   * another process resumes it right away; none waits for a lease to expire.
   */
  async drain(deadlineMs = this.drainMs): Promise<{ atStepBoundary: number; aborted: number }> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    await this.peers?.stop();
    await this.stopListeningForWork?.().catch(() => {});
    this.stopListeningForWork = null;
    this.endedWhileDraining = 0;
    const deadline = Date.now() + deadlineMs;
    while (this.running.size > 0 && Date.now() < deadline) await sleep(20);
    const aborted = this.running.size;
    for (const controller of this.running.values()) controller.abort();
    const abortDeadline = Date.now() + 10_000;
    while (this.running.size > 0 && Date.now() < abortDeadline) await sleep(20);
    await this.settle().catch((error: unknown) => logFailure("settling handed-off work", error));
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.stopListeningForAborts?.().catch(() => {});
    this.stopListeningForAborts = null;
    return { atStepBoundary: this.endedWhileDraining - aborted, aborted };
  }

  /** Stops claiming, aborts in-flight steps and hands their threads back (a drain with no deadline). */
  async stop(): Promise<void> {
    await this.drain(0);
  }

  /** How many steps this process runs at once at most (TANDEM_CONCURRENCY). */
  get maxConcurrency(): number {
    return this.concurrency;
  }

  /** How many threads this process holds at once at most (TANDEM_MAX_CLAIMED_THREADS). */
  get maxClaimedThreads(): number {
    return this.maxClaimed;
  }

  /** Threads this process holds now (running a step, waiting for a slot or on a model call). */
  get inFlight(): number {
    return this.running.size;
  }

  /** Steps holding a slot now (doing CPU or database work, not waiting on a model). */
  get stepsActive(): number {
    return this.slots.active;
  }

  /** Aborts the in-flight step of a thread run by this process (user stop, terminate). */
  abortLocally(threadId: string): boolean {
    const controller = this.running.get(threadId);
    controller?.abort();
    return controller !== undefined;
  }

  isRunning(threadId: string): boolean {
    return this.running.has(threadId);
  }

  /**
   * Calls `onEnded` once the run of `threadId` in this process ends (after its last commit), or at
   * once when none runs here; answers the cancel. Lets a waiter in this process (the eval runner)
   * skip reading a thread back while it runs here instead of re-reading it on each of its commits.
   */
  whenRunEnds(threadId: string, onEnded: () => void): () => void {
    if (!this.running.has(threadId)) {
      onEnded();
      return () => {};
    }
    let waiters = this.runEndWaiters.get(threadId);
    if (!waiters) {
      waiters = new Set();
      this.runEndWaiters.set(threadId, waiters);
    }
    waiters.add(onEnded);
    const added = waiters;
    return () => {
      added.delete(onEnded);
      if (added.size === 0 && this.runEndWaiters.get(threadId) === added) this.runEndWaiters.delete(threadId);
    };
  }

  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.wakeAgain = true;
      return;
    }
    this.claiming = true;
    void this.claimLoop().finally(() => {
      this.claiming = false;
      if (this.wakeAgain) {
        this.wakeAgain = false;
        this.wake();
      }
    });
  }

  private tick(): void {
    if (Date.now() - this.lastRepairAt >= Math.min(this.lostWakeupGraceMs / 2, 5_000)) {
      this.lastRepairAt = Date.now();
      void this.repairLostWakeups().catch((error: unknown) => logFailure("looking for lost wake-ups", error));
    }
    if (this.maxQueuedMs > 0 && !this.sweeping) {
      this.sweeping = true;
      void this.failOverdueQueued()
        .catch((error: unknown) => logFailure("failing threads queued too long", error))
        .finally(() => {
          this.sweeping = false;
        });
    }
    this.wake();
  }

  /**
   * How many more threads this process takes: enough to keep every step slot busy (a thread waiting
   * on a model call leaves its slot to another), never more than maxClaimed in all.
   */
  private room(): number {
    const wantingSlots = this.running.size - this.away + this.promised;
    return Math.min(this.concurrency - wantingSlots, this.maxClaimed - this.running.size - this.promised);
  }

  /**
   * Room for one thread this process is about to make runnable itself, or null (stopped or full:
   * then the statement leaves the thread to any scheduler and notifies it). See `LocalTake`.
   */
  takeLocally(): LocalTake | null {
    // Beyond the free slots too: the thread then waits here for a slot instead of in the database
    // for a claim (a NOTIFY, a claim statement, a slot anyway). While another process runs threads
    // on the database, by default at most one more round of steps (TANDEM_CONCURRENCY) waits so,
    // and past that it is left to any scheduler (another process may have room). Alone, on PGlite,
    // or with TANDEM_LOCAL_TAKE_ROUNDS, more (`localTakeBound`). Never past maxClaimed.
    const wantingSlots = this.running.size - this.away + this.promised;
    if (this.stopped || wantingSlots >= this.localTakeBound()) return null;
    if (this.running.size + this.promised >= this.maxClaimed) return null;
    this.promised += 1;
    // The statement that leases the thread is sent after this: its lease runs at least from now.
    const leasedAt = performance.now();
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.promised -= 1;
      return true;
    };
    return {
      owner: this.owner,
      leaseMs: this.leaseMs,
      run: (claimed) => {
        if (!settle()) return;
        // Its last run here parked (releasing the lease, so the statement could take it) but has not
        // ended yet: start once it has, never two runs of one thread at once.
        if (this.running.has(claimed.id)) this.takenWhileEnding.set(claimed.id, { claimed, leasedAt });
        else void this.runThread(claimed, leasedAt);
      },
      cancel: () => {
        if (settle() && this.atCapacity) this.wake();
      },
    };
  }

  /** Steps wanting a slot past which `takeLocally` leaves a thread to any scheduler. */
  private localTakeBound(): number {
    const rounds =
      this.localTakeRounds ??
      (this.peers?.alone() === false ? SCHEDULER_DEFAULTS.localTakeRounds : Number.POSITIVE_INFINITY);
    return rounds * this.concurrency;
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopped && this.room() > 0) {
      const wanted = Math.min(this.room(), CLAIM_BATCH);
      const leasedAt = performance.now();
      const claimed = await this.claimRunnable(wanted).catch((error: unknown) => {
        logFailure("claiming threads", error);
        return null;
      });
      if (!claimed) return;
      for (const thread of claimed) void this.runThread(thread, leasedAt);
      // Fewer than asked for: nothing else was runnable when the claim ran. Input that arrives later
      // wakes this loop again (NOTIFY), so there is no need to ask a second time now.
      if (claimed.length < wanted) {
        this.atCapacity = false;
        return;
      }
    }
    if (!this.stopped) this.atCapacity = true;
  }

  /** Claims up to `limit` runnable threads nobody holds (`claimRunnableThreads`). */
  private claimRunnable(limit: number): Promise<Claimed[]> {
    return claimRunnableThreads(this.database.schedulerSql, {
      owner: this.owner,
      leaseMs: this.leaseMs,
      exclude: [...this.running.keys()],
      limit,
    });
  }

  /**
   * Claims threads that waited runnable and unclaimed (or behind an expired lease) for longer than
   * maxQueuedMs, and fails them. Runs beside the claim loop, so it works while this process is full.
   */
  private async failOverdueQueued(): Promise<void> {
    const leasedAt = performance.now();
    const overdue = await claimOverdueThreads(this.database.sql, {
      owner: this.owner,
      leaseMs: this.leaseMs,
      maxQueuedMs: this.maxQueuedMs,
      exclude: [...this.running.keys()],
    });
    for (const id of overdue)
      void this.runThread({ id, runStartedAt: null, read: null }, leasedAt, "queued_too_long");
  }

  /**
   * Renews the leases this process holds in one statement; a thread whose lease is gone is aborted.
   * A lease that will still have LEASE_MARGIN_MS left at the next heartbeat is left alone this time:
   * most runs end before their lease needs renewing (a model call of a second or two), and a
   * renewal is a row write. A renewal moves the row's version but records the move, so a step commit
   * of that thread on its way at that moment still passes its version check (`renewLeases` in
   * runtime/store/thread-scheduling.ts). The renewal never waits for a row lock: a row
   * locked now (its own step committing, a parent's report) is skipped this time, kept while it
   * still names this process, and renewed next time. A renewal that waited could deadlock with a
   * step transaction that locks the same rows in another order; the lost renewal used to abort
   * every thread the process ran, so their model calls in flight were made again.
   */
  private async renewLeases(): Promise<void> {
    const sentAt = performance.now();
    // Each lease runs leaseMs from leasedAt; the next heartbeat comes a heartbeat interval from now.
    const latestLeaseKept = sentAt + this.heartbeatMs + LEASE_MARGIN_MS - this.leaseMs;
    const sent = [...this.running.entries()].filter(
      ([id]) => (this.leasedAt.get(id) ?? Number.NEGATIVE_INFINITY) < latestLeaseKept,
    );
    if (sent.length === 0) return;
    let held: Set<string>;
    try {
      const rows = await renewLeases(this.database.schedulerSql, {
        owner: this.owner,
        leaseMs: this.leaseMs,
        threadIds: sent.map(([id]) => id),
      });
      held = new Set(rows.map((row) => row.id));
      const controllers = new Map(sent);
      for (const row of rows) {
        if (row.renewed && this.running.get(row.id) === controllers.get(row.id))
          this.leasedAt.set(row.id, sentAt);
      }
    } catch (error) {
      // Without a renewal the leases may expire and another process may take the threads: stop.
      logFailure("renewing leases", error);
      held = new Set();
    }
    for (const [id, controller] of sent) {
      if (!held.has(id) && this.running.get(id) === controller) controller.abort();
    }
  }

  /** Hands a thread back and tells every scheduler, so another process can take it at once. */
  private async releaseLease(threadId: string): Promise<void> {
    await releaseLease(this.database.sql, { threadId, owner: this.owner });
  }

  private async runThread(claimed: Claimed, leasedAt: number, expire?: "queued_too_long"): Promise<void> {
    const threadId = claimed.id;
    const controller = new AbortController();
    this.running.set(threadId, controller);
    this.leasedAt.set(threadId, leasedAt);
    const runner = this.runnerFor(this.owner);
    if (claimed.read) runner.startFrom(claimed.read);
    if (claimed.announce?.length) runner.announceFirst(threadId, claimed.announce);
    const { limit, limitTimer } = this.runTimeLimit(claimed, controller, expire);
    let outcome: StepOutcome = "continue";
    // While this thread's step waits on a model away from its slot, another thread may take the slot.
    const onAway = (away: boolean) => {
      this.away += away ? 1 : -1;
      if (away && this.atCapacity) this.wake();
    };
    const mayRun = () => !controller.signal.aborted && !this.stopped && !limit.overdue;
    try {
      while (outcome === "continue" && mayRun()) {
        const stepped = await withStepSlot(
          this.slots,
          // The step's model calls name it by the run's signal (runtime.ts passes it as their key).
          controller.signal,
          // Waiting for the slot took time: a stop, a drain or a limit meanwhile ends the run here.
          async () => (mayRun() ? runner.runStep(threadId, controller.signal) : null),
          onAway,
        );
        if (stepped === null) break;
        outcome = stepped;
      }
    } catch (error) {
      if (!limit.overdue) {
        console.error(
          `[tandem] thread ${threadId} step failed; it will be retried:`,
          error instanceof Error ? error.message : error,
        );
        outcome = "aborted";
        // Back off before handing the thread back, so a persistent fault cannot spin.
        await sleep(500);
      }
    } finally {
      if (limitTimer) clearTimeout(limitTimer);
      const overdue = limit.overdue;
      if (overdue && outcome !== "parked" && outcome !== "terminated")
        outcome = await this.endAtTimeLimit(threadId, runner, controller.signal, overdue, outcome);
      // Parked threads released their lease in their last commit; anything else is handed back
      // before this thread stops counting as running, so a shutdown waits for the hand-back.
      if (outcome !== "parked") await this.releaseLease(threadId).catch(() => {});
      this.forgetRun(threadId, controller);
      const taken = this.takenWhileEnding.get(threadId);
      if (taken) {
        this.takenWhileEnding.delete(threadId);
        void this.runThread(taken.claimed, taken.leasedAt);
      }
      // Claim again only if something may have been left waiting: runnable threads while this
      // process was full, or this very thread (input arrived while it ran, and the NOTIFY came before
      // the run ended). Other new input wakes the loop through NOTIFY; the poll covers a lost one.
      if (this.notifiedWhileRunning.delete(threadId) || this.atCapacity) this.wake();
    }
  }

  /**
   * The run's time limits: what is overdue already (`expire`, or its deadline passed), and a timer
   * that marks it overdue and aborts it at its deadline (null: no deadline, or overdue already).
   */
  private runTimeLimit(claimed: Claimed, controller: AbortController, expire?: "queued_too_long") {
    // The run's wall clock started when its input was drained (or starts now, with the first step).
    const deadline =
      this.maxRunMs > 0 ? (claimed.runStartedAt ?? Date.now() * 1000) / 1000 + this.maxRunMs : null;
    const limit: { overdue: "run_limit" | "queued_too_long" | null } = { overdue: expire ?? null };
    if (deadline !== null && !expire && Date.now() >= deadline) limit.overdue = "run_limit";
    const limitTimer =
      deadline !== null && !limit.overdue
        ? setTimeout(
            () => {
              limit.overdue = "run_limit";
              controller.abort();
            },
            Math.max(0, deadline - Date.now()),
          )
        : null;
    return { limit, limitTimer };
  }

  /** Ends an overdue run's session (stopped: run limit; failed: queued too long); "parked" once ended. */
  private async endAtTimeLimit(
    threadId: string,
    runner: StepRunner,
    signal: AbortSignal,
    overdue: "run_limit" | "queued_too_long",
    outcome: StepOutcome,
  ): Promise<StepOutcome> {
    const ending =
      overdue === "run_limit"
        ? { status: "stopped" as const, reason: runLimitReason(this.maxRunMs) }
        : { status: "failed" as const, reason: queuedLimitReason(this.maxQueuedMs) };
    return withStepSlot(this.slots, signal, () => runner.endForLimit(threadId, ending)).then(
      (ended): StepOutcome => (ended ? "parked" : outcome),
      (error: unknown) => {
        logFailure(`ending thread ${threadId} at its time limit`, error);
        return outcome;
      },
    );
  }

  /** The run is over: it stops counting as running here, and whoever waits for its end hears of it. */
  private forgetRun(threadId: string, controller: AbortController): void {
    if (this.running.get(threadId) === controller) {
      this.running.delete(threadId);
      this.leasedAt.delete(threadId);
      const waiters = this.runEndWaiters.get(threadId);
      this.runEndWaiters.delete(threadId);
      for (const onEnded of waiters ?? []) onEnded();
    }
    if (this.stopped) this.endedWhileDraining++;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function logFailure(what: string, error: unknown): void {
  console.error(`[tandem] ${what} failed:`, error instanceof Error ? error.message : error);
}
