// The rows of scoped variable bootstrap requests (spec §7.8, `subagent_env_requests`): a subagent
// call whose child graph lacks required variables is stored as a request until the values arrive
// (`env-requests.ts` boots the child then). Values are never written to these rows.
import { randomUUID } from "node:crypto";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import type { ResolvedSubagentToolConfig } from "@/lib/standard";
import { NotFoundError } from "../errors";
import { nowMicroseconds } from "./thread-row";

export interface EnvRequestPayload {
  message: string;
  attachmentPaths: string[];
  instanceName: string | null;
  description: string | null;
  resumable: boolean;
}

export interface EnvRequest {
  id: string;
  parent_id: string;
  tool_name: string;
  call_id: string;
  payload: EnvRequestPayload & { config?: ResolvedSubagentToolConfig };
  required: string[];
  missing: string[];
  child_id: string | null;
  created_at: number;
  resolved_at: number | null;
}

function toRequest(raw: Record<string, unknown>): EnvRequest {
  const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
  return {
    ...(raw as unknown as EnvRequest),
    payload: json(raw.payload) as EnvRequest["payload"],
    required: json(raw.required) as string[],
    missing: json(raw.missing) as string[],
    created_at: Number(raw.created_at),
    resolved_at: raw.resolved_at === null || raw.resolved_at === undefined ? null : Number(raw.resolved_at),
  };
}

const COLUMNS =
  "id, parent_id, tool_name, call_id, payload, required, missing, child_id, created_at, resolved_at";

export async function createEnvRequest(
  db: SqlClient,
  input: {
    parentId: string;
    toolName: string;
    callId: string;
    payload: EnvRequestPayload & { config?: ResolvedSubagentToolConfig };
    required: string[];
    missing: string[];
  },
): Promise<EnvRequest> {
  const id = randomUUID();
  const rows = await db.query<Record<string, unknown>>(
    `INSERT INTO subagent_env_requests (id, parent_id, tool_name, call_id, payload, required, missing, created_at)
     VALUES ($1, $2, $3, $4, $5::text::jsonb, $6::text::jsonb, $7::text::jsonb, $8)
     RETURNING ${COLUMNS}`,
    [
      id,
      input.parentId,
      input.toolName,
      input.callId,
      JSON.stringify(input.payload),
      JSON.stringify(input.required),
      JSON.stringify(input.missing),
      nowMicroseconds(),
    ],
  );
  return toRequest(rows[0] as Record<string, unknown>);
}

export async function findEnvRequestByCall(
  db: SqlExecutor,
  parentId: string,
  callId: string,
): Promise<EnvRequest | null> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM subagent_env_requests WHERE parent_id = $1 AND call_id = $2`,
    [parentId, callId],
  );
  return rows[0] ? toRequest(rows[0]) : null;
}

export async function findEnvRequest(
  db: SqlExecutor,
  parentId: string,
  requestId: string,
): Promise<EnvRequest> {
  const uuid = /^[0-9a-f-]{36}$/i;
  const rows =
    uuid.test(parentId) && uuid.test(requestId)
      ? await db.query<Record<string, unknown>>(
          `SELECT ${COLUMNS} FROM subagent_env_requests WHERE id = $1 AND parent_id = $2`,
          [requestId, parentId],
        )
      : [];
  if (!rows[0]) throw new NotFoundError("Variables request", requestId);
  return toRequest(rows[0]);
}

/** The env requests of these parents (a fork reads those of the threads it copies). */
export async function envRequestsOf(db: SqlExecutor, parentIds: readonly string[]): Promise<EnvRequest[]> {
  if (parentIds.length === 0) return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM subagent_env_requests WHERE parent_id = ANY($1::uuid[]) ORDER BY created_at, id`,
    [[...parentIds]],
  );
  return rows.map(toRequest);
}

/** Inserts env requests as they are (a fork's copies), in one statement. */
export async function insertEnvRequestCopies(
  tx: SqlExecutor,
  requests: readonly EnvRequest[],
): Promise<void> {
  if (requests.length === 0) return;
  const values: unknown[] = [];
  const rows = requests.map((request, index) => {
    values.push(
      request.id,
      request.parent_id,
      request.tool_name,
      request.call_id,
      JSON.stringify(request.payload),
      JSON.stringify(request.required),
      JSON.stringify(request.missing),
      request.child_id,
      request.created_at,
      request.resolved_at,
    );
    const p = (offset: number) => `$${index * 10 + offset}`;
    return `(${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}, ${p(4)}, ${p(5)}::text::jsonb, ${p(6)}::text::jsonb, ${p(7)}::text::jsonb, ${p(8)}::uuid, ${p(9)}::bigint, ${p(10)}::bigint)`;
  });
  await tx.query(
    `INSERT INTO subagent_env_requests (${COLUMNS}) VALUES ${rows.join(", ")}`,
    values as never[],
  );
}

/** Locks a request's row for its answer: the child it booted already, if any (null when none). */
export async function lockEnvRequestChild(tx: SqlExecutor, requestId: string): Promise<string | null> {
  const locked = await tx.query<{ resolved_at: unknown; child_id: string | null }>(
    "SELECT resolved_at, child_id FROM subagent_env_requests WHERE id = $1 FOR UPDATE",
    [requestId],
  );
  return locked[0]?.child_id ?? null;
}

/** `resolveEnvRequest`: the request booted `childId`; it is answered from now on. */
export async function resolveEnvRequest(
  tx: SqlExecutor,
  resolved: { requestId: string; childId: string; resolvedAt: number },
): Promise<void> {
  await tx.query("UPDATE subagent_env_requests SET child_id = $2, resolved_at = $3 WHERE id = $1", [
    resolved.requestId,
    resolved.childId,
    resolved.resolvedAt,
  ]);
}
