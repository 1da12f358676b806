// A thread's scheduled effects through the API: list them (`GET /api/threads/:id/effects?name=`) and
// cancel one that has not started (`DELETE /api/threads/:id/effects/:effectId`). The runner that
// runs them is runtime/effects/; the rows are runtime/store/effect-store.ts.
import "server-only";
import type { EffectView } from "@/lib/contracts/effect";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { ConflictError, NotFoundError } from "../errors";
import { cancelEffect, type EffectRow, findEffect, listEffects } from "../store/effect-store";
import { findThread } from "../store/thread-store";
import { isUuid } from "./project-service";

export function toEffectView(row: EffectRow): EffectView {
  return {
    id: row.id,
    name: row.name,
    args: row.args,
    run_at: row.run_at,
    status: row.status,
    attempts: row.attempts,
    ...(row.error !== null ? { error: row.error } : {}),
  };
}

export class EffectService {
  constructor(private readonly db: SqlExecutor) {}

  private async requireThread(threadId: string): Promise<void> {
    if (!isUuid(threadId) || !(await findThread(this.db, threadId)))
      throw new NotFoundError("Thread", threadId);
  }

  /** Every effect of the thread (any status), soonest first; `name` keeps one effect's. */
  async list(threadId: string, name?: string): Promise<EffectView[]> {
    await this.requireThread(threadId);
    return (await listEffects(this.db, threadId, { name })).map(toEffectView);
  }

  /** Cancels an effect that has not started; 409 once it runs or ran, 404 for an unknown one. */
  async cancel(threadId: string, effectId: string): Promise<{ cancelled: true }> {
    await this.requireThread(threadId);
    if (!isUuid(effectId)) throw new NotFoundError("Effect", effectId);
    const outcome = await cancelEffect(this.db, threadId, effectId);
    if (outcome === "not_found") throw new NotFoundError("Effect", effectId);
    if (outcome === "started") {
      const effect = await findEffect(this.db, threadId, effectId);
      throw new ConflictError(
        `Effect ${effectId} cannot be cancelled: it is ${effect?.status ?? "no longer scheduled"}.`,
        { status: effect?.status ?? null },
        "effect_not_cancellable",
      );
    }
    return { cancelled: true };
  }
}
