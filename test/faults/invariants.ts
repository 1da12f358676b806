// What must hold after any fault, for a whole tree (issue: reliability). Each check reads the
// stored truth (the thread's database and the HTTP API) and fails with the offending rows:
// - per-thread order: every thread's message numbers are 1..n, no gap, no duplicate;
// - every tool call answered exactly once (and, once a thread has parked, none left open);
// - every child ends exactly once: each invocation is finished once, and a child whose session
//   ended reports exactly once (a silent report for a non-blocking implicit call, the tool result
//   for a blocking one), never twice;
// - no committed step runs twice: no side of a thread sent the very same successful request twice;
// - the event log of the root reads back with strictly increasing ids, and an SSE subscriber that
//   reads from the start sees exactly those ids.
import postgres from "postgres";
import { expect } from "vitest";
import { EVENT_ID_STRIDE } from "@/runtime/store/event-log";
import type { ServerFixture } from "../support/fixture";
import { connectSse } from "../support/sse";

const TERMINAL = ["completed", "failed", "stopped", "terminated"];
const REPORT_PREFIX = "Subagent (reference: ";

interface ThreadRow {
  id: string;
  parent_id: string | null;
  status: string;
  message_seq: number;
}

interface InvocationRow {
  id: string;
  child_id: string;
  parent_id: string;
  call_id: string;
  blocking: boolean;
  finished_at: string | null;
  parent_communication: string;
}

interface MessageRow {
  thread_id: string;
  seq: number;
  role: string;
  side: string | null;
  content: string | null;
  tool_calls: { id: string }[] | null;
  tool_call_id: string | null;
  silent: boolean;
  subagent_id: string | null;
}

export async function checkInvariants(fixture: ServerFixture, rootId: string): Promise<void> {
  const url = fixture.databaseUrl;
  if (!url) throw new Error("The fault suite checks invariants on Postgres only.");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // One snapshot for the rows checked against each other (a message committed between two reads
    // would otherwise look like a thread whose message_seq lags its messages).
    const { threads, messages, invocations } = await sql.begin(
      "isolation level repeatable read read only",
      async (tx) => {
        const threads = await tx<ThreadRow[]>`
          SELECT id, parent_id, status, message_seq FROM threads WHERE root_id = ${rootId}`;
        const ids = threads.map((thread) => thread.id);
        const messages = await tx<MessageRow[]>`
          SELECT thread_id, seq, role, side, content, tool_calls, tool_call_id, silent, subagent_id
          FROM messages WHERE thread_id = ANY(${ids}::uuid[]) ORDER BY thread_id, seq`;
        const invocations = await tx<InvocationRow[]>`
          SELECT i.id, i.child_id, i.parent_id, i.call_id, i.blocking, i.finished_at::text AS finished_at,
                 s.parent_communication
          FROM subagent_invocations i JOIN subagents s ON s.child_id = i.child_id
          WHERE i.parent_id = ANY(${ids}::uuid[])`;
        return { threads: [...threads], messages: [...messages], invocations: [...invocations] };
      },
    );
    expect(threads.length, "the tree exists").toBeGreaterThan(0);
    const ids = threads.map((thread) => thread.id);
    const byThread = new Map<string, MessageRow[]>(ids.map((id) => [id, []]));
    for (const message of messages) byThread.get(message.thread_id)?.push(message);

    for (const thread of threads) {
      const own = byThread.get(thread.id) ?? [];
      // Per-thread order: 1..n.
      expect(
        own.map((message) => Number(message.seq)),
        `message numbers of thread ${thread.id}`,
      ).toEqual(own.map((_, index) => index + 1));
      expect(Number(thread.message_seq), `message_seq of thread ${thread.id}`).toBeGreaterThanOrEqual(
        own.length,
      );
      // Every tool call answered exactly once (open calls only while the thread still runs).
      const answers = new Map<string, number>();
      for (const message of own) {
        if (message.role === "tool" && message.tool_call_id)
          answers.set(message.tool_call_id, (answers.get(message.tool_call_id) ?? 0) + 1);
      }
      for (const [callId, count] of answers)
        expect(count, `answers to call ${callId} in ${thread.id}`).toBe(1);
      if (TERMINAL.includes(thread.status) || thread.status === "idle") {
        for (const message of own) {
          for (const call of message.tool_calls ?? []) {
            expect(
              answers.get(call.id) ?? 0,
              `answers to call ${call.id} in parked thread ${thread.id}`,
            ).toBe(1);
          }
        }
      }
    }

    // Every child ends exactly once and reports exactly once.
    const status = new Map(threads.map((thread) => [thread.id, thread.status]));
    for (const invocation of invocations) {
      const parentMessages = byThread.get(invocation.parent_id) ?? [];
      const reports = parentMessages.filter(
        (message) =>
          message.silent &&
          message.subagent_id === invocation.child_id &&
          (message.content ?? "").startsWith(REPORT_PREFIX),
      );
      const childEnded = TERMINAL.includes(status.get(invocation.child_id) ?? "");
      if (invocation.blocking) {
        expect(reports, `reports of blocking child ${invocation.child_id}`).toHaveLength(0);
      } else if (invocation.parent_communication === "implicit") {
        // A resumable child reports once per invocation; the reports of one child count its invocations.
        const finished = invocations.filter(
          (other) => other.child_id === invocation.child_id && other.finished_at !== null && !other.blocking,
        ).length;
        expect(reports.length, `reports of child ${invocation.child_id}`).toBe(finished);
      }
      if (childEnded) {
        expect(invocation.finished_at, `invocation ${invocation.id} of ended child`).not.toBeNull();
      }
    }

    // No committed step ran twice: no side sent the same successful request twice.
    for (const thread of threads) {
      const logs = await fixture.api<{
        model_calls: { side: string; error: string | null; request: unknown }[];
      }>("GET", `/api/threads/${thread.id}/logs`);
      expect(logs.status).toBe(200);
      const seen = new Set<string>();
      for (const call of logs.body.model_calls) {
        if (call.error !== null) continue;
        const key = `${call.side}|${JSON.stringify(call.request)}`;
        expect(seen.has(key), `a step of thread ${thread.id} (side ${call.side}) ran twice`).toBe(false);
        seen.add(key);
      }
    }

    // The event log: strictly increasing ids, and SSE from the start reads exactly those.
    const events = await sql<{ id: string }[]>`SELECT (e.id * ${EVENT_ID_STRIDE} + x.position - 1)::text AS id
      FROM events e, json_array_elements(e.batch) WITH ORDINALITY AS x(event, position)
      WHERE e.root_id = ${rootId} ORDER BY e.id, x.position`;
    const stored = events.map((event) => event.id);
    expect(new Set(stored).size).toBe(stored.length);
    const streamed = await readAllEvents(fixture, rootId, stored.at(-1) ?? null);
    expect(streamed, "SSE from the start").toEqual(stored);
  } finally {
    await sql.end();
  }
}

/** The persisted event ids an SSE subscriber receives from the start until it has seen `lastId`. */
export async function readAllEvents(
  fixture: ServerFixture,
  rootId: string,
  lastId: string | null,
  lastEventId?: string,
): Promise<string[]> {
  if (lastId === null) return [];
  const connection = await connectSse(
    `${fixture.server.baseUrl}/api/threads/${rootId}/events`,
    lastEventId ? { "last-event-id": lastEventId } : {},
  );
  try {
    await connection.waitFor((frame) => frame.id === lastId, 30_000);
    return connection.frames.flatMap((frame) => (frame.id ? [frame.id] : []));
  } finally {
    connection.close();
  }
}
