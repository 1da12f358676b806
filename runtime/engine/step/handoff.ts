// Handoff (spec notes §2.5): after the step's tools ran, the thread's agent becomes the target,
// history is kept, side A of the new agent takes the next step; a configured
// initUserMessageProperty becomes a real user message built from the call's arguments.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { appendEvents, type NewEvent } from "../../store/event-log";
import type { ExecutionState } from "../../store/messages";
import { messageEvent, telemetryEvent, threadEvent } from "../../store/thread-events";
import { apply, TransitionRefusedError } from "../../store/thread-lifecycle";
import type { ThreadRow } from "../../store/thread-row";
import type { ThreadChanges } from "../../store/thread-store";
import type { ToolCatalog } from "../tool-catalog";
import type { ExecutedCallRecord } from "./tool-call-records";
import type { RunnerContext } from "./types";

/** Hands the thread to the agent of `handoff`, in the step's last transaction (after `events`). */
export async function applyHandoff(
  ctx: RunnerContext,
  tx: SqlExecutor,
  row: ThreadRow,
  handoff: ExecutedCallRecord,
  catalog: ToolCatalog,
  events: NewEvent[],
  extra: ThreadChanges,
): Promise<void> {
  const target = handoff.handoffTo ?? handoff.name;
  const entry = catalog.entries.get(handoff.name);
  const config = entry?.kind === "handoff" ? entry.config : undefined;
  const next = await ctx.commits.nextSeq(tx, row.id);
  const initProperty = config?.initUserMessageProperty;
  const initValue =
    initProperty && handoff.args && typeof handoff.args === "object"
      ? (handoff.args as Record<string, unknown>)[initProperty]
      : undefined;
  const initMessages =
    initValue === undefined || initValue === null
      ? []
      : await ctx.commits.insert(tx, row.id, [
          {
            role: "user",
            side: "b",
            content: typeof initValue === "string" ? initValue : JSON.stringify(initValue),
          },
        ]);
  const execution: ExecutionState = {
    ...row.execution,
    currentSide: "a",
    turnSteps: 0,
    turnStartSeq: Number(next),
  };
  const updated = await apply(
    tx,
    row.id,
    "continueRun",
    ctx.commits.withMessageSeq(row.id, { ...extra, agentName: target, execution }),
  );
  if (!updated) throw new TransitionRefusedError("continueRun", row.id, row.status);
  const agent = entry?.kind === "handoff" ? entry.agent : undefined;
  await appendEvents(tx, [
    ...events,
    telemetryEvent(row, {
      type: "agent_handoff",
      new_agent_id: target,
      new_agent_title: agent?.title ?? null,
    }),
    ...initMessages.map((message) => messageEvent(updated, message)),
    threadEvent(updated),
  ]);
}
