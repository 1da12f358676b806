// The runtime through the thread routes of API.md: real HTTP, the built server, a real database,
// scripted models. Each test builds the bundle it needs.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { connectSse } from "../support/sse";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf, modelRequests } = threadHelpers(fixture);

function chatBundle(
  script: unknown[],
  extra: { tools?: unknown[]; promptTools?: unknown[]; side?: Record<string, unknown> } = {},
) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "assistant_chat", ...extra.side } }],
    prompts: [
      {
        name: "assistant_chat",
        toolDescription: "Chats",
        prompt: "You are helpful.",
        model: "demo",
        includeChat: true,
        ...(extra.promptTools ? { tools: extra.promptTools } : {}),
      },
    ],
    models: [
      { name: "demo", provider: "scripted", model: "scripted", inputPrice: 1, outputPrice: 2, script },
    ],
    tools: extra.tools ?? [],
  };
}

describe("ai_human conversations", () => {
  it("answers each human message in turn, parks idle between turns, and records usage and cost", async () => {
    const projectId = await projectWith(
      chatBundle([{ text: "Hello, you said: {{input}}" }, { text: "Second answer" }]),
    );
    const threadId = await startThread(projectId, "assistant", "Hi there");
    const idle = await waitFor(threadId, ["idle"]);
    expect(idle.usage.input_tokens).toBeGreaterThan(0);
    expect(idle.usage.cost_usd).toBeGreaterThan(0);
    expect((await messagesOf(threadId)).map((m) => [m.role, m.content])).toEqual([
      ["user", "Hi there"],
      ["assistant", "Hello, you said: Hi there"],
    ]);

    const posted = await api<{ status: string; messageId: string; queueId: string }>(
      "POST",
      `/api/threads/${threadId}/messages`,
      {
        content: "And again",
      },
    );
    expect(posted.status).toBe(202);
    expect(posted.body.status).toBe("queued");
    await waitFor(threadId, ["idle"]);
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => m.content)).toEqual([
      "Hi there",
      "Hello, you said: Hi there",
      "And again",
      "Second answer",
    ]);
    expect(messages.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(messages[2]!.id).toBe(posted.body.messageId);
    for (const message of messages) expect(message.created_at).toBeGreaterThan(1_000_000_000_000_000);
  });

  it("runs tools in order, feeds results back, and turns tool failures into error results", async () => {
    const bundle = chatBundle(
      [
        {
          toolCalls: [
            { name: "write_note", args: { path: "/notes.md", content: "remember {{input}}" } },
            { name: "no_such_tool", args: {} },
            { name: "read_note", args: { path: "/notes.md" } },
          ],
        },
        { text: "The note says: {{tool_result}}" },
      ],
      {
        tools: [
          { name: "write_note", description: "Writes a note", kind: "builtin", builtin: "fs_write" },
          { name: "read_note", description: "Reads a note", kind: "builtin", builtin: "fs_read" },
        ],
        promptTools: ["write_note", "read_note"],
      },
    );
    const threadId = await startThread(await projectWith(bundle), "assistant", "milk");
    await waitFor(threadId, ["idle"]);
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => [m.role, m.name, m.tool_status])).toEqual([
      ["user", null, null],
      ["assistant", null, null],
      ["tool", "write_note", "success"],
      ["tool", "no_such_tool", "error"],
      ["tool", "read_note", "success"],
      ["assistant", null, null],
    ]);
    const calls = JSON.parse(messages[1]!.tool_calls!) as { id: string; function: { name: string } }[];
    expect(calls.map((call) => call.function.name)).toEqual(["write_note", "no_such_tool", "read_note"]);
    expect(messages.slice(2, 5).map((m) => m.tool_call_id)).toEqual(calls.map((call) => call.id));
    expect(messages[3]!.content).toBe(
      'Failed to execute tool: Tool "no_such_tool" is not available for this prompt. You can only use tools that were explicitly configured for this prompt.',
    );
    expect(messages[5]!.content).toBe("The note says: remember milk");
  });

  it("rejects an empty reply with the spec's error and lets the model try again", async () => {
    const threadId = await startThread(
      await projectWith(chatBundle([{ text: "" }, { text: "Sorry, here I am" }])),
      "assistant",
      "hello?",
    );
    await waitFor(threadId, ["idle"]);
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages[2]).toMatchObject({
      name: "invalid_assistant_response",
      tool_status: "error",
      content:
        "Failed to execute tool: You must reply. Empty response was rejected. Return non-empty content, call a tool, or include attachments.",
    });
    expect(messages[3]!.content).toBe("Sorry, here I am");
  });

  it("stops cleanly with a reason at maxSteps", async () => {
    const bundle = chatBundle(
      [
        { text: "one", toolCalls: [{ name: "list", args: {} }] },
        { text: "two", toolCalls: [{ name: "list", args: {} }] },
      ],
      {
        tools: [{ name: "list", description: "Lists files", kind: "builtin", builtin: "fs_list" }],
        promptTools: ["list"],
        side: { maxSteps: 2 },
      },
    );
    const threadId = await startThread(await projectWith(bundle), "assistant", "loop");
    const stopped = await waitFor(threadId, ["stopped"]);
    expect(stopped.stop_reason).toBe("Side a reached max steps (2)");
    expect(stopped.failure).toBeNull();
  });

  it("answers fs_list and fs_grep in their documented line formats", async () => {
    const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });
    const bundle = chatBundle(
      [
        call("write", { path: "/notes/a.md", content: "alpha\nthe beta line\nomega" }),
        call("write", { path: "/notes/deep/b.txt", content: "beta" }),
        call("list", { path: "/notes" }),
        call("grep", { pattern: "beta" }),
        call("grep", { pattern: "absent" }),
        call("list", { path: "/nothing-here" }),
        { text: "done" },
      ],
      {
        tools: [
          { name: "write", description: "Writes a file", kind: "builtin", builtin: "fs_write" },
          { name: "list", description: "Lists files", kind: "builtin", builtin: "fs_list" },
          { name: "grep", description: "Searches files", kind: "builtin", builtin: "fs_grep" },
        ],
        promptTools: ["write", "list", "grep"],
      },
    );
    const threadId = await startThread(await projectWith(bundle), "assistant", "file things");
    await waitFor(threadId, ["idle"]);
    const toolAnswers = (await messagesOf(threadId))
      .filter((message) => message.role === "tool")
      .map((message) => message.content);
    expect(toolAnswers.slice(2)).toEqual([
      // fs_list: directories end in a slash, files carry their size.
      "/notes/a.md (25 bytes)\n/notes/deep/",
      // fs_grep: one `path:line: text` line per matching line, across every file.
      "/notes/a.md:2: the beta line\n/notes/deep/b.txt:1: beta",
      "No matches",
      "(empty)",
    ]);
  });

  it("completes the session through a sessionStop binding the runtime synthesizes", async () => {
    const toolNames = (message: ApiMessage) => {
      const calls =
        typeof message.tool_calls === "string" ? JSON.parse(message.tool_calls) : message.tool_calls;
      return (calls as { function: { name: string } }[] | null)?.map((call) => call.function.name);
    };
    const bundle = chatBundle([{ toolCalls: [{ name: "finish", args: { message: "all done" } }] }], {
      side: { sessionStop: "finish" },
    });
    const threadId = await startThread(await projectWith(bundle), "assistant", "wrap up");
    const done = await waitFor(threadId, ["completed"]);
    expect(done.result).toBe("all done");
    // A reply of binding calls alone commits with its results: everything the one-commit-per-call
    // path left is there, once, in order.
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => [m.role, m.content, toolNames(m)])).toEqual([
      ["user", "wrap up", undefined],
      ["assistant", "", ["finish"]],
      ["tool", "Session completed", undefined],
    ]);
    const logs = await api<{
      model_calls: unknown[];
      tool_calls: { name: string; status: string; args: unknown; result: string }[];
    }>("GET", `/api/threads/${threadId}/logs`);
    expect(logs.body.model_calls).toHaveLength(1);
    expect(logs.body.tool_calls).toMatchObject([
      { name: "finish", status: "success", args: { message: "all done" }, result: "Session completed" },
    ]);
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`, {
      "Last-Event-ID": "0",
    });
    const telemetry = () =>
      stream.frames
        .filter((frame) => frame.event === "telemetry")
        .map((frame) => (JSON.parse(frame.data) as { type: string }).type);
    await stream.waitFor(() => telemetry().includes("stopped"));
    stream.close();
    expect(telemetry().filter((type) => type !== "llm_request" && type !== "llm_response")).toEqual([
      "step_started",
      "tool_started",
      "tool_completed",
      "step_completed",
      "stopped",
    ]);
    const ids = stream.frames.map((frame) => Number(frame.id));
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);
  });

  it("fails the thread with the provider's error after retries when every model fails", async () => {
    const threadId = await startThread(
      await projectWith(chatBundle([{ error: "simulated outage" }])),
      "assistant",
      "hi",
    );
    const failed = await waitFor(threadId, ["failed"], 30_000);
    expect(failed.failure).toContain("simulated outage");
    const logs = await api<{ model_calls: { error: string | null }[] }>(
      "GET",
      `/api/threads/${threadId}/logs`,
    );
    expect(logs.body.model_calls.at(-1)?.error).toContain("All retry attempts exhausted");
  }, 40_000);
});

describe("handoff and environment", () => {
  it("hands the thread to an exposed ai_human agent, keeping history; side A of the new agent continues", async () => {
    const bundle = {
      agents: [
        { name: "front_desk", title: "Front desk", sideA: { prompt: "front_chat" } },
        {
          name: "billing",
          title: "Billing",
          exposeAsTool: true,
          toolDescription: "Billing questions",
          sideA: { prompt: "billing_chat" },
        },
      ],
      prompts: [
        {
          name: "front_chat",
          toolDescription: "f",
          prompt: "Route the user.",
          model: "front_model",
          includeChat: true,
          tools: [{ name: "billing", initUserMessageProperty: "summary" }],
        },
        {
          name: "billing_chat",
          toolDescription: "b",
          prompt: "You handle billing.",
          model: "billing_model",
          includeChat: true,
        },
      ],
      models: [
        {
          name: "front_model",
          provider: "scripted",
          model: "s",
          script: [{ toolCalls: [{ name: "billing", args: { summary: "Customer asks: {{input}}" } }] }],
        },
        {
          name: "billing_model",
          provider: "scripted",
          model: "s",
          script: [{ text: "Billing here. You said: {{input}}" }],
        },
      ],
      tools: [],
    };
    const threadId = await startThread(await projectWith(bundle), "front_desk", "refund please");
    await waitFor(threadId, ["idle"]);
    const thread = (await api<{ thread: { agent_id: string } }>("GET", `/api/threads/${threadId}`)).body
      .thread;
    expect(thread.agent_id).toBe("billing");
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => [m.role, m.name, m.content])).toEqual([
      ["user", null, "refund please"],
      ["assistant", null, ""],
      ["tool", "billing", "Handoff complete"],
      ["user", null, "Customer asks: refund please"],
      ["assistant", null, "Billing here. You said: Customer asks: refund please"],
    ]);
    const logs = await api<{
      model_calls: { request: { messages: { role: string; content: unknown }[] } }[];
    }>("GET", `/api/threads/${threadId}/logs`);
    // The new agent sees the whole history under its own system prompt.
    expect(logs.body.model_calls[1]!.request.messages[0]).toEqual({
      role: "system",
      content: "You handle billing.",
    });
    expect(logs.body.model_calls[1]!.request.messages.length).toBeGreaterThan(2);
  });

  it("renders env parts with thread env over agent env over prompt env", async () => {
    const bundle = chatBundle([{ text: "ok" }]) as ReturnType<typeof chatBundle> & Record<string, unknown>;
    (bundle.agents[0] as Record<string, unknown>).env = {
      TONE: "agent-tone",
      PLACE: "agent-place",
      ONLY_AGENT: "a",
    };
    Object.assign(bundle.prompts[0]!, {
      prompt: [
        { type: "text", content: "tone=" },
        { type: "env", property: "TONE" },
        { type: "text", content: " place=" },
        { type: "env", property: "PLACE" },
        { type: "text", content: " prompt=" },
        { type: "env", property: "ONLY_PROMPT" },
        { type: "text", content: " missing=[" },
        { type: "env", property: "NOWHERE" },
        { type: "text", content: "]" },
      ],
      env: { TONE: "prompt-tone", PLACE: "prompt-place", ONLY_PROMPT: "p" },
    });
    const project = await projectWith(bundle);
    const created = await api<{ threadId: string }>("POST", "/api/threads", {
      project_id: project,
      agent_id: "assistant",
      message: "hi",
      env: { TONE: "thread-tone" },
    });
    await waitFor(created.body.threadId, ["idle"]);
    const logs = await api<{ model_calls: { request: { messages: { content: unknown }[] } }[] }>(
      "GET",
      `/api/threads/${created.body.threadId}/logs`,
    );
    expect(logs.body.model_calls[0]!.request.messages[0]!.content).toBe(
      "tone=thread-tone place=agent-place prompt=p missing=[]",
    );
  });

  it("refuses an HTTP tool call to a private address with a clear tool error", async () => {
    const bundle = chatBundle([{ toolCalls: [{ name: "internal", args: {} }] }, { text: "could not" }], {
      tools: [
        {
          name: "internal",
          description: "Internal service",
          kind: "http",
          method: "GET",
          url: "http://127.0.0.1:9/secret",
        },
      ],
      promptTools: ["internal"],
    });
    const threadId = await startThread(await projectWith(bundle), "assistant", "peek");
    await waitFor(threadId, ["idle"]);
    const tool = (await messagesOf(threadId)).find((m) => m.role === "tool");
    expect(tool?.tool_status).toBe("error");
    expect(tool?.content).toContain("Refusing to call 127.0.0.1: it is a private or loopback address");
  });
});

describe("prompts called as tools", () => {
  it("runs a sub-prompt nested at depth 1, validates its requiredSchema, and returns the reference result format", async () => {
    const bundle = {
      agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
      prompts: [
        {
          name: "assistant_chat",
          toolDescription: "c",
          prompt: "Delegate.",
          model: "demo",
          includeChat: true,
          tools: [{ name: "summarize", initUserMessageProperty: "text" }],
        },
        {
          name: "summarize",
          toolDescription: "Summarizes and files a text",
          prompt: "Summarize and save.",
          model: "summarizer",
          requiredSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          tools: ["note_write"],
        },
      ],
      models: [
        {
          name: "demo",
          provider: "scripted",
          model: "s",
          script: [
            { toolCalls: [{ name: "summarize", args: { text: "long text" } }] },
            { toolCalls: [{ name: "summarize", args: {} }] },
            { text: "Done: {{tool_result}}" },
          ],
        },
        {
          name: "summarizer",
          provider: "scripted",
          model: "s",
          script: [{ toolCalls: [{ name: "note_write", args: { path: "/s.txt", content: "{{input}}" } }] }],
        },
      ],
      tools: [{ name: "note_write", description: "Writes a note", kind: "builtin", builtin: "fs_write" }],
    };
    const threadId = await startThread(await projectWith(bundle), "assistant", "please summarize");
    await waitFor(threadId, ["idle"]);
    const top = await messagesOf(threadId);
    expect(top.map((m) => [m.role, m.name, m.tool_status])).toEqual([
      ["user", null, null],
      ["assistant", null, null],
      ["tool", "summarize", "success"],
      ["assistant", null, null],
      ["tool", "summarize", "error"],
      ["assistant", null, null],
    ]);
    expect(top[2]!.content).toBe(
      'Tool Executions:\nTool Call: note_write({"path":"/s.txt","content":"long text"})\nTool Response: Wrote 9 bytes to /s.txt',
    );
    expect(top[4]!.content).toBe(
      "Failed to execute tool: Prompt tool argument validation failed: [text] Required",
    );
    expect(top[5]!.content).toBe(`Done: ${top[4]!.content}`);
    const nested = (
      await api<{ messages: (ApiMessage & { depth: number; parent_id: string | null })[] }>(
        "GET",
        `/api/threads/${threadId}/messages?depth=1`,
      )
    ).body.messages.filter((m) => m.depth === 1);
    expect(nested.map((m) => [m.role, m.name, m.content])).toEqual([
      ["user", null, "long text"],
      ["assistant", null, ""],
      ["tool", "note_write", "Wrote 9 bytes to /s.txt"],
    ]);
    expect(new Set(nested.map((m) => m.parent_id))).toEqual(new Set([top[2]!.id]));
  });
});

describe("dual_ai conversations", () => {
  const assetBundle = (reviewerScript: unknown[]) => ({
    agents: [
      {
        name: "asset_subagent",
        type: "dual_ai",
        maxSessionTurns: 3,
        exposeAsTool: true,
        toolDescription: "Generate and QA assets.",
        sideA: { label: "Worker", prompt: "asset_worker", stopOnResponse: true },
        sideB: {
          label: "Reviewer",
          prompt: "asset_reviewer",
          stopOnResponse: true,
          sessionStop: { name: "approve_asset", messageProperty: "summary" },
          sessionStatus: { name: "update_asset_status", messageProperty: "status" },
        },
      },
    ],
    prompts: [
      {
        name: "asset_worker",
        toolDescription: "w",
        prompt: "Make assets.",
        model: "worker_model",
        includeChat: true,
      },
      {
        name: "asset_reviewer",
        toolDescription: "r",
        prompt: "Review assets.",
        model: "reviewer_model",
        includeChat: true,
        tools: ["approve_asset", "update_asset_status"],
      },
    ],
    models: [
      {
        name: "worker_model",
        provider: "scripted",
        model: "s",
        script: [{ text: "Draft of {{input}}" }, { text: "Fixed draft" }],
      },
      { name: "reviewer_model", provider: "scripted", model: "s", script: reviewerScript },
    ],
    tools: [],
  });

  it("alternates sides with each seeing its own perspective, and completes via sessionStop", async () => {
    // The reviewer publishes a status, asks for a fix (a response ends its turn), then approves.
    const bundle = assetBundle([
      { toolCalls: [{ name: "update_asset_status", args: { status: "reviewing: {{input}}" } }] },
      { text: "Please fix the shadow" },
      { toolCalls: [{ name: "approve_asset", args: { summary: "Approved: {{input}}" } }] },
    ]);
    const threadId = await startThread(await projectWith(bundle), "asset_subagent", "a tree sprite");
    const done = await waitFor(threadId, ["completed"]);
    expect(done.result).toBe("Approved: Fixed draft");
    expect(done.status_text).toBe("reviewing: Draft of a tree sprite");
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => [m.side, m.role, m.content ?? m.name])).toEqual([
      [null, "user", "a tree sprite"],
      ["a", "assistant", "Draft of a tree sprite"],
      ["b", "user", ""],
      ["b", "tool", "Status updated: reviewing: Draft of a tree sprite"],
      ["b", "user", "Please fix the shadow"],
      ["a", "assistant", "Fixed draft"],
      ["b", "user", ""],
      ["b", "tool", "Session completed"],
    ]);
  });

  it("passes the turn after every step of a side with no turn-stop condition (the spec's reviewer)", async () => {
    const bundle = assetBundle([
      { text: "Change the colour" },
      { toolCalls: [{ name: "approve_asset", args: { summary: "ok" } }] },
    ]);
    bundle.agents[0]!.sideB.stopOnResponse = false; // as in spec §8: the reviewer ends only via its bindings
    const threadId = await startThread(await projectWith(bundle), "asset_subagent", "a rock");
    const done = await waitFor(threadId, ["completed"]);
    expect(done.result).toBe("ok");
    expect((await messagesOf(threadId)).map((m) => [m.side, m.content])).toEqual([
      [null, "a rock"],
      ["a", "Draft of a rock"],
      ["b", "Change the colour"],
      ["a", "Fixed draft"],
      ["b", ""],
      ["b", "Session completed"],
    ]);
  });

  it("hands the value a stopTool extracted to the other side as the side's message, without its tool calls", async () => {
    const bundle = assetBundle([
      { text: "Reviewed: {{input}}" },
      { toolCalls: [{ name: "approve_asset", args: { summary: "ok" } }] },
    ]);
    const worker = bundle.agents[0]!.sideA as Record<string, unknown>;
    Object.assign(worker, {
      stopOnResponse: false,
      stopTool: "submit_draft",
      stopToolResponseProperty: "content",
    });
    Object.assign(bundle.prompts[0]!, { tools: ["submit_draft"] });
    Object.assign(bundle, {
      tools: [
        { name: "submit_draft", description: "Hands in a draft", kind: "builtin", builtin: "fs_write" },
      ],
    });
    bundle.models[0]!.script = [
      { toolCalls: [{ name: "submit_draft", args: { path: "/draft.md", content: "Draft of {{input}}" } }] },
      { toolCalls: [{ name: "submit_draft", args: { path: "/draft.md", content: "Fixed draft" } }] },
    ];
    const threadId = await startThread(await projectWith(bundle), "asset_subagent", "a rock");
    const done = await waitFor(threadId, ["completed"]);
    expect(done.result).toBe("ok");
    const messages = await messagesOf(threadId);
    expect(messages.filter((m) => m.side === "a" && m.role === "assistant").map((m) => m.content)).toEqual([
      "Draft of a rock",
      "Fixed draft",
    ]);
    // The reviewer's requests: the worker's outcome as a user message each time; no tool traffic.
    const reviewer = (await modelRequests(threadId)).filter((request) =>
      String(request.messages[0]?.content).startsWith("Review assets."),
    );
    expect(reviewer.map((request) => request.messages.slice(1))).toEqual([
      [
        { role: "user", content: "a rock" },
        { role: "user", content: "Draft of a rock" },
      ],
      [
        { role: "user", content: "a rock" },
        { role: "user", content: "Draft of a rock" },
        { role: "assistant", content: "Reviewed: Draft of a rock" },
        { role: "user", content: "Fixed draft" },
      ],
    ]);
  });

  it("stops at maxSessionTurns", async () => {
    const bundle = assetBundle([{ text: "more" }, { text: "more" }, { text: "more" }, { text: "more" }]);
    bundle.agents[0]!.maxSessionTurns = 2;
    const threadId = await startThread(await projectWith(bundle), "asset_subagent", "x");
    const stopped = await waitFor(threadId, ["stopped"]);
    expect(stopped.stop_reason).toBe("Reached max session turns (2 exchanges)");
    const sides = (await messagesOf(threadId)).map((m) => m.side);
    expect(sides).toEqual([null, "a", "b", "a", "b"]);
  });
});

describe("stop and terminate", () => {
  it("a user stop aborts the run, answers open calls, and the next message resumes", async () => {
    const projectId = await projectWith(
      chatBundle([{ text: "slow", delayMs: 2_000 }, { text: "back again" }]),
    );
    const threadId = await startThread(projectId, "assistant", "take your time");
    await waitFor(threadId, ["running"]);
    const stop = await api<{ status: string }>("POST", `/api/threads/${threadId}/stop`);
    expect(stop.status).toBe(200);
    expect(stop.body.status).toBe("stopped");
    const stopped = await waitFor(threadId, ["stopped"]);
    expect(stopped.stop_reason).toBe("Stopped by user");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const silent = await messagesOf(threadId, true);
    expect(silent.map((m) => [m.role, m.content])).toEqual([
      ["user", "take your time"],
      ["system", "Execution stopped by user"],
    ]);
    await api("POST", `/api/threads/${threadId}/messages`, { content: "now?" });
    await waitFor(threadId, ["idle"]);
    // The aborted call never completed, so the script's first entry answers now.
    expect((await messagesOf(threadId)).map((m) => m.content)).toEqual(["take your time", "now?", "slow"]);
  }, 30_000);

  it("terminate is permanent: new messages get 423", async () => {
    const threadId = await startThread(await projectWith(chatBundle([{ text: "hi" }])), "assistant", "hello");
    await waitFor(threadId, ["idle"]);
    const terminated = await api<{ status: string; terminated: string[] }>(
      "POST",
      `/api/threads/${threadId}/terminate`,
    );
    expect(terminated.status).toBe(200);
    expect(terminated.body.terminated).toEqual([threadId]);
    const thread = await waitFor(threadId, ["terminated"]);
    expect(thread.terminated).toBeGreaterThan(0);
    const refused = await api<{ code: string }>("POST", `/api/threads/${threadId}/messages`, {
      content: "still there?",
    });
    expect(refused.status).toBe(423);
    expect(refused.body.code).toBe("thread_terminated");
  });
});

describe("the thread filesystem", () => {
  it("writes, lists, reads and deletes files, and refuses paths that leave the thread", async () => {
    const threadId = await startThread(await projectWith(chatBundle([{ text: "hi" }])), "assistant");
    const base = `${fixture.server.baseUrl}/api/threads/${threadId}/fs`;
    const put = await fetch(`${base}/docs/notes.md`, {
      method: "PUT",
      headers: { "content-type": "text/markdown" },
      body: "# Notes",
    });
    expect(put.status).toBe(201);
    expect(await put.json()).toMatchObject({
      path: "/docs/notes.md",
      name: "notes.md",
      mimeType: "text/markdown",
      size: 7,
    });
    const root = await api<{ entries: { path: string; isDirectory: boolean }[] }>(
      "GET",
      `/api/threads/${threadId}/fs`,
    );
    expect(root.body.entries).toEqual([expect.objectContaining({ path: "/docs", isDirectory: true })]);
    const docs = await api<{ entries: { path: string }[] }>("GET", `/api/threads/${threadId}/fs?path=/docs`);
    expect(docs.body.entries.map((entry) => entry.path)).toEqual(["/docs/notes.md"]);
    const read = await fetch(`${base}/docs/notes.md`);
    expect(read.headers.get("content-type")).toBe("text/markdown");
    expect(await read.text()).toBe("# Notes");
    // Dot segments are resolved by the router before us (never 200); encoded slashes reach the
    // handler and are refused by the path normaliser.
    expect((await fetch(`${base}/docs/%2E%2E/%2E%2E/etc/passwd`)).status).not.toBe(200);
    const traversal = await fetch(`${base}/docs/..%2F..%2Fetc%2Fpasswd`);
    expect(traversal.status).toBe(400);
    expect(((await traversal.json()) as { code: string }).code).toBe("invalid_path");
    expect((await api("DELETE", `/api/threads/${threadId}/fs/docs/notes.md`)).status).toBe(200);
    expect((await fetch(`${base}/docs/notes.md`)).status).toBe(404);
    const other = await startThread(await projectWith(chatBundle([{ text: "hi" }])), "assistant");
    expect((await api<{ entries: unknown[] }>("GET", `/api/threads/${other}/fs`)).body.entries).toEqual([]);
  });

  it("creates but never replaces a file with If-None-Match: *", async () => {
    const threadId = await startThread(await projectWith(chatBundle([{ text: "hi" }])), "assistant");
    const base = `${fixture.server.baseUrl}/api/threads/${threadId}/fs`;
    const createOnly = (path: string, body: string) =>
      fetch(`${base}${path}`, {
        method: "PUT",
        headers: { "content-type": "text/plain", "if-none-match": "*" },
        body,
      });
    const created = await createOnly("/uploads/a.txt", "first");
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ path: "/uploads/a.txt", size: 5 });
    const taken = await createOnly("/uploads/a.txt", "second");
    expect(taken.status).toBe(412);
    expect(await taken.json()).toMatchObject({ code: "file_exists", path: "/uploads/a.txt" });
    expect(await (await fetch(`${base}/uploads/a.txt`)).text()).toBe("first");
    // A directory is taken too (a file below it), and a plain PUT still replaces.
    expect((await createOnly("/uploads", "x")).status).toBe(412);
    const replaced = await fetch(`${base}/uploads/a.txt`, { method: "PUT", body: "third" });
    expect(replaced.status).toBe(201);
    expect(await (await fetch(`${base}/uploads/a.txt`)).text()).toBe("third");
  });
});

describe("thread API input", () => {
  it("answers 404 for unknown projects, agents and threads, and 400 for bad bodies", async () => {
    const projectId = await projectWith(chatBundle([{ text: "hi" }]));
    expect((await api("POST", "/api/threads", { project_id: projectId, agent_id: "ghost" })).status).toBe(
      404,
    );
    expect(
      (
        await api("POST", "/api/threads", {
          project_id: "8f0c7f7e-0000-4000-8000-000000000000",
          agent_id: "assistant",
        })
      ).status,
    ).toBe(404);
    expect((await api("POST", "/api/threads", { agent_id: "assistant" })).status).toBe(400);
    expect((await api("GET", "/api/threads/not-a-thread")).status).toBe(404);
    expect(
      (await api("POST", "/api/threads/8f0c7f7e-0000-4000-8000-000000000000/messages", { content: "x" }))
        .status,
    ).toBe(404);
    const threadId = await startThread(projectId, "assistant");
    expect((await api("POST", `/api/threads/${threadId}/messages`, { content: 7 })).status).toBe(400);
    expect((await api("POST", `/api/threads/${threadId}/messages`, { content: "  " })).status).toBe(400);
    expect((await api("GET", `/api/threads/${threadId}/messages?limit=zero`)).status).toBe(400);
  });

  it("answers the child registry and tree of a thread without children", async () => {
    const threadId = await startThread(await projectWith(chatBundle([{ text: "hi" }])), "assistant");
    expect((await api("GET", `/api/threads/${threadId}/subagents`)).body).toEqual({ subagents: [] });
    const tree = await api<{ root: { id: string; children: unknown[]; status: string } }>(
      "GET",
      `/api/threads/${threadId}/tree`,
    );
    expect(tree.body.root).toMatchObject({ id: threadId, children: [], status: "idle" });
    expect((await api("GET", "/api/threads/8f0c7f7e-0000-4000-8000-000000000000/subagents")).status).toBe(
      404,
    );
  });

  it("lists threads of a project with paging", async () => {
    const projectId = await projectWith(chatBundle([{ text: "hi" }]));
    const ids = [
      await startThread(projectId, "assistant"),
      await startThread(projectId, "assistant"),
      await startThread(projectId, "assistant"),
    ];
    const page = await api<{ threads: { id: string }[]; total: number; hasMore: boolean }>(
      "GET",
      `/api/threads?project_id=${projectId}&limit=2`,
    );
    expect(page.body.total).toBe(3);
    expect(page.body.hasMore).toBe(true);
    expect(page.body.threads).toHaveLength(2);
    const rest = await api<{ threads: { id: string }[]; hasMore: boolean }>(
      "GET",
      `/api/threads?project_id=${projectId}&limit=2&offset=2`,
    );
    expect(rest.body.hasMore).toBe(false);
    expect(new Set([...page.body.threads, ...rest.body.threads].map((thread) => thread.id))).toEqual(
      new Set(ids),
    );
  });
});
