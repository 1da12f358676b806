// Read-only queries behind the threads API that need more than one row: the filtered list, a
// thread's logs (model calls with their requests resolved, tool runs) and its subtree with usage
// rolled up. ThreadService checks the thread exists and calls these.
import type { ThreadTreeNode } from "@/lib/contracts/thread";
import type { ThreadListFilter } from "@/lib/contracts/thread-list-query";
import type { SqlClient } from "@/lib/db/sql-client";
import { resolveRequests } from "../engine/request-log";
import {
  THREAD_COLUMNS,
  type ThreadRow,
  type ThreadView,
  toThreadRow,
  toThreadView,
} from "../store/thread-row";
import { isUuid } from "./project-service";

/** A listed thread: the thread view plus its first user message (`title`, cut to 200 characters). */
export type ListedThread = ThreadView & { title: string | null };

const TITLE_LENGTH = 200;
const FIRST_USER_MESSAGE = `SELECT m.content FROM messages m WHERE m.thread_id = threads.id AND m.role = 'user'
  AND m.depth = 0 ORDER BY m.seq LIMIT 1`;

/** A search string as a literal inside ILIKE: backslash is Postgres's default LIKE escape character. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Threads newest first, filtered (API.md plus the filters of docs/runtime.md). `search` matches,
 * case-insensitively as a substring, the thread id, the agent name, the instance name and the
 * thread's first user message; every listed thread carries that message as `title`.
 */
export async function listThreads(
  sql: SqlClient,
  filter: ThreadListFilter,
): Promise<{ threads: ListedThread[]; total: number; hasMore: boolean }> {
  const conditions: string[] = filter.rootsOnly ? ["parent_id IS NULL"] : [];
  const values: unknown[] = [];
  const empty = { threads: [], total: 0, hasMore: false };
  if (filter.projectId) {
    if (!isUuid(filter.projectId)) return empty;
    values.push(filter.projectId);
    conditions.push(`project_id = $${values.length}`);
  }
  if (filter.parentId) {
    if (!isUuid(filter.parentId)) return empty;
    values.push(filter.parentId);
    conditions.push(`parent_id = $${values.length}`);
  }
  if (filter.statuses.length > 0) {
    values.push(filter.statuses);
    conditions.push(`status = ANY($${values.length}::text[])`);
  }
  if (filter.agentId) {
    values.push(filter.agentId);
    conditions.push(`agent_name = $${values.length}`);
  }
  if (filter.search) {
    values.push(`%${escapeLike(filter.search)}%`);
    const pattern = `$${values.length}`;
    conditions.push(
      `(id::text ILIKE ${pattern} OR agent_name ILIKE ${pattern} OR name ILIKE ${pattern} OR (${FIRST_USER_MESSAGE}) ILIKE ${pattern})`,
    );
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
  const [{ total }] = (await sql.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM threads ${where}`,
    values as never[],
  )) as [{ total: number }];
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT ${THREAD_COLUMNS}, left((${FIRST_USER_MESSAGE}), ${TITLE_LENGTH}) AS title FROM threads ${where}
     ORDER BY created_at DESC, id LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, filter.limit, filter.offset] as never[],
  );
  const threads = rows.map((row) => ({
    ...toThreadView(toThreadRow(row)),
    title: typeof row.title === "string" ? row.title : null,
  }));
  return { threads, total: Number(total), hasMore: filter.offset + threads.length < Number(total) };
}

/** The model calls and tool runs of a thread (`GET /threads/:id/logs`). */
export async function threadLogs(sql: SqlClient, id: string) {
  const modelCalls = await sql.query<Record<string, unknown>>(
    `SELECT id, side, model_name, answered_by, provider_model_id, request, response, error, input_tokens, output_tokens,
            cost_usd, latency_ms, created_at
     FROM model_calls WHERE thread_id = $1 ORDER BY created_at, id`,
    [id],
  );
  const toolCalls = await sql.query<Record<string, unknown>>(
    `SELECT id, tool_call_id, name, args, status, result, started_at, finished_at
     FROM tool_runs WHERE thread_id = $1 ORDER BY started_at, id`,
    [id],
  );
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
  const rows = await sql.query<Record<string, unknown>>(
    `WITH RECURSIVE subtree AS (
       SELECT id, 0 AS level FROM threads WHERE id = $1
       UNION ALL SELECT t.id, s.level + 1 FROM threads t JOIN subtree s ON t.parent_id = s.id
     )
     SELECT ${THREAD_COLUMNS.split(",")
       .map((column) => `t.${column.trim()}`)
       .join(", ")}, l.blocking AS link_blocking, l.resumable AS link_resumable, l.status AS registry_status,
            l.name AS instance_name
     FROM subtree s JOIN threads t ON t.id = s.id LEFT JOIN subagents l ON l.child_id = t.id
     ORDER BY s.level, t.created_at, t.id`,
    [root.id],
  );
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
