// Speculative step commits (runtime/engine/step/thread-committer.ts): a step commits in one round
// trip on the thread's row version read earlier, and falls back to an ordinary locked commit when
// the row changed meanwhile. Here another connection rewrites the thread's row during every model
// call (each scripted step takes 120 ms), so every speculative commit finds a stale version and its
// transaction rolls back; the thread must still run exactly as without interference: every message
// once and in order, a model-call log whose requests match the history (the request log is stored as
// deltas against the previous request, cached in memory, which the rolled-back attempt had moved
// on), and events with every message once.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { testBackend } from "../support/database";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const { projectWith, startThread, waitFor, messagesOf, modelRequests } = threadHelpers(fixture);

const TURNS = 4; // 8 steps

function dialogue() {
  const side = (name: "a" | "b") => ({
    name: `side_${name}`,
    toolDescription: `Side ${name}.`,
    prompt: `You are side ${name}.`,
    model: `model_${name}`,
    includeChat: true,
  });
  const model = (name: "a" | "b") => ({
    name: `model_${name}`,
    provider: "scripted",
    model: "scripted",
    script: Array.from({ length: TURNS }, (_, index) => ({ text: `${name}${index + 1}`, delayMs: 120 })),
  });
  return {
    agents: [
      {
        name: "dialogue",
        type: "dual_ai",
        maxSessionTurns: TURNS,
        sideA: { label: "A", prompt: "side_a", stopOnResponse: true },
        sideB: { label: "B", prompt: "side_b", stopOnResponse: true },
      },
    ],
    prompts: [side("a"), side("b")],
    models: [model("a"), model("b")],
    tools: [],
  };
}

describe("speculative step commits", () => {
  it("fall back to a locked commit when the thread's row changed during the step, losing and repeating nothing", async () => {
    const projectId = await projectWith(dialogue());
    const threadId = await startThread(projectId, "dialogue", "start");
    // On PGlite the server owns the only connection: rewrite the row through its own API instead.
    const url = fixture.databaseUrl;
    const sql = url ? postgres(url, { max: 1, onnotice: () => {} }) : null;
    let rewrites = 0;
    let running = true;
    const interference = (async () => {
      while (running) {
        // A new row version with the same values: only the version check can notice it.
        if (sql) await sql`UPDATE threads SET updated_at = updated_at WHERE id = ${threadId}`;
        else await fixture.api("GET", `/api/threads/${threadId}`);
        rewrites += 1;
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    })();
    try {
      const thread = await waitFor(threadId, ["stopped", "failed", "completed"], 30_000);
      expect(thread.status).toBe("stopped"); // the session-turn limit
    } finally {
      running = false;
      await interference;
    }
    if (testBackend() === "postgres") expect(rewrites).toBeGreaterThan(2 * TURNS);

    const messages = await messagesOf(threadId, true);
    expect(messages.map((message) => message.content)).toEqual([
      "start",
      ...Array.from({ length: TURNS }, (_, index) => [`a${index + 1}`, `b${index + 1}`]).flat(),
    ]);
    expect(messages.map((message) => message.seq)).toEqual(messages.map((_, index) => index + 1));

    // Step k's request holds the system prompt and the k messages before it.
    const requests = await modelRequests(threadId);
    expect(requests).toHaveLength(2 * TURNS);
    requests.forEach((request, index) => {
      const history = request.messages.filter((message) => message.role !== "system");
      expect(history.map((message) => message.content)).toEqual(
        messages.slice(0, index + 1).map((message) => message.content),
      );
    });

    if (sql) {
      const events = await sql<{ message_id: string }[]>`
        SELECT x.event->'data'->'message'->>'id' AS message_id
        FROM events e, json_array_elements(e.batch) WITH ORDINALITY AS x(event, position)
        WHERE e.root_id = ${threadId} AND x.event->>'type' = 'message' ORDER BY e.id, x.position`;
      expect(events.map((event) => event.message_id)).toEqual(messages.map((message) => message.id));
      await sql.end();
    }
  });
});
