// The child registry (spec §7.11) and subagent invocations in Postgres. A registry row links a
// child thread to its parent; an invocation is one piece of work the parent gave a child (its spawn,
// or one subagent_message) and ends exactly once, when the child's session ends.
import type { RegistryEntry } from "@/lib/contracts/events";
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { NewEvent } from "./event-log";
import {
  type InvocationOutcome,
  settleOpenInvocations as settleInvocationsOfChild,
} from "./invocation-lifecycle";
import type { ThreadRow } from "./thread-row";

export interface SubagentLink {
  child_id: string;
  parent_id: string;
  tool_name: string;
  name: string;
  title: string | null;
  description: string;
  blocking: boolean;
  resumable: boolean;
  receives_messages: "side_a" | "side_b" | null;
  parent_communication: "implicit" | "explicit";
  spawn_call_id: string;
  spawn_group_id: string | null;
  status: string;
  created_at: number;
  updated_at: number;
}

/** The spec's SubagentRegistryEntry, plus the child's thread status and agent (lib/contracts/events.ts). */
export type SubagentRegistryEntry = RegistryEntry;

const LINK_COLUMNS = `child_id, parent_id, tool_name, name, title, description, blocking, resumable, receives_messages,
  parent_communication, spawn_call_id, spawn_group_id, status, created_at, updated_at`;

function toLink(raw: Record<string, unknown>): SubagentLink {
  return {
    ...(raw as unknown as SubagentLink),
    created_at: Number(raw.created_at),
    updated_at: Number(raw.updated_at),
  };
}

const LINK_FIELDS: (keyof SubagentLink)[] = [
  "child_id",
  "parent_id",
  "tool_name",
  "name",
  "title",
  "description",
  "blocking",
  "resumable",
  "receives_messages",
  "parent_communication",
  "spawn_call_id",
  "spawn_group_id",
  "status",
  "created_at",
  "updated_at",
];

export async function insertLinks(tx: SqlExecutor, links: readonly SubagentLink[]): Promise<void> {
  if (links.length === 0) return;
  const values: unknown[] = [];
  const rows = links.map((link, index) => {
    for (const field of LINK_FIELDS) values.push(link[field]);
    return `(${LINK_FIELDS.map((_, offset) => `$${index * LINK_FIELDS.length + offset + 1}`).join(", ")})`;
  });
  await tx.query(`INSERT INTO subagents (${LINK_COLUMNS}) VALUES ${rows.join(", ")}`, values as never[]);
}

export async function findLinkBySpawnCall(
  db: SqlExecutor,
  parentId: string,
  callId: string,
): Promise<SubagentLink | null> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${LINK_COLUMNS} FROM subagents WHERE parent_id = $1 AND spawn_call_id = $2`,
    [parentId, callId],
  );
  return rows[0] ? toLink(rows[0]) : null;
}

export async function findLinkOfChild(db: SqlExecutor, childId: string): Promise<SubagentLink | null> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${LINK_COLUMNS} FROM subagents WHERE child_id = $1`,
    [childId],
  );
  return rows[0] ? toLink(rows[0]) : null;
}

export async function listLinks(db: SqlExecutor, parentId: string): Promise<SubagentLink[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${LINK_COLUMNS} FROM subagents WHERE parent_id = $1 ORDER BY created_at, child_id`,
    [parentId],
  );
  return rows.map(toLink);
}

/** The registry of a parent, joined with each child's thread. */
export async function registryOf(db: SqlExecutor, parentId: string): Promise<SubagentRegistryEntry[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${REGISTRY_COLUMNS} ${REGISTRY_FROM} WHERE s.parent_id = $1 ORDER BY s.created_at, s.child_id`,
    [parentId],
  );
  return rows.map(toRegistryEntry);
}

