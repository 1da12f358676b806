// Diff (issue 21, API.md "Replay, fork and diff"): two runs — each a thread with its subtree —
// loaded in a few queries and aligned by lib/runs/run-diff.ts (message by message, children paired
// by spawn order), with what each run cost: tokens, money, model calls and their latency.
import "server-only";
import type { SqlClient } from "@/lib/db/sql-client";
import { diffRuns, type RunDiff, type RunMessage, type RunTree } from "@/lib/runs/run-diff";
import { NotFoundError } from "../errors";
import type { StoredToolCall } from "../store/messages";
import { modelCallTotalsOf, runThreadRows, spawnLinksOf, topLevelMessageRows } from "../store/run-diff-reads";
import { isUuid } from "./project-service";

/** A run's size limit for a diff: beyond it the answer would be too large to read anyway. */
const MAX_THREADS = 2_000;
const MAX_MESSAGES = 50_000;

export interface RunSummary {
  id: string;
  project_id: string;
  agent_id: string;
  name: string | null;
  status: string;
  created_at: number;
  updated_at: number;
  /** Threads in the run (the root and every descendant). */
  threads: number;
  usage: { input_tokens: number; output_tokens: number; cost_usd: number };
  subtree_usage: { input_tokens: number; output_tokens: number; cost_usd: number };
  model_calls: number;
  /** The model calls' latency, summed over the subtree. */
  model_latency_ms: number;
  /** From the root's creation to when it last stopped working (`finished_at`; its last change while it works). */
  duration_ms: number;
}

export type ThreadDiff = RunDiff & { threads: { a: RunSummary; b: RunSummary } };

interface LoadedRun {
  tree: RunTree;
  summary: RunSummary;
}

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

export class ThreadDiffService {
  constructor(private readonly sql: SqlClient) {}

  async diff(aId: string, bId: string): Promise<ThreadDiff> {
    const [a, b] = await Promise.all([this.load(aId), this.load(bId)]);
    return { ...diffRuns(a.tree, b.tree), threads: { a: a.summary, b: b.summary } };
  }

  /** A run: its thread tree with top-level messages and children in spawn order, and its totals. */
  async load(rootId: string): Promise<LoadedRun> {
    if (!isUuid(rootId)) throw new NotFoundError("Thread", rootId);
    const threads = await runThreadRows(this.sql, { rootId, limit: MAX_THREADS });
    const root = threads[0];
    if (!root) throw new NotFoundError("Thread", rootId);
    const ids = threads.map((thread) => String(thread.id));
    const [messageRows, links, calls] = await Promise.all([
      topLevelMessageRows(this.sql, { threadIds: ids, limit: MAX_MESSAGES }),
      spawnLinksOf(this.sql, ids),
      modelCallTotalsOf(this.sql, ids),
    ]);
    const messagesOf = new Map<string, RunMessage[]>(ids.map((id) => [id, []]));
    for (const row of messageRows) messagesOf.get(String(row.thread_id))?.push(toRunMessage(row));
    const byId = new Map(threads.map((thread) => [String(thread.id), thread]));
    const linksOf = new Map<string, typeof links>();
    for (const link of links) {
      if (!byId.has(link.child_id)) continue;
      linksOf.set(link.parent_id, [...(linksOf.get(link.parent_id) ?? []), link]);
    }
    const build = (id: string): RunTree => {
      const row = byId.get(id)!;
      const messages = messagesOf.get(id) ?? [];
      // Spawn order: where the spawning call sits in the parent's history, then creation.
      const callOrder = new Map<string, number>();
      messages.forEach((message, index) => {
        message.tool_calls?.forEach((call, callIndex) => {
          callOrder.set(call.id, index * 1_000 + callIndex);
        });
      });
      const children = [...(linksOf.get(id) ?? [])].sort(
        (left, right) =>
          (callOrder.get(left.spawn_call_id) ?? Number.MAX_SAFE_INTEGER) -
            (callOrder.get(right.spawn_call_id) ?? Number.MAX_SAFE_INTEGER) ||
          Number(left.created_at) - Number(right.created_at) ||
          left.child_id.localeCompare(right.child_id),
      );
      return {
        thread: {
          thread_id: id,
          agent: String(row.agent_name),
          name: (row.name as string | null) ?? null,
          status: String(row.status),
        },
        messages,
        children: children.map((link) => ({ spawnCallId: link.spawn_call_id, tree: build(link.child_id) })),
      };
    };
    const usage = (rows: Record<string, unknown>[]) => ({
      input_tokens: rows.reduce((sum, row) => sum + Number(row.input_tokens), 0),
      output_tokens: rows.reduce((sum, row) => sum + Number(row.output_tokens), 0),
      cost_usd: rows.reduce((sum, row) => sum + Number(row.cost_usd), 0),
    });
    const createdAt = Number(root.created_at);
    const updatedAt = Number(root.updated_at);
    // When the root stopped working, not its last change: a later stop or terminate moves updated_at.
    const endedAt = root.finished_at === null ? updatedAt : Number(root.finished_at);
    return {
      tree: build(String(root.id)),
      summary: {
        id: String(root.id),
        project_id: String(root.project_id),
        agent_id: String(root.agent_name),
        name: (root.name as string | null) ?? null,
        status: String(root.status),
        created_at: createdAt,
        updated_at: updatedAt,
        threads: threads.length,
        usage: usage([root]),
        subtree_usage: usage(threads),
        model_calls: calls.count,
        model_latency_ms: calls.latencyMs,
        duration_ms: Math.max(0, Math.round((endedAt - createdAt) / 1000)),
      },
    };
  }
}

function toRunMessage(row: Record<string, unknown>): RunMessage {
  const toolCalls = json(row.tool_calls) as StoredToolCall[] | null;
  const attachments = (json(row.attachments) ?? []) as { path?: string }[];
  return {
    id: String(row.id),
    thread_id: String(row.thread_id),
    seq: Number(row.seq),
    role: row.role as RunMessage["role"],
    side: (row.side as RunMessage["side"]) ?? null,
    content: (row.content as string | null) ?? null,
    name: (row.name as string | null) ?? null,
    tool_calls: toolCalls
      ? toolCalls.map((call) => ({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        }))
      : null,
    tool_call_id: (row.tool_call_id as string | null) ?? null,
    tool_status: (row.tool_status as RunMessage["tool_status"]) ?? null,
    silent: Boolean(row.silent),
    attachments: attachments.map((attachment) => String(attachment.path ?? "")),
  };
}
