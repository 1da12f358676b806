// Runs runnable threads in this process. A thread is claimed with a lease (`FOR UPDATE SKIP
// LOCKED`, so any number of processes can share one database), renewed while it works and released
// when it parks. A process that dies leaves an expiring lease: any scheduler claims the thread again
// and resumes it from its last persisted step. LISTEN/NOTIFY wakes schedulers; a poll backs it up.
import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db/database";
import type { StepOutcome, StepRunner } from "../engine/step-runner";
import { WORK_CHANNEL } from "../threads/thread-store";

export const ABORT_CHANNEL = "tandem_abort";

export interface SchedulerOptions {
  /** Threads this process runs at once (default 16). */
  concurrency?: number;
  /** Lease length; renewed every third of it (default 15 s). */
  leaseMs?: number;
  /** Fallback poll for missed notifications and expired leases (default 1 s). */
  pollMs?: number;
  /**
   * Input older than this whose thread is not runnable was queued by a process that died before it
   * woke the thread (a child's report is committed first and wakes its parent right after): the
   * poll makes such threads runnable. Longer than any legitimate wait (a running after_thread_created
   * hook keeps a new thread's input waiting). Default 20 s.
   */
  lostWakeupGraceMs?: number;
}

export class Scheduler {
  readonly owner = `${process.pid}:${randomUUID()}`;
  private readonly running = new Map<string, AbortController>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private stopped = true;
  private claiming = false;
  private wakeAgain = false;
  private poll: NodeJS.Timeout | null = null;
  private unsubscribers: Array<() => Promise<void>> = [];

  constructor(
    private readonly database: Database,
    private readonly runnerFor: (leaseOwner: string) => StepRunner,
    options: SchedulerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 16;
    this.leaseMs = options.leaseMs ?? 15_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.lostWakeupGraceMs = options.lostWakeupGraceMs ?? 20_000;
  }

  private readonly lostWakeupGraceMs: number;
  private lastRepairAt = 0;

  /** Makes runnable the threads whose input waits with nobody to wake them (see lostWakeupGraceMs). */
  async repairLostWakeups(): Promise<number> {
    const rows = await this.database.sql.query<{ id: string }>(
      `UPDATE threads SET runnable = true
       WHERE id IN (SELECT thread_id FROM inbox_items WHERE consumed_at IS NULL AND created_at < $1)
         AND NOT runnable AND NOT user_stopped AND terminated_at IS NULL
         AND COALESCE(execution -> 'blockedOn', 'null'::jsonb) = 'null'::jsonb
       RETURNING id`,
      [(Date.now() - this.lostWakeupGraceMs) * 1000],
    );
    return rows.length;
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribers.push(await this.database.notifications.listen(WORK_CHANNEL, () => this.wake()));
    this.unsubscribers.push(
      await this.database.notifications.listen(ABORT_CHANNEL, (threadId) =>
        this.running.get(threadId)?.abort(),
      ),
    );
    this.poll = setInterval(() => {
      if (Date.now() - this.lastRepairAt >= Math.min(this.lostWakeupGraceMs / 2, 5_000)) {
        this.lastRepairAt = Date.now();
        void this.repairLostWakeups().catch((error: unknown) => {
          console.error(
            "[tandem] looking for lost wake-ups failed:",
            error instanceof Error ? error.message : error,
          );
        });
      }
      this.wake();
    }, this.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** Stops claiming, aborts in-flight steps and hands their threads back (lease released). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    for (const unsubscribe of this.unsubscribers.splice(0)) await unsubscribe().catch(() => {});
    for (const controller of this.running.values()) controller.abort();
    const deadline = Date.now() + 10_000;
    while (this.running.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
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

  private async claimLoop(): Promise<void> {
    while (!this.stopped && this.running.size < this.concurrency) {
      const threadId = await this.claimNext().catch((error: unknown) => {
        console.error("[tandem] claiming a thread failed:", error instanceof Error ? error.message : error);
        return null;
      });
      if (!threadId) return;
      void this.runThread(threadId);
    }
  }

  private async claimNext(): Promise<string | null> {
    const rows = await this.database.sql.query<{ id: string }>(
      `UPDATE threads SET lease_owner = $1, lease_expires_at = now() + ($2 || ' milliseconds')::interval
       WHERE id = (
         SELECT id FROM threads
         WHERE runnable AND terminated_at IS NULL AND (lease_expires_at IS NULL OR lease_expires_at < now())
           AND NOT (id = ANY($3::uuid[]))
         ORDER BY updated_at
         LIMIT 1
         FOR UPDATE SKIP LOCKED
       )
       RETURNING id`,
      [this.owner, String(this.leaseMs), [...this.running.keys()]],
    );
    return rows[0]?.id ?? null;
  }

  private async renewLease(threadId: string): Promise<boolean> {
    const rows = await this.database.sql.query(
      `UPDATE threads SET lease_expires_at = now() + ($3 || ' milliseconds')::interval
       WHERE id = $1 AND lease_owner = $2 RETURNING id`,
      [threadId, this.owner, String(this.leaseMs)],
    );
    return rows.length > 0;
  }

  private async releaseLease(threadId: string): Promise<void> {
    await this.database.sql.query(
      "UPDATE threads SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2",
      [threadId, this.owner],
    );
  }

  private async runThread(threadId: string): Promise<void> {
    const controller = new AbortController();
    this.running.set(threadId, controller);
    const renewal = setInterval(
      () => {
        void this.renewLease(threadId).then(
          (held) => held || controller.abort(),
          () => controller.abort(),
        );
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    const runner = this.runnerFor(this.owner);
    let outcome: StepOutcome = "continue";
    try {
      while (outcome === "continue" && !controller.signal.aborted && !this.stopped) {
        outcome = await runner.runStep(threadId, controller.signal);
      }
    } catch (error) {
      console.error(
        `[tandem] thread ${threadId} step failed; it will be retried:`,
        error instanceof Error ? error.message : error,
      );
      outcome = "aborted";
      // Back off before handing the thread back, so a persistent fault cannot spin.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      clearInterval(renewal);
      // Parked threads released their lease in their last commit; anything else is handed back
      // before this thread stops counting as running, so a shutdown waits for the hand-back.
      if (outcome !== "parked") await this.releaseLease(threadId).catch(() => {});
      if (this.running.get(threadId) === controller) this.running.delete(threadId);
      this.wake();
    }
  }
}