export function toRegistryEntry(row: Record<string, unknown>): SubagentRegistryEntry {
  return {
    reference: String(row.child_id),
    name: String(row.name),
    ...(row.title ? { title: String(row.title) } : {}),
    description: String(row.description ?? ""),
    resumable: row.resumable === true,
    blocking: row.blocking === true,
    ...(row.thread_name ? { threadName: String(row.thread_name) } : {}),
    ...(row.spawn_group_id ? { spawnGroupId: String(row.spawn_group_id) } : {}),
    createdAt: Number(row.created_at),
    status: String(row.status),
    parentCommunication: row.parent_communication === "explicit" ? "explicit" : "implicit",
    agent: String(row.agent_name),
    threadStatus: String(row.thread_status),
  };
}

/** Children of this parent created through one tools entry that are not terminated (maxInstances). */
export async function liveInstances(
  db: SqlExecutor,
  parentId: string,
  toolName: string,
): Promise<{ name: string; reference: string }[]> {
  const rows = await db.query<{ name: string; child_id: string }>(
    `SELECT s.name, s.child_id FROM subagents s JOIN threads t ON t.id = s.child_id
     WHERE s.parent_id = $1 AND s.tool_name = $2 AND t.terminated_at IS NULL ORDER BY s.created_at`,
    [parentId, toolName],
  );
  return rows.map((row) => ({ name: String(row.name), reference: String(row.child_id) }));
}

/** Children of this parent still at work (not ended). */
export async function countActiveChildren(db: SqlExecutor, parentId: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM threads WHERE parent_id = $1 AND status IN ('queued', 'running')`,
    [parentId],
  );
  return Number(rows[0]?.count ?? 0);
}

/** Threads at work across the whole database. */
export async function countActiveThreads(db: SqlExecutor): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM threads WHERE status IN ('queued', 'running')`,
  );
  return Number(rows[0]?.count ?? 0);
}

export { setLinkStatus } from "./registry-lifecycle";

/**
 * A `registry` event on the parent: the whole registry while it has at most this many entries, then
 * only the changed entries with `partial: true` (clients merge by `reference`), so a fan-out of
 * hundreds of children costs one small row per change, not the whole registry each time.
 */
export const FULL_REGISTRY_EVENT_LIMIT = 20;

const REGISTRY_COLUMNS = `s.child_id, s.name, s.title, s.description, s.resumable, s.blocking, s.spawn_group_id,
    s.created_at, s.status, s.parent_communication, t.agent_name, t.name AS thread_name, t.status AS thread_status`;
const REGISTRY_FROM = "FROM subagents s JOIN threads t ON t.id = s.child_id";

export async function registryEvent(
  db: SqlExecutor,
  parent: Pick<ThreadRow, "id" | "root_id">,
  changedChildIds: readonly string[],
): Promise<NewEvent> {
  const changed = await db.query<Record<string, unknown>>(
    `SELECT ${REGISTRY_COLUMNS}, (SELECT count(*)::int FROM subagents WHERE parent_id = $1) AS total
     ${REGISTRY_FROM} WHERE s.child_id = ANY($2::uuid[]) ORDER BY s.created_at, s.child_id`,
    [parent.id, [...changedChildIds]],
  );
  const total = Number(changed[0]?.total ?? 0);
  const event = (children: SubagentRegistryEntry[], partial: boolean): NewEvent => ({
    rootId: parent.root_id,
    threadId: parent.id,
    type: "registry",
    data: { thread_id: parent.id, children, partial, total },
  });
  if (total > FULL_REGISTRY_EVENT_LIMIT) return event(changed.map(toRegistryEntry), true);
  return event(await registryOf(db, parent.id), false);
}

export interface SubagentInvocation {
  id: string;
  child_id: string;
  parent_id: string;
  call_id: string;
  blocking: boolean;
  status: "pending" | InvocationOutcome;
  result: string | null;
  attachments: unknown[];
  created_at: number;
  finished_at: number | null;
}

const INVOCATION_COLUMNS =
  "id, child_id, parent_id, call_id, blocking, status, result, attachments, created_at, finished_at";

function toInvocation(raw: Record<string, unknown>): SubagentInvocation {
  return {
    ...(raw as unknown as SubagentInvocation),
    attachments: (typeof raw.attachments === "string" ? JSON.parse(raw.attachments) : raw.attachments) as [],
    created_at: Number(raw.created_at),
    finished_at: raw.finished_at === null || raw.finished_at === undefined ? null : Number(raw.finished_at),
  };
}

