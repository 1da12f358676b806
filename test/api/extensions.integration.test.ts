// Code tools and hooks loaded from a server-side extensions folder (test/extensions), driven through
// the HTTP API with scripted models: defineTool with zod args, ThreadState, and every hook point the
// runtime runs, with the spec's scoping and error rules.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { connectSse, type SseFrame } from "../support/sse";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({
  TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions"),
  TANDEM_HOOK_TIMEOUT_MS: "300",
});
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf, modelRequests } = threadHelpers(fixture);

const codeTool = (name: string) => ({ name, description: `Runs ${name}`, kind: "code", module: name });

function bundle(
  script: unknown[],
  options: {
    tools?: string[];
    agentHooks?: string[];
    promptHooks?: string[];
    env?: Record<string, string>;
  } = {},
) {
  return {
    agents: [
      {
        name: "assistant",
        sideA: { prompt: "assistant_chat" },
        ...(options.agentHooks ? { hooks: options.agentHooks } : {}),
        ...(options.env ? { env: options.env } : {}),
      },
    ],
    prompts: [
      {
        name: "assistant_chat",
        toolDescription: "Chats",
        prompt: "You are helpful.",
        model: "demo",
        includeChat: true,
        tools: options.tools ?? [],
        ...(options.promptHooks ? { hooks: options.promptHooks } : {}),
      },
    ],
    models: [{ name: "demo", provider: "scripted", model: "scripted", script }],
    tools: (options.tools ?? []).map((name) => codeTool(name)),
  };
}

const toolMessages = (messages: ApiMessage[]) =>
  messages
    .filter((message) => message.role === "tool")
    .map((message) => [message.name, message.tool_status, message.content]);

