// A reply joined mid-stream shows from its first token: a stream opened while a message is being
// streamed gets that message's chunks so far (EventHub's in-flight buffer) before the live ones,
// with no gap and nothing twice. Real HTTP; the scripted model streams slowly (`delayMs`).
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { connectSse, type SseConnection } from "../support/sse";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

const REPLY = "The quick brown fox jumps over the lazy dog, then naps in the sun.";

const slowBundle = {
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [{ name: "chat", toolDescription: "c", prompt: "Be brief.", model: "slow", includeChat: true }],
  models: [{ name: "slow", provider: "scripted", model: "s", script: [{ text: REPLY, delayMs: 2_400 }] }],
  tools: [],
};

type Chunk = { thread_id: string; message_id: string; chunk: string };

function chunksOf(stream: SseConnection): Chunk[] {
  return stream.frames
    .filter((frame) => frame.event === "message_chunk")
    .map((frame) => JSON.parse(frame.data) as Chunk);
}

describe("GET /api/threads/:id/events joined mid-stream", () => {
  it("replays the in-flight message's chunks to a late subscriber, then streams the rest", async () => {
    const threadId = await startThread(await projectWith(slowBundle), "assistant", "hello");
    const url = `${fixture.server.baseUrl}/api/threads/${threadId}/events`;
    const early = await connectSse(url);
    let late: SseConnection | undefined;
    let reloaded: SseConnection | undefined;
    try {
      // Join after the first chunks went out (4 chunks over 2.4 s).
      await early.waitFor((frame) => frame.event === "message_chunk");
      late = await connectSse(url);
      // A reload mid-stream resumes from the last persisted event it saw: it gets the replay too.
      const lastId = early.frames.filter((frame) => frame.id !== null).at(-1)?.id ?? "0";
      reloaded = await connectSse(url, { "Last-Event-ID": lastId });
      const isReply = (frame: { event: string; data: string }) =>
        frame.event === "message" && frame.data.includes('"role":"assistant"');
      await Promise.all([early.waitFor(isReply), late.waitFor(isReply), reloaded.waitFor(isReply)]);
      await waitFor(threadId, ["idle"]);
      const reply = (await messagesOf(threadId)).find((message) => message.role === "assistant");
      expect(reply?.content).toBe(REPLY);

      for (const stream of [early, late, reloaded]) {
        const chunks = chunksOf(stream).filter((chunk) => chunk.message_id === reply!.id);
        expect(chunks.every((chunk) => chunk.thread_id === threadId)).toBe(true);
        expect(chunks.map((chunk) => chunk.chunk).join("")).toBe(REPLY);
        // Every chunk comes before the persisted message.
        const replyIndex = stream.frames.findIndex(isReply);
        const lastChunkIndex = stream.frames.findLastIndex((frame) => frame.event === "message_chunk");
        expect(lastChunkIndex).toBeLessThan(replyIndex);
      }
      // The late streams subscribed after a chunk had gone out (the early stream had it), so without
      // the replay they would miss the reply's beginning; with it, their first chunk carries it.
      expect(REPLY.startsWith(chunksOf(late)[0]!.chunk)).toBe(true);
    } finally {
      early.close();
      late?.close();
      reloaded?.close();
    }
  });

  it("replays nothing once the message is persisted", async () => {
    const threadId = await startThread(await projectWith(slowBundle), "assistant", "hello");
    await waitFor(threadId, ["idle"]);
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
    try {
      await stream.waitFor((frame) => frame.event === "message" && frame.data.includes(REPLY.slice(0, 20)));
      expect(chunksOf(stream)).toEqual([]);
    } finally {
      stream.close();
    }
  });
});