type NewInvocation = Pick<
  SubagentInvocation,
  "id" | "child_id" | "parent_id" | "call_id" | "blocking" | "created_at"
>;

export async function insertInvocations(
  tx: SqlExecutor,
  invocations: readonly NewInvocation[],
): Promise<void> {
  if (invocations.length === 0) return;
  const values: unknown[] = [];
  const rows = invocations.map((invocation, index) => {
    values.push(
      invocation.id,
      invocation.child_id,
      invocation.parent_id,
      invocation.call_id,
      invocation.blocking,
      invocation.created_at,
    );
    const p = (offset: number) => `$${index * 6 + offset}`;
    return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, 'pending', ${p(6)})`;
  });
  await tx.query(
    `INSERT INTO subagent_invocations (id, child_id, parent_id, call_id, blocking, status, created_at)
     VALUES ${rows.join(", ")}`,
    values as never[],
  );
}

export const insertInvocation = (tx: SqlExecutor, invocation: NewInvocation) =>
  insertInvocations(tx, [invocation]);

export async function findInvocation(
  db: SqlExecutor,
  parentId: string,
  callId: string,
): Promise<SubagentInvocation | null> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${INVOCATION_COLUMNS} FROM subagent_invocations WHERE parent_id = $1 AND call_id = $2`,
    [parentId, callId],
  );
  return rows[0] ? toInvocation(rows[0]) : null;
}

/**
 * Ends the child's open invocations whose input it has taken in (a subagent_message still waiting in
 * its inbox belongs to the next session, unless `all`); returns the ones this call ended.
 */
export async function settleOpenInvocations(
  tx: SqlExecutor,
  childId: string,
  outcome: { status: InvocationOutcome; result: string; attachments: unknown[] },
  now: number,
  all = false,
): Promise<SubagentInvocation[]> {
  const rows = await settleInvocationsOfChild<Record<string, unknown>>(
    tx,
    childId,
    { ...outcome, now },
    { all, returning: INVOCATION_COLUMNS },
  );
  return rows.map(toInvocation).sort((left, right) => left.created_at - right.created_at);
}

/** The registry rows of these children (a fork reads the rows of the threads it copies). */
export async function linksOfChildren(db: SqlExecutor, childIds: readonly string[]): Promise<SubagentLink[]> {
  if (childIds.length === 0) return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${LINK_COLUMNS} FROM subagents WHERE child_id = ANY($1::uuid[]) ORDER BY created_at, child_id`,
    [[...childIds]],
  );
  return rows.map(toLink);
}

/** Every invocation of these children, oldest first. */
export async function invocationsOfChildren(
  db: SqlExecutor,
  childIds: readonly string[],
): Promise<SubagentInvocation[]> {
  if (childIds.length === 0) return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${INVOCATION_COLUMNS} FROM subagent_invocations WHERE child_id = ANY($1::uuid[]) ORDER BY created_at, id`,
    [[...childIds]],
  );
  return rows.map(toInvocation);
}

/** Inserts invocations as they are (status, result, times): a fork's copies, in one statement. */
export async function insertInvocationCopies(
  tx: SqlExecutor,
  invocations: readonly SubagentInvocation[],
): Promise<void> {
  if (invocations.length === 0) return;
  const values: unknown[] = [];
  const rows = invocations.map((invocation, index) => {
    values.push(
      invocation.id,
      invocation.child_id,
      invocation.parent_id,
      invocation.call_id,
      invocation.blocking,
      invocation.status,
      invocation.result,
      JSON.stringify(invocation.attachments),
      invocation.created_at,
      invocation.finished_at,
    );
    const p = (offset: number) => `$${index * 10 + offset}`;
    return `(${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::uuid, ${p(4)}, ${p(5)}::boolean, ${p(6)}, ${p(7)}, ${p(8)}::text::jsonb, ${p(9)}::bigint, ${p(10)}::bigint)`;
  });
  await tx.query(
    `INSERT INTO subagent_invocations (${INVOCATION_COLUMNS}) VALUES ${rows.join(", ")}`,
    values as never[],
  );
}
