// Backpressure you can see (issue 19): how much work waits for a scheduler and how much runs, across
// every process on this database, plus what this process holds: its threads, its busy step slots, and its model calls in
// flight and queued behind a provider's limit. Read by GET /api/health and the studio's status line.
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import type { SqlClient } from "@/lib/db/sql-client";
import { modelCallsInFlight } from "../models/in-flight";
import type { Scheduler } from "../scheduler/scheduler";

// Waiting and running as the scheduler's claim sees them (runnable, not terminated; a lease that has
// expired counts as waiting: the next claim takes it over).
const LOAD_SQL = `SELECT
    count(*) FILTER (WHERE lease_expires_at IS NULL OR lease_expires_at < now())::int AS waiting,
    min(queued_since) FILTER (WHERE lease_expires_at IS NULL OR lease_expires_at < now()) AS oldest_queued_since,
    count(*) FILTER (WHERE lease_expires_at >= now())::int AS running,
    (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS now_us
  FROM threads WHERE runnable AND terminated_at IS NULL`;

export class LoadService {
  constructor(
    private readonly sql: SqlClient,
    private readonly scheduler: Scheduler,
  ) {}

  async read(): Promise<RuntimeLoad> {
    const [row] = await this.sql.query<Record<string, unknown>>(LOAD_SQL);
    const oldest = row?.oldest_queued_since;
    const nowUs = Number(row?.now_us ?? Date.now() * 1000);
    const calls = modelCallsInFlight();
    return {
      threads: {
        waiting: Number(row?.waiting ?? 0),
        oldest_waiting_ms:
          oldest === null || oldest === undefined
            ? null
            : Math.max(0, Math.round((nowUs - Number(oldest)) / 1000)),
        running: Number(row?.running ?? 0),
      },
      this_process: {
        running: this.scheduler.inFlight,
        max_claimed: this.scheduler.maxClaimedThreads,
        steps_active: this.scheduler.stepsActive,
        concurrency: this.scheduler.maxConcurrency,
      },
      model_calls: {
        in_flight: calls.total,
        by_provider: calls.byProvider,
        queued: Object.values(calls.queuedByProvider).reduce((sum, count) => sum + count, 0),
        queued_by_provider: calls.queuedByProvider,
        providers: calls.endpoints,
      },
      commits: this.sql.commitStats(),
    };
  }
}
