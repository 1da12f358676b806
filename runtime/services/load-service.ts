// Backpressure you can see (issue 19): how much work waits for a scheduler and how much runs, across
// every process on this database, plus what this process holds: its threads, its busy step slots, and its model calls in
// flight and queued behind a provider's limit. Read by GET /api/health and the studio's status line.
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import type { SqlClient } from "@/lib/db/sql-client";
import { modelCallsInFlight } from "../models/in-flight";
import type { Scheduler } from "../scheduler/scheduler";
import { readThreadLoad } from "../store/thread-load";

export class LoadService {
  constructor(
    private readonly sql: SqlClient,
    private readonly scheduler: Scheduler,
  ) {}

  async read(): Promise<RuntimeLoad> {
    const load = await readThreadLoad(this.sql);
    const calls = modelCallsInFlight();
    return {
      threads: {
        waiting: load.waiting,
        oldest_waiting_ms:
          load.oldestQueuedSince === null
            ? null
            : Math.max(0, Math.round((load.nowUs - load.oldestQueuedSince) / 1000)),
        running: load.running,
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
