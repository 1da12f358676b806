// Read-only statements behind the threads API that need more than one row: the filtered list (with
// each thread's first user message as its title), a thread's logs (model calls, tool runs), its
// subtree with the registry links, the usage summed over a subtree, and where a fork copy comes from.
// The services shape the views (runtime/services/thread-queries.ts, thread-service.ts).
import type { ThreadListFilter } from "@/lib/contracts/thread-list-query";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { THREAD_COLUMNS, type ThreadRow, toThreadRow } from "./thread-row";

const TITLE_LENGTH = 200;
const FIRST_USER_MESSAGE = `SELECT m.content FROM messages m WHERE m.thread_id = threads.id AND m.role = 'user'
  AND m.depth = 0 ORDER BY m.seq LIMIT 1`;

/** A search string as a literal inside ILIKE: backslash is Postgres's default LIKE escape character. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A listed thread's row and its first user message, cut to 200 characters (null when none). */
export interface ListedThreadRow {
  row: ThreadRow;
  title: string | null;
}

/**
 * One page of threads newest first, filtered, and how many match (two statements). `search` matches,
 * case-insensitively as a substring, the id, the agent name, the instance name and the first user
 * message. The ids in the filter must be uuids (the caller answers an empty page otherwise).
 */
export async function listThreadPage(
  db: SqlExecutor,
  filter: ThreadListFilter,
): Promise<{ rows: ListedThreadRow[]; total: number }> {
  const conditions: string[] = filter.rootsOnly ? ["parent_id IS NULL"] : [];
  const values: unknown[] = [];
  if (filter.projectId) {
    values.push(filter.projectId);
    conditions.push(`project_id = $${values.length}`);
  }
  if (filter.parentId) {
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
  const [{ total }] = (await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM threads ${where}`,
    values as never[],
  )) as [{ total: number }];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${THREAD_COLUMNS}, left((${FIRST_USER_MESSAGE}), ${TITLE_LENGTH}) AS title FROM threads ${where}
     ORDER BY created_at DESC, id LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, filter.limit, filter.offset] as never[],
  );
  return {
    rows: rows.map((row) => ({
      row: toThreadRow(row),
      title: typeof row.title === "string" ? row.title : null,
    })),
    total: Number(total),
  };
}

/** A thread's model calls (oldest first; requests as stored, deltas) and tool runs, as the driver returned them. */
export async function threadLogRows(
  db: SqlExecutor,
  threadId: string,
): Promise<{ modelCalls: Record<string, unknown>[]; toolRuns: Record<string, unknown>[] }> {
  const modelCalls = await db.query<Record<string, unknown>>(
    `SELECT id, side, model_name, answered_by, provider_model_id, request, response, error, input_tokens, output_tokens,
            cost_usd, latency_ms, created_at
     FROM model_calls WHERE thread_id = $1 ORDER BY created_at, id`,
    [threadId],
  );
  const toolRuns = await db.query<Record<string, unknown>>(
    `SELECT id, tool_call_id, name, args, status, result, started_at, finished_at
     FROM tool_runs WHERE thread_id = $1 ORDER BY started_at, id`,
    [threadId],
  );
  return { modelCalls, toolRuns };
}

/**
 * The thread and every descendant, by level then creation, each thread's columns with its registry
 * link (`link_blocking`, `link_resumable`, `registry_status`, `instance_name`; null for the root).
 */
export async function subtreeRowsWithLinks(
  db: SqlExecutor,
  rootId: string,
): Promise<Record<string, unknown>[]> {
  return db.query<Record<string, unknown>>(
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
    [rootId],
  );
}

/** Tokens and cost summed over the thread and all its descendants (zeros when it does not exist). */
export async function subtreeUsage(
  db: SqlExecutor,
  threadId: string,
): Promise<{ input_tokens: number; output_tokens: number; cost_usd: number }> {
  const [usage] = await db.query<Record<string, unknown>>(
    `WITH RECURSIVE subtree AS (
       SELECT id, input_tokens, output_tokens, cost_usd FROM threads WHERE id = $1
       UNION ALL SELECT t.id, t.input_tokens, t.output_tokens, t.cost_usd FROM threads t JOIN subtree s ON t.parent_id = s.id
     ) SELECT COALESCE(sum(input_tokens), 0)::bigint AS input_tokens, COALESCE(sum(output_tokens), 0)::bigint AS output_tokens,
              COALESCE(sum(cost_usd), 0)::float8 AS cost_usd FROM subtree`,
    [threadId],
  );
  return {
    input_tokens: Number(usage?.input_tokens ?? 0),
    output_tokens: Number(usage?.output_tokens ?? 0),
    cost_usd: Number(usage?.cost_usd ?? 0),
  };
}

/**
 * A fork's source, when it still exists: its name (or agent) and the position of `messageId` among
 * its visible top-level messages (null when the message is gone or not given).
 */
export async function forkSourceName(
  db: SqlExecutor,
  source: { threadId: string; messageId: string | null },
): Promise<{ name: string; messageNumber: number | null } | null> {
  const [row] = await db.query<Record<string, unknown>>(
    `SELECT COALESCE(t.name, t.agent_name) AS name,
       (SELECT count(*)::int FROM messages n WHERE n.thread_id = t.id AND n.depth = 0 AND NOT n.silent AND n.seq <= m.seq) AS number
     FROM threads t LEFT JOIN messages m ON m.thread_id = t.id AND m.id = $2::uuid WHERE t.id = $1::uuid`,
    [source.threadId, source.messageId],
  );
  if (!row) return null;
  return {
    name: String(row.name),
    messageNumber: row.number === null || row.number === undefined ? null : Number(row.number),
  };
}
