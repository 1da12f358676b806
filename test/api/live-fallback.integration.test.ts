// The event stream does not depend on NOTIFY alone: a stream that has been quiet for the keep-alive
// interval reads the log again, so an event whose NOTIFY never came (the listener reconnected, or
// the root's watcher row was gone) still arrives. And the stream registers its root as watched, so
// commits NOTIFY it at all (runtime/events/event-watchers.ts). Postgres only: the test writes to the
// server's database from outside the server process.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { testBackend } from "../support/database";
import { testServerForFile } from "../support/fixture";
import { connectSse } from "../support/sse";
import { threadHelpers } from "../support/thread-helpers";

const KEEP_ALIVE_MS = 400;
const fixture = testServerForFile({ TANDEM_SSE_KEEP_ALIVE_MS: String(KEEP_ALIVE_MS) });
const { projectWith, startThread, waitFor } = threadHelpers(fixture);

const chatBundle = {
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [{ name: "chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true }],
  models: [
    {
      name: "demo",
      provider: "scripted",
      model: "s",
      script: [{ text: "first answer" }, { text: "second answer" }],
    },
  ],
  tools: [],
};

describe("GET /api/threads/:id/events without a NOTIFY", () => {
  it("keeps streaming through quiet periods, each event once", async () => {
    const threadId = await startThread(await projectWith(chatBundle), "assistant", "hello");
    await waitFor(threadId, ["idle"]);
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`, {
      "Last-Event-ID": "0",
    });
    try {
      await stream.waitFor((frame) => frame.event === "message" && frame.data.includes("first answer"));
      // Several keep-alive intervals, each re-reading the log: nothing is sent twice.
      await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS * 4));
      const posted = await fixture.api("POST", `/api/threads/${threadId}/messages`, { content: "again" });
      expect(posted.status).toBe(202);
      await stream.waitFor((frame) => frame.event === "message" && frame.data.includes("second answer"));
      await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS * 2));
      // Persisted events carry ids; token chunks (live only) do not.
      const ids = stream.frames.filter((frame) => frame.id !== null).map((frame) => Number(frame.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);
    } finally {
      stream.close();
    }
  });

  if (testBackend() === "postgres")
    it("registers the root while streaming and re-reads the log when quiet, so an event without a NOTIFY arrives", async () => {
      const threadId = await startThread(await projectWith(chatBundle), "assistant", "hello");
      await waitFor(threadId, ["idle"]);
      const sql = postgres(fixture.databaseUrl as string, { max: 1, onnotice: () => {} });
      const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`, {
        "Last-Event-ID": "0",
      });
      try {
        await stream.waitFor((frame) => frame.event === "message" && frame.data.includes("first answer"));
        const watchers = await sql<{ watcher: string }[]>`
          SELECT watcher FROM event_watchers WHERE root_id = ${threadId} AND expires_at > now()`;
        expect(watchers).toHaveLength(1);

        // Nobody watches any more as far as the database knows: this commit sends no NOTIFY.
        await sql`DELETE FROM event_watchers WHERE root_id = ${threadId}`;
        const batch = JSON.stringify([
          { thread_id: threadId, type: "telemetry", data: { type: "probe_without_notify" } },
        ]);
        const heard: string[] = [];
        const listening = await sql.listen("tandem_events", (root) => heard.push(root));
        await sql.begin(async (tx) => {
          await tx`INSERT INTO events (root_id, batch, created_at)
                   VALUES (${threadId}, ${batch}::json, ${Date.now() * 1000})`;
        });
        const arrived = await stream.waitFor(
          (frame) => frame.event === "telemetry" && frame.data.includes("probe_without_notify"),
          KEEP_ALIVE_MS * 10,
        );
        expect(heard).toEqual([]);
        expect(Number(arrived.id)).toBeGreaterThan(0);
        // Sent once: later re-reads start after it.
        await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS * 3));
        expect(stream.frames.filter((frame) => frame.data.includes("probe_without_notify"))).toHaveLength(1);
        await listening.unlisten();
      } finally {
        stream.close();
        await sql.end();
      }
    });
});
