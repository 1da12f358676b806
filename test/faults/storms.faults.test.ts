// Storms (issue: reliability): many children finishing while their parent is busy, the same work
// delivered again and again, SSE subscribers reconnecting all the time, and a stop in the middle of a
// tool call. After each, the invariants of ./invariants.ts hold.
import path from "node:path";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { EVENT_ID_STRIDE } from "@/runtime/store/event-log";
import { testServerForFile } from "../support/fixture";
import { connectSse } from "../support/sse";
import { assetBundle } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";
import { checkInvariants } from "./invariants";

const fixture = testServerForFile({
  TANDEM_LEASE_MS: "1500",
  TANDEM_HOOK_TIMEOUT_MS: "1000",
  TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions"),
});
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

const CHILDREN = 12;

/** An orchestrator that starts CHILDREN workers, then stays busy in a slow model call while they finish. */
function busyParentBundle() {
  const calls = Array.from({ length: CHILDREN }, (_, index) => ({
    name: "asset_subagent",
    args: { task: `task ${index + 1}` },
  }));
  return assetBundle({
    config: { blocking: false, initUserMessageProperty: "task" },
    orchestratorScript: [{ toolCalls: calls }, { text: "busy for a while", delayMs: 1_500 }],
    workerScript: [{ text: "Draft: {{input}}", delayMs: 20 }],
  });
}

async function settledTree(rootId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tree = await api<{ root: { status: string; children: { status: string }[] } }>(
      "GET",
      `/api/threads/${rootId}/tree`,
    );
    const children = tree.body.root.children;
    const reports = (await messagesOf(rootId, true)).filter(
      (message) => message.silent && (message.content ?? "").startsWith("Subagent (reference: "),
    );
    if (
      tree.body.root.status === "idle" &&
      children.length === CHILDREN &&
      children.every((child) => child.status === "completed") &&
      reports.length === CHILDREN
    )
      return;
    if (Date.now() > deadline) throw new Error(`tree ${rootId} did not settle: ${JSON.stringify(tree.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** An SSE subscriber that keeps dropping its connection and resuming with Last-Event-ID. */
function flakySubscriber(url: string, seed: number) {
  const ids: string[] = [];
  let stopped = false;
  let random = seed;
  const next = () => {
    random = (random * 1103515245 + 12345) % 2 ** 31;
    return random / 2 ** 31;
  };
  const done = (async () => {
    while (!stopped) {
      const last = ids.at(-1);
      const connection = await connectSse(url, last ? { "last-event-id": last } : {}).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, 30 + Math.floor(next() * 250)));
      if (!connection) continue; // refused (the server is busy or gone): try again
      connection.close();
      // Frames read before the close count; the next connection resumes after the last of them.
      for (const frame of connection.frames) if (frame.id) ids.push(frame.id);
    }
  })();
  return {
    ids,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

describe("fault storms", () => {
  it("children finishing while their parent is busy, redelivered work and reconnect storms lose nothing", async () => {
    const databaseUrl = fixture.databaseUrl;
    if (!databaseUrl) throw new Error("Postgres only");
    const projectId = await projectWith(busyParentBundle());
    const rootId = await startThread(projectId, "orchestrator", "Start the workers.");
    const url = `${fixture.server.baseUrl}/api/threads/${rootId}/events`;
    const subscribers = Array.from({ length: 12 }, (_, index) => flakySubscriber(url, index + 1));

    // Redelivery storm: every thread of the tree is marked runnable and announced again and again
    // while the run goes on; leases must keep every step to one runner.
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    let storming = true;
    let redeliveries = 0;
    // One row per statement, as the runtime's own wake-ups do (a multi-row UPDATE could deadlock with
    // the runtime's row locks, which is the test's fault, not the runtime's).
    const storm = (async () => {
      while (storming) {
        const threads = await sql<{ id: string }[]>`
          SELECT id FROM threads WHERE root_id = ${rootId} AND status IN ('running', 'queued')`;
        for (const thread of threads) {
          const [marked] = await sql<{ id: string }[]>`
            UPDATE threads SET runnable = true WHERE id = ${thread.id} AND status IN ('running', 'queued') RETURNING id`;
          if (!marked) continue;
          await sql`SELECT pg_notify('tandem_work', ${thread.id})`;
          redeliveries += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    try {
      await settledTree(rootId);
    } finally {
      storming = false;
      await Promise.all(subscribers.map((subscriber) => subscriber.stop()));
      await storm;
      await sql.end();
    }
    expect(redeliveries).toBeGreaterThan(0);

    await checkInvariants(fixture, rootId);
    // Each flaky subscriber saw a prefix of the log with no gap and nothing twice.
    const all = await readStoredIds(databaseUrl, rootId);
    for (const subscriber of subscribers) {
      expect(subscriber.ids.length).toBeGreaterThan(0);
      expect(subscriber.ids).toEqual(all.slice(0, subscriber.ids.length));
    }
  }, 120_000);

  it("a stop in the middle of a tool call answers the call once and the next message resumes", async () => {
    const projectId = await projectWith({
      agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
      prompts: [
        {
          name: "assistant_chat",
          toolDescription: "Chats",
          prompt: "You are helpful.",
          model: "scripted_model",
          tools: ["slow_tool"],
        },
      ],
      models: [
        {
          name: "scripted_model",
          provider: "scripted",
          model: "scripted",
          script: [{ toolCalls: [{ name: "slow_tool", args: { ms: 20_000 } }] }, { text: "resumed" }],
        },
      ],
      tools: [{ name: "slow_tool", description: "Works for a while", kind: "code", module: "slow_tool" }],
    });
    const threadId = await startThread(projectId, "assistant", "work hard");
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const messages = await messagesOf(threadId, true);
      if (messages.some((message) => message.tool_calls)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // the tool is running now
    const stoppedAt = Date.now();
    const stop = await api<{ status: string }>("POST", `/api/threads/${threadId}/stop`);
    expect(stop.status).toBe(200);
    const stopped = await waitFor(threadId, ["stopped"]);
    expect(stopped.stop_reason).toBe("Stopped by user");
    // Long before the tool would have finished on its own.
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    const answers = (await messagesOf(threadId, true)).filter((message) => message.role === "tool");
    expect(answers).toHaveLength(1);
    await api("POST", `/api/threads/${threadId}/messages`, { content: "go on" });
    await waitFor(threadId, ["idle"]);
    expect((await messagesOf(threadId)).at(-1)?.content).toBe("resumed");
    await checkInvariants(fixture, threadId);
  }, 60_000);
});

async function readStoredIds(databaseUrl: string, rootId: string): Promise<string[]> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ id: string }[]>`SELECT (e.id * ${EVENT_ID_STRIDE} + x.position - 1)::text AS id
      FROM events e, json_array_elements(e.batch) WITH ORDINALITY AS x(event, position)
      WHERE e.root_id = ${rootId} ORDER BY e.id, x.position`;
    return rows.map((row) => row.id);
  } finally {
    await sql.end();
  }
}
