// Scheduled effects through a real server (API.md "Effects"): a code tool schedules effects from a
// thread's turn; they run on the server's effect runner, their messages carry
// `metadata.scheduledEffect`, a queued message makes the thread run again; `GET /api/threads/:id/effects`
// lists them, `DELETE …/effects/:effectId` cancels one that has not started (409 after, 404 unknown);
// an unknown name is the tool error `Effect not found: <name>`; a scheduled effect outlives a restart.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({ TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions") });
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

interface ApiEffect {
  id: string;
  name: string;
  args: Record<string, unknown>;
  run_at: number;
  status: string;
  attempts: number;
  error?: string;
}

function bundle(script: unknown[]) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [
      {
        name: "chat",
        toolDescription: "Chats",
        prompt: "You are helpful.",
        model: "demo",
        includeChat: true,
        tools: ["schedule_effect"],
      },
    ],
    models: [{ name: "demo", provider: "scripted", model: "scripted", script }],
    tools: [{ name: "schedule_effect", description: "Schedules", kind: "code", module: "schedule_effect" }],
  };
}

const schedule = (name: string, args: Record<string, unknown> = {}, delayMs = 0) => ({
  name: "schedule_effect",
  args: { name, args, delayMs },
});

async function effectsOf(threadId: string, name?: string): Promise<ApiEffect[]> {
  const query = name !== undefined ? `?name=${encodeURIComponent(name)}` : "";
  const response = await api<{ effects: ApiEffect[] }>("GET", `/api/threads/${threadId}/effects${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.effects;
}

async function effectUntil(threadId: string, id: string, status: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await effectsOf(threadId)).find((effect) => effect.id === id);
    if (found?.status === status) return found;
    if (Date.now() > deadline) throw new Error(`effect ${id} is ${found?.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The ids the schedule_effect tool answered, in call order (errors as their text). */
function scheduled(messages: ApiMessage[]): string[] {
  return messages
    .filter((message) => message.role === "tool" && message.name === "schedule_effect")
    .map((message) =>
      message.tool_status === "success"
        ? (JSON.parse(message.content!) as { id: string }).id
        : message.content!,
    );
}

describe("effects over HTTP", () => {
  it("schedules from a turn, runs them with their messages marked, lists and cancels them", async () => {
    const projectId = await projectWith(
      bundle([
        {
          toolCalls: [
            schedule("record_ping", { note: "now" }),
            schedule("record_ping", { note: "tomorrow" }, 86_400_000),
            schedule("ghost"),
            schedule("queue_followup", { text: "wake up" }, 300),
          ],
        },
        { text: "scheduled" },
        { text: "followed up" },
      ]),
    );
    const threadId = await startThread(projectId, "assistant", "plan it");
    await waitFor(threadId, ["idle"]);
    const [now, tomorrow, ghost, followup] = scheduled(await messagesOf(threadId, true));
    expect(ghost).toBe("Failed to execute tool: Effect not found: ghost");

    expect((await effectUntil(threadId, now!, "done")).attempts).toBe(1);
    await effectUntil(threadId, followup!, "done");
    // The queued message made the idle thread take a turn.
    const deadline = Date.now() + 20_000;
    let messages = await messagesOf(threadId, true);
    while (!messages.some((message) => message.content === "followed up") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      messages = await messagesOf(threadId, true);
    }
    const ping = messages.find((message) => message.content === "ping: now (execution null)");
    expect(ping?.metadata).toEqual({ scheduledEffect: { id: now, name: "record_ping" } });
    const queued = messages.find((message) => message.content === "wake up");
    expect(queued).toMatchObject({
      role: "user",
      metadata: { scheduledEffect: { id: followup, name: "queue_followup" } },
    });
    expect(messages.at(-1)?.content).toBe("followed up");

    const listed = await effectsOf(threadId);
    expect(listed.map((effect) => [effect.name, effect.status])).toEqual([
      ["record_ping", "done"],
      ["queue_followup", "done"],
      ["record_ping", "scheduled"],
    ]);
    const later = listed.find((effect) => effect.id === tomorrow)!;
    expect(later).toEqual({
      id: tomorrow,
      name: "record_ping",
      args: { note: "tomorrow" },
      run_at: expect.any(Number),
      status: "scheduled",
      attempts: 0,
    });
    // µs since the epoch, a day ahead.
    expect(later.run_at).toBeGreaterThan(Date.now() * 1000 + 86_000_000_000);
    expect((await effectsOf(threadId, "record_ping")).map((effect) => effect.id)).toEqual([now, tomorrow]);
    expect(await effectsOf(threadId, "queue_followup")).toHaveLength(1);
    expect(await effectsOf(threadId, "")).toHaveLength(3);

    const cancel = await api("DELETE", `/api/threads/${threadId}/effects/${tomorrow}`);
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ cancelled: true });
    expect((await effectsOf(threadId, "record_ping")).find((effect) => effect.id === tomorrow)?.status).toBe(
      "cancelled",
    );
    const again = await api("DELETE", `/api/threads/${threadId}/effects/${tomorrow}`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "effect_not_cancellable", status: "cancelled" });
    const finished = await api("DELETE", `/api/threads/${threadId}/effects/${now}`);
    expect(finished.status).toBe(409);
    expect(finished.body).toMatchObject({ code: "effect_not_cancellable", status: "done" });
  });

  it("answers 404 for unknown threads and effects and 400 for a bad name, never 500", async () => {
    const projectId = await projectWith(bundle([{ text: "hi" }]));
    const threadId = await startThread(projectId, "assistant");
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const [method, route] of [
      ["GET", `/api/threads/${unknown}/effects`],
      ["GET", "/api/threads/not-a-thread/effects"],
      ["DELETE", `/api/threads/${unknown}/effects/${unknown}`],
      ["DELETE", `/api/threads/not-a-thread/effects/${unknown}`],
    ] as const) {
      const response = await api(method, route);
      expect(response.status, route).toBe(404);
      expect(response.body).toMatchObject({ code: "thread_not_found" });
    }
    for (const effectId of [unknown, "nope"]) {
      const response = await api("DELETE", `/api/threads/${threadId}/effects/${effectId}`);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: "effect_not_found" });
    }
    expect(await effectsOf(threadId)).toEqual([]);
    const long = await api("GET", `/api/threads/${threadId}/effects?name=${"x".repeat(300)}`);
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: "invalid_request" });
  });

  it("runs an effect scheduled before a restart once the server is back", async () => {
    const projectId = await projectWith(
      bundle([{ toolCalls: [schedule("record_ping", { note: "survivor" }, 4_000)] }, { text: "ok" }]),
    );
    const threadId = await startThread(projectId, "assistant", "remember");
    await waitFor(threadId, ["idle"]);
    const [id] = scheduled(await messagesOf(threadId, true));
    expect((await effectsOf(threadId))[0]).toMatchObject({ id, status: "scheduled" });
    await fixture.server.restart();
    const done = await effectUntil(threadId, id!, "done");
    expect(done.attempts).toBe(1);
    const messages = await messagesOf(threadId, true);
    expect(messages.filter((message) => message.content === "ping: survivor (execution null)")).toHaveLength(
      1,
    );
  });
});
