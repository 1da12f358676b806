// Replay's input gate (docs/runtime.md "Replay"): a thread's context depends on which inputs each
// drain took — its children's reports arrive in whatever groups timing makes. So the j-th drain of
// a replayed thread that has not diverged takes exactly the inputs the source's j-th drain took (the
// reports of the children that follow those the source heard from, the same other inputs), in the
// source's order (a group's messages are stored in the order drained), waits
// while any of them is missing and its child still works, and takes everything as usual once the
// recording can no longer say (the source drained fewer times, a child it waits for ended without
// that report, or the thread diverged). It also keeps the drain's place among the model calls: a
// running thread that has made fewer calls than the source had when it drained runs on undrained.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { withNumberedIds } from "@/lib/runs/replay-match";
import { type InboxMessagePayload, InboxMessagePayloadSchema } from "../../store/inbox-item";
import { drainedInputOf, waitingInputOf } from "../../store/inbox-reads";
import {
  anyThreadWorking,
  modelCallStartsOf,
  replayDrainState,
  replayPairsOf,
} from "../../store/replay-progress";
import type { ThreadRow } from "../../store/thread-row";
import { parkUntilInput } from "../../store/thread-scheduling";

export type ReplayDrainPlan =
  | { kind: "all" }
  /** Drain these inbox items only, in this order — the source's (the rest stay for later drains). */
  | { kind: "take"; ids: readonly string[] }
  /** An input the source had here has not arrived, and its child still works: park until it does. */
  | { kind: "wait" }
  /** Mid-run, the source made more model calls before this drain: run on without draining yet. */
  | { kind: "defer" };

const ALL: ReplayDrainPlan = { kind: "all" };

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

function payloadOf(raw: unknown): InboxMessagePayload | null {
  const parsed = InboxMessagePayloadSchema.safeParse(json(raw));
  return parsed.success ? parsed.data : null;
}

/** What makes two inputs the same input: the child a report comes from, else role, origin and text. */
function identity(payload: InboxMessagePayload, childOf: (id: string) => string): string {
  const child = payload.metadata.subagent_id;
  if (typeof child === "string") return `report:${childOf(child)}`;
  return `input:${payload.role}:${payload.fromHuman}:${String(withNumberedIds(payload.content))}`;
}

export async function replayDrainPlan(db: SqlExecutor, row: ThreadRow): Promise<ReplayDrainPlan> {
  const sourceId = row.execution.replayOf;
  if (!sourceId) return ALL;
  const state = await replayDrainState(db, row.id);
  if (!state || state.diverged) return ALL;
  const pendingInput = () => waitingInputOf(db, row.id);
  const [sourceItems, pending, followers, sourceCalls] = await Promise.all([
    drainedInputOf(db, sourceId),
    pendingInput(),
    replayPairsOf(db, row.root_id),
    modelCallStartsOf(db, sourceId),
  ]);
  const groups: { at: number; payloads: unknown[] }[] = [];
  for (const item of sourceItems) {
    const consumedAt = Number(item.consumed_at);
    if (consumedAt === groups.at(-1)?.at) groups.at(-1)!.payloads.push(item.payload);
    else groups.push({ at: consumedAt, payloads: [item.payload] });
  }
  const group = groups[Number(state.drains)];
  if (!group) return ALL;
  // A drain commits before the next model call starts (model_calls.created_at is its start).
  const callsBefore = sourceCalls.filter((call) => Number(call.created_at) < group.at).length;
  if (Number(state.calls) < callsBefore && row.status === "running") return { kind: "defer" };
  const expected = group.payloads;
  const followerOf = new Map(
    followers.map((entry) => [String(entry.source_thread_id), String(entry.thread_id)]),
  );
  const wanted: string[] = [];
  for (const raw of expected) {
    const payload = payloadOf(raw);
    if (!payload) return ALL;
    wanted.push(identity(payload, (id) => followerOf.get(id) ?? `unfollowed:${id}`));
  }
  const first = planFor(wanted, pending);
  if (first.kind !== "missing") return first;
  // Wait only for reports of children that still work; anything else will not come.
  const children = first.missing
    .filter((key) => key.startsWith("report:"))
    .map((key) => key.slice("report:".length));
  if (children.length === 0 || children.length < first.missing.length) return ALL;
  if (await anyThreadWorking(db, children)) return { kind: "wait" };
  // None of them works now, but one may have ended (its report committed with its end) after the
  // input above was read: read it again. What is still missing then will not come.
  const again = planFor(wanted, await pendingInput());
  return again.kind === "missing" ? ALL : again;
}

/** The waiting inputs that are the `wanted` ones, in their order, or the keys of those missing. */
function planFor(
  wanted: readonly string[],
  pending: readonly { id: string; payload: unknown }[],
): ReplayDrainPlan | { kind: "missing"; missing: string[] } {
  const available = new Map<string, string[]>();
  for (const item of pending) {
    const payload = payloadOf(item.payload);
    if (!payload) continue;
    const key = identity(payload, (id) => id);
    available.set(key, [...(available.get(key) ?? []), String(item.id)]);
  }
  const take: string[] = [];
  const missing: string[] = [];
  for (const key of wanted) {
    const id = available.get(key)?.shift();
    if (id) take.push(id);
    else missing.push(key);
  }
  return missing.length === 0 ? { kind: "take", ids: take } : { kind: "missing", missing };
}

/**
 * Parks a replayed thread whose next drain waits for a report (the plan is taken again under the
 * row lock): not runnable although input waits — the awaited report makes it runnable when it comes,
 * as a child's report does for a parent blocked on it. Should the plan no longer wait, it parks as
 * usual (runnable, so it runs again at once).
 */
export async function parkForReplayInput(
  tx: SqlExecutor,
  row: ThreadRow,
  park: () => Promise<void>,
): Promise<void> {
  const plan = await replayDrainPlan(tx, row);
  await park();
  if (plan.kind === "wait") await parkUntilInput(tx, row.id);
}
