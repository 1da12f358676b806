// Read-only queries behind the threads API that need more than one row: the filtered list, a
// thread's logs (model calls with their requests resolved, tool runs) and its subtree with usage
// rolled up. ThreadService checks the thread exists and calls these.
import type { ThreadTreeNode } from "@/lib/contracts/thread";
import type { ThreadListFilter } from "@/lib/contracts/thread-list-query";
import type { SqlClient } from "@/lib/db/sql-client";
import { resolveRequests } from "../engine/request-log";
import { listThreadPage, subtreeRowsWithLinks, threadLogRows } from "../store/thread-reads";
import { type ThreadRow, type ThreadView, toThreadRow, toThreadView } from "../store/thread-row";
import { isUuid } from "./project-service";

/** A listed thread: the thread view plus its first user message (`title`, cut to 200 characters). */
export type ListedThread = ThreadView & { title: string | null };

/**
 * Threads newest first, filtered (API.md plus the filters of docs/runtime.md). `search` matches,
 * case-insensitively as a substring, the thread id, the agent name, the instance name and the
 * thread's first user message; every listed thread carries that message as `title`.
 */
export async function listThreads(
  sql: SqlClient,
  filter: ThreadListFilter,
): Promise<{ threads: ListedThread[]; total: number; hasMore: boolean }> {
  const empty = { threads: [], total: 0, hasMore: false };
  if (filter.projectId && !isUuid(filter.projectId)) return empty;
  if (filter.parentId && !isUuid(filter.parentId)) return empty;
  const { rows, total } = await listThreadPage(sql, filter);
  const threads = rows.map(({ row, title }) => ({ ...toThreadView(row), title }));
  return { threads, total, hasMore: filter.offset + threads.length < total };
}

/** The model calls and tool runs of a thread (`GET /threads/:id/logs`). */
export async function threadLogs(sql: SqlClient, id: string) {
  const { modelCalls, toolRuns: toolCalls } = await threadLogRows(sql, id);
  // Requests are stored as deltas against the previous request of the same side (request-log.ts).
  const requests = resolveRequests(
    modelCalls.map((row) => ({ id: String(row.id), request: parseJson(row.request) })),
  );
  return {
    model_calls: modelCalls.map((row) => ({
      ...row,
      request: requests.get(String(row.id)) ?? null,
      response: parseJson(row.response),
      cost_usd: Number(row.cost_usd),
      created_at: Number(row.created_at),
    })),
    tool_calls: toolCalls.map((row) => ({
      ...row,
      args: parseJson(row.args),
      started_at: Number(row.started_at),
      finished_at: row.finished_at === null ? null : Number(row.finished_at),
      duration_ms:
        row.finished_at === null ? null : (Number(row.finished_at) - Number(row.started_at)) / 1000,
    })),
  };
}

/** The thread hierarchy under `id`, one query, with each node's own usage and its subtree's. */
export async function threadTree(sql: SqlClient, root: Pick<ThreadRow, "id">) {
  const rows = await subtreeRowsWithLinks(sql, root.id);
  const nodes = new Map<string, ThreadTreeNode>();
  const order: ThreadTreeNode[] = [];
  for (const raw of rows) {
    const row = toThreadRow(raw);
    const usage = toThreadView(row).usage;
    const node: ThreadTreeNode = {
      id: row.id,
      agent_id: row.agent_name,
      name:
        row.name ??
        (raw.instance_name === null || raw.instance_name === undefined ? null : String(raw.instance_name)),
      status: row.status,
      registry_status:
        raw.registry_status === null || raw.registry_status === undefined
          ? null
          : String(raw.registry_status),
      blocking:
        raw.link_blocking === null || raw.link_blocking === undefined ? null : raw.link_blocking === true,
      resumable:
        raw.link_resumable === null || raw.link_resumable === undefined ? null : raw.link_resumable === true,
      parent_id: row.parent_id,
      depth: row.depth,
      usage,
      subtree_usage: { ...usage },
      children: [],
    };
    nodes.set(row.id, node);
    order.push(node);
    if (row.parent_id && row.id !== root.id) nodes.get(row.parent_id)?.children.push(node);
  }
  // Roll usage up the tree: deepest nodes first.
  for (const node of [...order].reverse()) {
    const parent = node.parent_id && node.id !== root.id ? nodes.get(node.parent_id) : undefined;
    if (!parent) continue;
    parent.subtree_usage.input_tokens += node.subtree_usage.input_tokens;
    parent.subtree_usage.output_tokens += node.subtree_usage.output_tokens;
    parent.subtree_usage.cost_usd += node.subtree_usage.cost_usd;
  }
  return { root: nodes.get(root.id)! };
}

/** A JSON column as the driver returned it (text or already parsed). */
export function parseJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}