describe("code tools", () => {
  it("validates arguments with the module's zod schema, runs it with ThreadState, and stores every outcome as a tool result", async () => {
    const projectId = await projectWith(
      bundle(
        [
          {
            toolCalls: [
              { name: "lookup_order", args: { orderId: "A-100" } },
              { name: "lookup_order", args: { orderId: "x" } },
              { name: "fail_tool", args: {} },
              { name: "throw_tool", args: {} },
              { name: "ghost", args: {} },
            ],
          },
          { text: "done" },
        ],
        { tools: ["lookup_order", "fail_tool", "throw_tool", "ghost"], env: { SHOP_NAME: "Agent Shop" } },
      ),
    );

    const threadId = await startThread(projectId, "assistant", "Where is my order?");
    await waitFor(threadId, ["idle"]);
    const results = toolMessages(await messagesOf(threadId));
    expect(results[0]).toEqual([
      "lookup_order",
      "success",
      JSON.stringify({ order: "A-100", shop: "Agent Shop", status: "shipped" }, null, 2),
    ]);
    expect(results.slice(1)).toEqual([
      [
        "lookup_order",
        "error",
        "Failed to execute tool: Tool argument validation failed: [orderId] Too small: expected string to have >=3 characters",
      ],
      ["fail_tool", "error", "Failed to execute tool: warehouse offline"],
      ["throw_tool", "error", "Failed to execute tool: boom"],
      [
        "ghost",
        "error",
        'Failed to execute tool: Code tool module "ghost" is not installed on this server (extensions/tools/ghost.ts).',
      ],
    ]);
    const file = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/fs/orders/A-100.json`);
    expect(await file.text()).toBe('{"id":"A-100"}');
    // The model is offered the module's own argument schema.
    const [request] = await modelRequests(threadId);
    expect(request!.tools.find((tool) => tool.name === "lookup_order")?.inputSchema).toMatchObject({
      type: "object",
      properties: { orderId: { type: "string", minLength: 3 } },
      required: ["orderId"],
    });
  });

  it("gives tools the spec's ThreadState: identity, execution counters, prompt path, history and per-execution context", async () => {
    const projectId = await projectWith(
      bundle(
        [
          { toolCalls: [{ name: "state_probe", args: {} }] },
          { toolCalls: [{ name: "state_probe", args: {} }] },
          { text: "ok" },
        ],
        {
          tools: ["state_probe"],
        },
      ),
    );
    const threadId = await startThread(projectId, "assistant", "probe");
    await waitFor(threadId, ["idle"]);
    const probes = (await messagesOf(threadId))
      .filter((message) => message.name === "state_probe")
      .map((message) => JSON.parse(message.content ?? "{}"));
    expect(probes).toHaveLength(2);
    expect(probes[0]).toMatchObject({
      threadId,
      agentId: "assistant",
      terminated: null,
      children: 0,
      calls: 1,
      stepCount: 1,
      currentSide: "a",
      promptPath: ["assistant_chat"],
      historyLength: 2,
      aborted: false,
      fetched: 2,
      readBack: true,
      parent: true,
      envType: "secret",
    });
    expect(probes[0].createdAt).toBeGreaterThan(1_000_000_000_000_000);
    // Same execution: the context survives between steps; counters and history moved on.
    expect(probes[1]).toMatchObject({ calls: 2, stepCount: 2, historyLength: 4 });

    // A new human message starts a new execution: a fresh context.
    await api("POST", `/api/threads/${threadId}/messages`, { content: "again" });
    await waitFor(threadId, ["idle"]);
    expect((await messagesOf(threadId)).at(-1)?.content).toBe("(script exhausted)");
  });

  it("queues, injects and updates messages from a tool; a queued message starts the next step", async () => {
    const projectId = await projectWith(
      bundle([{ toolCalls: [{ name: "queue_note", args: {} }] }, { text: "saw: {{input}}" }], {
        tools: ["queue_note"],
      }),
    );
    const threadId = await startThread(projectId, "assistant", "go");
    await waitFor(threadId, ["idle"]);
    // Wait for the queued note's own step.
    const deadline = Date.now() + 10_000;
    let all = await messagesOf(threadId, true);
    while (!all.some((message) => message.content === "saw: queued note") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      all = await messagesOf(threadId, true);
    }
    expect(all.map((message) => [message.role, message.content, message.silent])).toEqual([
      ["user", "go", false],
      ["assistant", "", false],
      ["system", "injected notice (edited)", false],
      ["tool", "queued; injected injected notice (edited)", false],
      // Queued while the thread ran: delivered before the next model step of the same run.
      ["user", "queued note", true],
      ["assistant", "saw: queued note", false],
    ]);
  });

  it("stops the run on state.execution.stop(), answering the remaining calls", async () => {
    const projectId = await projectWith(
      bundle(
        [
          {
            toolCalls: [
              { name: "stop_run", args: {} },
              { name: "state_probe", args: {} },
            ],
          },
          { text: "never" },
        ],
        {
          tools: ["stop_run", "state_probe"],
        },
      ),
    );
    const threadId = await startThread(projectId, "assistant", "stop please");
    const stopped = await waitFor(threadId, ["stopped"]);
    expect(stopped.stop_reason).toBe("Execution stopped by state.execution.stop()");
    expect(toolMessages(await messagesOf(threadId))).toEqual([
      ["stop_run", "success", "stopping"],
      ["state_probe", "error", "Failed to execute tool: Execution stopped by state.execution.stop()"],
    ]);
  });

  it("terminates the thread from a tool; the thread then refuses new messages with 423", async () => {
    const projectId = await projectWith(
      bundle([{ toolCalls: [{ name: "terminate_self", args: {} }] }, { text: "never" }], {
        tools: ["terminate_self"],
      }),
    );
    const threadId = await startThread(projectId, "assistant", "end it");
    const thread = await waitFor(threadId, ["terminated"]);
    expect(thread.terminated).toBeGreaterThan(0);
    expect((await api("POST", `/api/threads/${threadId}/messages`, { content: "hello?" })).status).toBe(423);
  });
});

describe("tool events", () => {
  it("announces a slow tool when it starts, long before its result, and completes it once", async () => {
    const projectId = await projectWith(
      bundle([{ toolCalls: [{ name: "slow_tool", args: { ms: 1_500 } }] }, { text: "done" }], {
        tools: ["slow_tool"],
      }),
    );
    const threadId = await startThread(projectId, "assistant", "Take your time.");
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
    try {
      const telemetry = (type: string) => (frame: SseFrame) =>
        frame.event === "telemetry" && (JSON.parse(frame.data) as { type: string }).type === type;
      await stream.waitFor(telemetry("tool_started"), 15_000);
      // The tool is still working: its result is not stored yet.
      expect((await messagesOf(threadId)).filter((message) => message.role === "tool")).toEqual([]);
      await stream.waitFor(telemetry("tool_completed"), 15_000);
      await waitFor(threadId, ["idle"]);
      const starts = stream.frames.filter(telemetry("tool_started"));
      expect(starts).toHaveLength(1);
      expect(stream.frames.filter(telemetry("tool_completed"))).toHaveLength(1);
      expect(toolMessages(await messagesOf(threadId))).toEqual([["slow_tool", "success", "worked 1500 ms"]]);
    } finally {
      stream.close();
    }
  });
});

describe("hooks", () => {
  it("runs the agent's declared hooks at each point: system message, history filter, final request, message creation", async () => {
    const projectId = await projectWith(
      bundle([{ text: "first" }, { text: "second" }], {
        agentHooks: [
          "system_marker",
          "hide_private",
          "add_footer",
          "tag_assistant",
          "broken_hook",
          "log_created",
        ],
      }),
    );
    const threadId = await startThread(projectId, "assistant", "hello [private]");
    await waitFor(threadId, ["idle"]);
    await api("POST", `/api/threads/${threadId}/messages`, { content: "public question" });
    await waitFor(threadId, ["idle"]);
    const deadline = Date.now() + 5000;
    while ((await messagesOf(threadId)).length < 4 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));

    const requests = await modelRequests(threadId);
    const second = requests[1]!.messages;
    expect(second[0]).toEqual({ role: "system", content: "You are helpful.\n\nHOOKED-SYSTEM" });
    // The private message is filtered from the context (not from storage); the footer is appended last.
    expect(second.map((message) => message.content)).toEqual([
      "You are helpful.\n\nHOOKED-SYSTEM",
      "[tagged] first",
      "public question",
      "FOOTER",
    ]);
    // before_create_message tagged the stored assistant messages; the throwing hook changed nothing.
    expect((await messagesOf(threadId)).map((message) => message.content)).toEqual([
      "hello [private]",
      "[tagged] first",
      "public question",
      "[tagged] second",
    ]);
    // after_create_message ran with a working ThreadState (it wrote a file per created message).
    const listing = await api<{ entries: { path: string }[] }>(
      "GET",
      `/api/threads/${threadId}/fs?path=/hooklog`,
    );
    expect(listing.body.entries.map((file) => file.path)).toEqual(
      expect.arrayContaining([
        "/hooklog/1-user.txt",
        "/hooklog/2-assistant.txt",
        // Posted to the thread parked in the server: stored by the post, announced by the next step.
        "/hooklog/3-user.txt",
        "/hooklog/4-assistant.txt",
      ]),
    );
  });

  it("lets tool-result hooks rewrite, recover and drop results; a dropped call leaves history", async () => {
    const projectId = await projectWith(
      bundle(
        [
          {
            toolCalls: [
              { name: "secret_report", args: {} },
              { name: "fail_tool", args: {} },
              { name: "noise", args: {} },
            ],
          },
          { text: "done" },
        ],
        {
          tools: ["secret_report", "fail_tool", "noise"],
          agentHooks: ["redact_result", "recover_failure", "drop_noise"],
        },
      ),
    );
    const threadId = await startThread(projectId, "assistant", "report");
    await waitFor(threadId, ["idle"]);
    const messages = await messagesOf(threadId);
    expect(toolMessages(messages)).toEqual([
      ["secret_report", "success", expect.stringMatching(/^report: token \[redacted\] inside/)],
      ["fail_tool", "success", "recovered from: warehouse offline"],
    ]);
    const report = messages.find((message) => message.name === "secret_report");
    expect(report?.content).toContain('Attachment path for "receipt.txt": /attachments/receipt.txt');
    expect(report?.attachments.map((file) => [file.path, file.mimeType, file.size])).toEqual([
      ["/attachments/receipt.txt", "text/plain", 4],
    ]);
    const assistant = messages.find((message) => message.role === "assistant" && message.tool_calls);
    expect(
      JSON.parse(assistant!.tool_calls!).map((call: { function: { name: string } }) => call.function.name),
    ).toEqual(["secret_report", "fail_tool"]);
    // The dropped call is not sent to the model either.
    const [, second] = await modelRequests(threadId);
    expect(JSON.stringify(second!.messages)).not.toContain("noise");
  });

  it("runs only the prompt's hooks when the prompt declares any (they replace the agent's)", async () => {
    const projectId = await projectWith(
      bundle([{ text: "answer" }], {
        agentHooks: ["system_marker", "add_footer"],
        promptHooks: ["tag_assistant"],
      }),
    );
    const threadId = await startThread(projectId, "assistant", "hi");
    await waitFor(threadId, ["idle"]);
    const [request] = await modelRequests(threadId);
    expect(request!.messages.map((message) => message.content)).toEqual(["You are helpful.", "hi"]);
    expect((await messagesOf(threadId)).at(-1)?.content).toBe("[tagged] answer");
  });

  it("treats a hook that exceeds the time limit as failed and keeps the value", async () => {
    const projectId = await projectWith(
      bundle([{ text: "answer" }], { agentHooks: ["slow_hook", "system_marker"] }),
    );
    const threadId = await startThread(projectId, "assistant", "hi");
    await waitFor(threadId, ["idle"]);
    const [request] = await modelRequests(threadId);
    expect(request!.messages[0]).toEqual({ role: "system", content: "You are helpful.\n\nHOOKED-SYSTEM" });
  });

  it("runs after_thread_created before the first step, and the update hooks around state.updateMessage", async () => {
    const projectId = await projectWith(
      bundle([{ toolCalls: [{ name: "queue_note", args: {} }] }, { text: "answered {{input}}" }], {
        tools: ["queue_note"],
        agentHooks: ["greet_thread", "mark_update"],
      }),
    );
    const threadId = await startThread(projectId, "assistant", "go");
    await waitFor(threadId, ["idle"]);
    const deadline = Date.now() + 10_000;
    let all = await messagesOf(threadId, true);
    while (!all.some((message) => message.content === "answered queued note") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      all = await messagesOf(threadId, true);
    }
    expect(all.slice(0, 2).map((message) => [message.role, message.content])).toEqual([
      ["assistant", "Welcome to assistant!"],
      ["user", "go"],
    ]);
    expect(all.find((message) => message.role === "system")?.content).toBe(
      "injected notice (edited) [update hooked]",
    );
  });
});
