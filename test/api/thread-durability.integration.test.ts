// Live events and durability: SSE replay with Last-Event-ID (no gap, nothing twice), token chunks,
// and a server SIGKILLed mid-conversation that resumes with every message exactly once.
import { describe, expect, it } from "vitest";
import { testBackend } from "../support/database";
import { testServerForFile } from "../support/fixture";
import { connectSse, type SseFrame } from "../support/sse";

// Short leases so a killed server's threads are reclaimed quickly after the restart.
const fixture = testServerForFile({ TANDEM_LEASE_MS: "1500" });
const api = fixture.api;

function bundle(script: unknown[]) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
    prompts: [
      { name: "assistant_chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true },
    ],
    models: [{ name: "demo", provider: "scripted", model: "s", script }],
    tools: [],
  };
}

async function start(script: unknown[], message?: string): Promise<string> {
  const project = await api<{ id: string }>("POST", "/api/projects", {
    name: "live",
    definitions: bundle(script),
  });
  const thread = await api<{ threadId: string }>("POST", "/api/threads", {
    project_id: project.body.id,
    agent_id: "assistant",
    ...(message !== undefined ? { message } : {}),
  });
  expect(thread.status).toBe(201);
  return thread.body.threadId;
}

async function waitForStatus(threadId: string, status: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await api<{ thread: { status: string } }>("GET", `/api/threads/${threadId}`).catch(
      () => null,
    );
    if (response?.body.thread?.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`thread ${threadId} never reached ${status}`);
}

const isIdleThreadEvent = (frame: SseFrame) =>
  frame.event === "thread" && JSON.parse(frame.data).status === "idle";

describe("the event stream", () => {
  it("streams chunks and persisted events, and a reconnect with Last-Event-ID resumes with no gap or duplicate", async () => {
    // Subscribed before the first input: the earliest chunks are not lost to a late connection.
    const threadId = await start([
      { text: "The quick brown fox jumps over the lazy dog", delayMs: 300 },
      { text: "second" },
    ]);
    const first = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
    await api("POST", `/api/threads/${threadId}/messages`, { content: "go" });
    const answer = await first.waitFor(
      (frame) => frame.event === "message" && JSON.parse(frame.data).message.side === "a",
    );
    await first.waitFor((frame) => isIdleThreadEvent(frame) && Number(frame.id) > Number(answer.id));
    const chunks = first.frames.filter((frame) => frame.event === "message_chunk");
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((frame) => frame.id === null)).toBe(true);
    expect(chunks.map((frame) => JSON.parse(frame.data).chunk).join("")).toBe(
      "The quick brown fox jumps over the lazy dog",
    );
    const persisted = first.frames.filter((frame) => frame.id !== null);
    const lastSeen = persisted.at(-1)!.id!;
    first.close();

    // More happens while nobody listens.
    await api("POST", `/api/threads/${threadId}/messages`, { content: "again" });
    await waitForStatus(threadId, "idle");
    await new Promise((resolve) => setTimeout(resolve, 200));

    const resumed = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`, {
      "last-event-id": lastSeen,
    });
    const replayedMessage = await resumed.waitFor(
      (frame) => frame.event === "message" && JSON.parse(frame.data).message.content === "second",
    );
    expect(replayedMessage.id).not.toBeNull();
    resumed.close();

    const full = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
    await full.waitFor(
      (frame) => frame.event === "message" && JSON.parse(frame.data).message.content === "second",
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    full.close();

    const ids = (frames: SseFrame[]) =>
      frames.filter((frame) => frame.id !== null).map((frame) => Number(frame.id));
    const everything = ids(full.frames);
    // Strictly increasing: nothing twice; the first connection plus the resumed one is exactly the whole log.
    expect(everything).toEqual([...everything].sort((a, b) => a - b));
    expect(new Set(everything).size).toBe(everything.length);
    expect([...ids(persisted), ...ids(resumed.frames)]).toEqual(everything);

    const messages = full.frames
      .filter((frame) => frame.event === "message")
      .map((frame) => JSON.parse(frame.data).message.content);
    expect(messages).toEqual(["go", "The quick brown fox jumps over the lazy dog", "again", "second"]);
  });

  it("refuses a malformed Last-Event-ID and unknown threads", async () => {
    const threadId = await start([{ text: "hi" }], "x");
    const bad = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/events`, {
      headers: { "last-event-id": "abc" },
    });
    expect(bad.status).toBe(400);
    await bad.body?.cancel();
    const missing = await fetch(
      `${fixture.server.baseUrl}/api/threads/8f0c7f7e-0000-4000-8000-000000000000/events`,
    );
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
  });
});

describe("graceful restart", () => {
  it("hands a running thread back on SIGTERM and resumes it after the restart, on every backend", async () => {
    const threadId = await start([{ text: "patient answer", delayMs: 1_000 }], "wait for it");
    await waitForStatus(threadId, "running");
    // SIGTERM: the scheduler drains (the step in flight finishes or is handed back), closes the database.
    await fixture.server.restart();
    expect(fixture.server.output()).toMatch(
      /SIGTERM: draining[\s\S]*drained: \d+ stopped at a step boundary/,
    );
    await waitForStatus(threadId, "idle", 10_000);
    const messages = await api<{ messages: { content: string }[] }>(
      "GET",
      `/api/threads/${threadId}/messages`,
    );
    expect(messages.body.messages.map((message) => message.content)).toEqual([
      "wait for it",
      "patient answer",
    ]);
  }, 30_000);
});

// Crash durability is a property of a Postgres server; the embedded PGlite folder is a single-process
// development database that is not safe against a hard kill mid-write (README: Databases). CI runs
// this file in both modes, so the crash test runs on every CI run, against Postgres.
const crashRecovery = testBackend() === "postgres" ? describe : () => {};
crashRecovery("crash recovery", () => {
  it("resumes a conversation after SIGKILL mid-step with every message exactly once", async () => {
    const threadId = await start(
      [
        { text: "first answer", delayMs: 1_500 },
        { text: "second answer", delayMs: 1_500 },
        { text: "third answer" },
      ],
      "one",
    );
    await waitForStatus(threadId, "running");
    await fixture.server.kill(); // in the middle of the first model call
    await fixture.server.restart();
    await waitForStatus(threadId, "idle");

    await api("POST", `/api/threads/${threadId}/messages`, { content: "two" });
    await waitForStatus(threadId, "running");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fixture.server.kill(); // again mid-call, after the human message was drained into history
    await fixture.server.restart();
    await waitForStatus(threadId, "idle");

    await api("POST", `/api/threads/${threadId}/messages`, { content: "three" });
    await waitForStatus(threadId, "idle");

    const messages = await api<{ messages: { role: string; content: string; seq: number }[] }>(
      "GET",
      `/api/threads/${threadId}/messages`,
    );
    expect(messages.body.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "one"],
      ["assistant", "first answer"],
      ["user", "two"],
      ["assistant", "second answer"],
      ["user", "three"],
      ["assistant", "third answer"],
    ]);
    expect(messages.body.messages.map((message) => message.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  }, 90_000);
});
