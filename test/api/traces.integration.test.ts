// Traces and metrics out (API.md "Traces out", docs/observability.md): real servers export to a real
// OTLP/HTTP receiver started here — one over http/protobuf (the default), one over http/json with
// message content captured, one with no OTLP variable at all. Span names and attributes per the
// GenAI semantic conventions, a fan-out whose children nest under the spawning tool calls,
// `traceparent` joining on thread creation and on a message, content left out by default; span
// events for approvals, handoffs, effects and replay divergences; error statuses of failed model
// calls, tools and runs; the spans of a tree stopped while a child waited; the GenAI client metrics
// and Tandem's own in both encodings; nothing when unset.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chatBundle } from "../support/bench-bundles";
import { testBackend } from "../support/database";
import { testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";
import { type ReceivedMetricPoint, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver";
import { assetBundle, assetFanOutBundle } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";

const receiver = await startOtlpReceiver();
afterAll(() => receiver.close());

const exporting = testServerForFile({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_BSP_SCHEDULE_DELAY: "50",
  OTEL_METRIC_EXPORT_INTERVAL: "250",
  TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions"),
  // A failing scripted model fails its call at once (no retries to wait for).
  TANDEM_MODEL_RETRY_BUDGET_MS: "0",
  TANDEM_EFFECT_RETRY_MS: "100",
});
const json = testServerForFile({
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`,
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${receiver.endpoint}/v1/metrics`,
  OTEL_METRIC_EXPORT_INTERVAL: "250",
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_SERVICE_NAME: "tandem-json",
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
  OTEL_BSP_SCHEDULE_DELAY: "50",
});
const unset = testServerForFile({});

function newCaller() {
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  return { traceId, spanId, header: `00-${traceId}-${spanId}-01` };
}

const inTrace = (traceId: string) => (span: ReceivedSpan) => span.traceId === traceId;
const named = (prefix: string) => (span: ReceivedSpan) => span.name.startsWith(prefix);

async function createThread(
  baseUrl: string,
  body: Record<string, unknown>,
  traceparent?: string,
): Promise<{ threadId: string; trace_id: string | null }> {
  const created = await requestJson<{ threadId: string; trace_id: string | null }>(
    baseUrl,
    "POST",
    "/api/threads",
    body,
    traceparent ? { headers: { traceparent } } : {},
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe("traces over http/protobuf", () => {
  const { projectWith, waitFor } = threadHelpers(exporting);

  it("a fan-out: invoke_agent per run, chat per model call, execute_tool per call, each child under the call that spawned it, in the caller's trace", async () => {
    const projectId = await projectWith(assetFanOutBundle(2));
    const caller = newCaller();
    const created = await createThread(
      exporting.server.baseUrl,
      { project_id: projectId, agent_id: "orchestrator", message: "Make two assets" },
      caller.header,
    );
    const parentId = created.threadId;
    expect(created.trace_id).toBe(caller.traceId);

    const spans = await receiver.waitFor(
      (all) =>
        all.filter(inTrace(caller.traceId)).filter((span) => span.name === "invoke_agent asset_subagent")
          .length === 2 &&
        all.some((span) => inTrace(caller.traceId)(span) && span.name === "invoke_agent orchestrator"),
    );
    const trace = spans.filter(inTrace(caller.traceId));
    const root = trace.find((span) => span.name === "invoke_agent orchestrator")!;
    expect(root.parentSpanId).toBe(caller.spanId);
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "orchestrator",
      "gen_ai.conversation.id": parentId,
      "tandem.thread.id": parentId,
    });
    expect(root.resource["service.name"]).toBe("tandem");
    expect(root.statusCode).not.toBe(2);

    // The orchestrator's first model call, under its run.
    const chats = trace
      .filter(named("chat "))
      .filter((span) => span.attributes["tandem.thread.id"] === parentId);
    expect(chats.length).toBeGreaterThan(0);
    const firstChat = chats.find((span) => span.parentSpanId === root.spanId)!;
    expect(firstChat.name).toBe("chat s");
    expect(firstChat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "scripted",
      "gen_ai.request.model": "s",
      "gen_ai.response.finish_reasons": ["tool_calls"],
    });
    expect(typeof firstChat.attributes["gen_ai.usage.input_tokens"]).toBe("number");
    expect(typeof firstChat.attributes["gen_ai.usage.output_tokens"]).toBe("number");

    // Two spawn calls, each the parent of one child's run.
    const tools = trace.filter((span) => span.name === "execute_tool asset_subagent");
    expect(tools).toHaveLength(2);
    for (const tool of tools) {
      expect(tool.parentSpanId).toBe(root.spanId);
      expect(tool.attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "asset_subagent",
      });
      expect(typeof tool.attributes["gen_ai.tool.call.id"]).toBe("string");
    }
    const children = trace.filter((span) => span.name === "invoke_agent asset_subagent");
    expect(children.map((child) => child.parentSpanId).sort()).toEqual(
      tools.map((tool) => tool.spanId).sort(),
    );
    const registry = await exporting.api<{ subagents: { reference: string }[] }>(
      "GET",
      `/api/threads/${parentId}/subagents`,
    );
    const childIds = registry.body.subagents.map((entry) => entry.reference).sort();
    expect(children.map((child) => child.attributes["tandem.thread.id"]).sort()).toEqual(childIds);
    for (const child of children) {
      expect(child.attributes["gen_ai.conversation.id"]).toBe(parentId);
      expect(child.attributes["gen_ai.agent.name"]).toBe("asset_subagent");
      // The child's own model calls nest under its run.
      expect(trace.some((span) => named("chat ")(span) && span.parentSpanId === child.spanId)).toBe(true);
    }
    // Message content only on the opt-in.
    for (const span of trace) {
      expect(span.attributes["gen_ai.input.messages"]).toBeUndefined();
      expect(span.attributes["gen_ai.output.messages"]).toBeUndefined();
      expect(span.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    }
    await waitFor(parentId, ["idle"]);
  });

  it("a message with a traceparent puts the thread's next run in the caller's trace", async () => {
    const projectId = await projectWith(chatBundle(3));
    const created = await createThread(exporting.server.baseUrl, {
      project_id: projectId,
      agent_id: "chat",
      message: "first",
    });
    const threadId = created.threadId;
    expect(created.trace_id).toMatch(/^[0-9a-f]{32}$/);
    await receiver.waitFor((all) =>
      all.some(
        (span) => span.name === "invoke_agent chat" && span.attributes["tandem.thread.id"] === threadId,
      ),
    );
    const first = receiver.spans.find(
      (span) => span.name === "invoke_agent chat" && span.attributes["tandem.thread.id"] === threadId,
    )!;
    expect(first.traceId).toBe(created.trace_id);
    expect(first.parentSpanId).toBe("");
    await waitFor(threadId, ["idle"]);

    const caller = newCaller();
    const posted = await requestJson<{ status: string; trace_id: string | null }>(
      exporting.server.baseUrl,
      "POST",
      `/api/threads/${threadId}/messages`,
      { content: "second" },
      { headers: { traceparent: caller.header } },
    );
    expect(posted.status).toBe(202);
    expect(posted.body).toMatchObject({ status: "queued", trace_id: caller.traceId });
    const spans = await receiver.waitFor((all) =>
      all.some((span) => span.traceId === caller.traceId && span.name === "invoke_agent chat"),
    );
    const second = spans.find(
      (span) => span.traceId === caller.traceId && span.name === "invoke_agent chat",
    )!;
    expect(second.parentSpanId).toBe(caller.spanId);
    expect(second.attributes["gen_ai.conversation.id"]).toBe(threadId);
    expect(
      spans.some(
        (span) =>
          span.traceId === caller.traceId &&
          span.name === "chat scripted" &&
          span.parentSpanId === second.spanId,
      ),
    ).toBe(true);
  });
});

describe("traces over http/json with message content captured", () => {
  const { projectWith } = threadHelpers(json);

  it("exports the same spans as JSON, with the messages and the service name set", async () => {
    const projectId = await projectWith(chatBundle(1));
    const created = await createThread(json.server.baseUrl, {
      project_id: projectId,
      agent_id: "chat",
      message: "hello there",
    });
    const spans = await receiver.waitFor((all) =>
      all.some((span) => span.traceId === created.trace_id && span.name === "invoke_agent chat"),
    );
    const chat = spans.find((span) => span.traceId === created.trace_id && span.name === "chat scripted")!;
    expect(chat.resource["service.name"]).toBe("tandem-json");
    expect(String(chat.attributes["gen_ai.input.messages"])).toContain("hello there");
    expect(String(chat.attributes["gen_ai.output.messages"])).toContain("Answer 1 to: hello there");
    expect(receiver.requests.some((request) => request.contentType === "application/json")).toBe(true);
  });
});

const WRITE_FILE = {
  name: "write_file",
  kind: "builtin",
  builtin: "fs_write",
  description: "Write a file to this thread's filesystem.",
};

/** One ai_human agent on one scripted model with these tools. */
function toolBundle(script: unknown[], tools: unknown[], definitions: unknown[], prompt = "Be brief.") {
  return {
    agents: [{ name: "assistant", type: "ai_human", sideA: { prompt: "assistant_chat" } }],
    prompts: [
      { name: "assistant_chat", toolDescription: "c", prompt, model: "demo", includeChat: true, tools },
    ],
    models: [{ name: "demo", provider: "scripted", model: "s", script }],
    tools: definitions,
  };
}

const ofThread = (threadId: string) => (span: ReceivedSpan) =>
  span.attributes["tandem.thread.id"] === threadId;

async function spanOf(threadId: string, name: string, also: (span: ReceivedSpan) => boolean = () => true) {
  const spans = await receiver.waitFor((all) =>
    all.some((span) => ofThread(threadId)(span) && span.name === name && also(span)),
  );
  return spans.find((span) => ofThread(threadId)(span) && span.name === name && also(span))!;
}

describe("span events and error statuses (http/protobuf)", () => {
  const { projectWith, startThread, waitFor } = threadHelpers(exporting);
  const api = exporting.api;

  it("an approved call: its execute_tool span holds the request and the decision, from the request on", async () => {
    const projectId = await projectWith(
      toolBundle(
        [{ toolCalls: [{ name: "write_file", args: { path: "/a.md", content: "x" } }] }, { text: "done" }],
        [{ name: "write_file", requiresApproval: true }],
        [WRITE_FILE],
      ),
    );
    const threadId = await startThread(projectId, "assistant", "write it");
    await waitFor(threadId, ["waiting_approval"]);
    const listed = await api<{ approvals: { id: string }[] }>("GET", `/api/threads/${threadId}/approvals`);
    const approvalId = listed.body.approvals[0]!.id;
    expect((await api("POST", `/api/approvals/${approvalId}`, { decision: "approve" })).status).toBe(200);
    await waitFor(threadId, ["idle"]);
    const tool = await spanOf(threadId, "execute_tool write_file");
    expect(tool.events.map((event) => event.name)).toEqual([
      "tandem.approval.requested",
      "tandem.approval.decided",
    ]);
    expect(tool.events[0]!.attributes).toEqual({ "tandem.approval.id": approvalId });
    expect(tool.events[1]!.attributes).toEqual({
      "tandem.approval.id": approvalId,
      "tandem.approval.decision": "approved",
    });
    expect(tool.statusCode).not.toBe(2);
    // The run waited for the human: its span covers the tool's, which starts at the request.
    const run = await spanOf(threadId, "invoke_agent assistant");
    expect(tool.parentSpanId).toBe(run.spanId);
    expect(tool.startNs).toBeGreaterThanOrEqual(run.startNs);
    expect(tool.endNs).toBeLessThanOrEqual(run.endNs);
  });

  it("a denied call's span says denied and carries the tool's error status", async () => {
    const projectId = await projectWith(
      toolBundle(
        [{ toolCalls: [{ name: "write_file", args: { path: "/a.md", content: "x" } }] }, { text: "ok" }],
        [{ name: "write_file", requiresApproval: true }],
        [WRITE_FILE],
      ),
    );
    const threadId = await startThread(projectId, "assistant", "write it");
    await waitFor(threadId, ["waiting_approval"]);
    const listed = await api<{ approvals: { id: string }[] }>("GET", `/api/threads/${threadId}/approvals`);
    await api("POST", `/api/approvals/${listed.body.approvals[0]!.id}`, { decision: "deny", reason: "no" });
    const tool = await spanOf(threadId, "execute_tool write_file");
    expect(tool.events.find((event) => event.name === "tandem.approval.decided")?.attributes).toMatchObject({
      "tandem.approval.decision": "denied",
    });
    expect(tool.statusCode).toBe(2);
  });

  it("a failed model call sets error status on its chat span and on the failed run's span", async () => {
    const projectId = await projectWith(toolBundle([{ error: "simulated provider failure" }], [], []));
    const threadId = await startThread(projectId, "assistant", "hi");
    await waitFor(threadId, ["failed"]);
    const chat = await spanOf(threadId, "chat s");
    expect(chat.statusCode).toBe(2);
    expect(chat.statusMessage).toContain("simulated provider failure");
    expect(chat.attributes["error.type"]).toBe("model_call_failed");
    const run = await spanOf(threadId, "invoke_agent assistant");
    expect(run.statusCode).toBe(2);
    expect(run.attributes["tandem.thread.status"]).toBe("failed");
    expect(run.statusMessage).toContain("simulated provider failure");
  });

  it("a tool that answers an error sets its span's status; a handoff is an event on the call's span", async () => {
    const failing = await projectWith(
      toolBundle(
        [{ toolCalls: [{ name: "fail_tool", args: {} }] }, { text: "sorry" }],
        ["fail_tool"],
        [{ name: "fail_tool", description: "Fails", kind: "code", module: "fail_tool" }],
      ),
    );
    const failingId = await startThread(failing, "assistant", "try");
    const tool = await spanOf(failingId, "execute_tool fail_tool");
    expect(tool.statusCode).toBe(2);
    expect(tool.attributes["tandem.tool.status"]).toBe("error");

    const handoff = {
      agents: [
        { name: "front_desk", sideA: { prompt: "front_chat" } },
        {
          name: "billing",
          exposeAsTool: true,
          toolDescription: "Billing",
          sideA: { prompt: "billing_chat" },
        },
      ],
      prompts: [
        {
          name: "front_chat",
          toolDescription: "f",
          prompt: "Route.",
          model: "front_model",
          includeChat: true,
          tools: [{ name: "billing", initUserMessageProperty: "summary" }],
        },
        {
          name: "billing_chat",
          toolDescription: "b",
          prompt: "Bill.",
          model: "billing_model",
          includeChat: true,
        },
      ],
      models: [
        {
          name: "front_model",
          provider: "scripted",
          model: "s",
          script: [{ toolCalls: [{ name: "billing", args: { summary: "{{input}}" } }] }],
        },
        { name: "billing_model", provider: "scripted", model: "s", script: [{ text: "Billing here." }] },
      ],
      tools: [],
    };
    const threadId = await startThread(await projectWith(handoff), "front_desk", "refund please");
    const call = await spanOf(threadId, "execute_tool billing");
    expect(call.events).toEqual([
      {
        name: "tandem.handoff",
        attributes: { "tandem.handoff.from": "front_desk", "tandem.handoff.to": "billing" },
      },
    ]);
  });

  it("effects: scheduling is a span, each attempt a run_effect span, a failed attempt an error with its event", async () => {
    const projectId = await projectWith(
      toolBundle(
        [
          {
            toolCalls: [
              { name: "schedule_effect", args: { name: "flaky", args: { failures: 1, key: "otel" } } },
            ],
          },
          { text: "scheduled" },
        ],
        ["schedule_effect"],
        [{ name: "schedule_effect", description: "Schedules", kind: "code", module: "schedule_effect" }],
      ),
    );
    const threadId = await startThread(projectId, "assistant", "plan it");
    const scheduled = await spanOf(threadId, "schedule_effect flaky");
    expect(scheduled.attributes).toMatchObject({
      "tandem.effect.name": "flaky",
      "tandem.effect.delay_ms": 0,
    });
    expect(scheduled.events.map((event) => event.name)).toEqual(["tandem.effect.scheduled"]);
    const effectId = scheduled.attributes["tandem.effect.id"];
    const done = await spanOf(
      threadId,
      "run_effect flaky",
      (span) => span.attributes["tandem.effect.status"] === "done",
    );
    const failed = receiver.spans.find(
      (span) =>
        span.name === "run_effect flaky" &&
        span.attributes["tandem.effect.id"] === effectId &&
        span.statusCode === 2,
    )!;
    expect(failed.attributes).toMatchObject({ "tandem.effect.status": "retry", "tandem.effect.attempt": 1 });
    expect(failed.statusMessage).toContain("mail server down (run 1)");
    expect(failed.events).toEqual([
      { name: "tandem.effect.failed", attributes: { "tandem.effect.will_retry": true } },
    ]);
    expect(done.attributes).toMatchObject({ "tandem.effect.id": effectId, "tandem.effect.attempt": 2 });
    expect(done.statusCode).not.toBe(2);
    expect(done.traceId).toBe(scheduled.traceId);
  });

  it("a replay's divergence is an event on the chat span of the call that diverged", async () => {
    const bundle = (prompt: string) => toolBundle([{ text: "hello back" }], [], [], prompt);
    const projectId = await projectWith(bundle("Be brief."));
    const sourceId = await startThread(projectId, "assistant", "hello");
    await waitFor(sourceId, ["idle"]);
    expect(
      (await api("PUT", `/api/projects/${projectId}/definitions`, bundle("Be very brief."))).status,
    ).toBe(200);
    const started = await api<{ threadId: string }>("POST", `/api/threads/${sourceId}/replay`, {
      from_version: "latest",
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const chat = await spanOf(started.body.threadId, "chat s", (span) => span.events.length > 0);
    expect(chat.events).toEqual([
      {
        name: "tandem.replay.divergence",
        attributes: {
          "tandem.replay.reason": "request_changed",
          "tandem.replay.source_thread_id": sourceId,
          "tandem.replay.call_index": 0,
          "tandem.replay.path": "messages[0].content",
        },
      },
    ]);
  });

  it("a tree stopped while its child waits for an approval still ends both runs' spans", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { initUserMessageProperty: "task" },
        orchestratorScript: [{ toolCalls: [{ name: "asset_subagent", args: { task: "a tree" } }] }],
        workerScript: [{ toolCalls: [{ name: "write_file", args: { path: "/tree.md", content: "x" } }] }],
        workerTools: [{ name: "write_file", requiresApproval: true }],
        extra: { tools: [WRITE_FILE] },
      }),
    );
    const rootId = await startThread(projectId, "orchestrator", "draw");
    let childId: string | undefined;
    const deadline = Date.now() + 20_000;
    while (!childId && Date.now() < deadline) {
      const registry = await api<{ subagents: { reference: string }[] }>(
        "GET",
        `/api/threads/${rootId}/subagents`,
      );
      childId = registry.body.subagents[0]?.reference;
      if (!childId) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor(childId!, ["waiting_approval"]);
    expect((await api("POST", `/api/threads/${rootId}/stop`)).status).toBe(200);
    const child = await spanOf(childId!, "invoke_agent asset_subagent");
    expect(child.attributes["tandem.thread.status"]).toBe("stopped");
    const root = await spanOf(rootId, "invoke_agent orchestrator");
    expect(root.attributes["tandem.thread.status"]).toBe("stopped");
    // The child's run still nests under the call that spawned it, in the root's trace.
    expect(child.traceId).toBe(root.traceId);
    const spawn = await spanOf(rootId, "execute_tool asset_subagent");
    expect(child.parentSpanId).toBe(spawn.spanId);
  });
});

const pointOf = (
  points: ReceivedMetricPoint[],
  service: string,
  name: string,
  attributes: Record<string, unknown> = {},
) =>
  points.filter(
    (point) =>
      point.resource["service.name"] === service &&
      point.name === name &&
      Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  );

describe("metrics over OTLP from real servers", () => {
  for (const [fixture, service, contentType] of [
    [exporting, "tandem", "application/x-protobuf"],
    [json, "tandem-json", "application/json"],
  ] as const) {
    it(`${service}: the GenAI client metrics of its model calls, step latency, queue depth, steps in flight and viewers (${contentType})`, async () => {
      const { projectWith, startThread, waitFor } = threadHelpers(fixture);
      const projectId = await projectWith(chatBundle(2));
      const threadId = await startThread(projectId, "chat", "count me");
      await waitFor(threadId, ["idle"]);
      // An open event stream is a viewer while it is open.
      const stream = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
      const chat = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "scripted",
        "gen_ai.request.model": "scripted",
      };
      const points = await receiver.waitForMetrics(
        (all) =>
          pointOf(all, service, "gen_ai.client.token.usage", { ...chat, "gen_ai.token.type": "output" })
            .length > 0 &&
          pointOf(all, service, "tandem.event_stream.viewers").some((point) => point.value! >= 1),
      );
      await stream.body?.cancel();
      const output = pointOf(points, service, "gen_ai.client.token.usage", {
        ...chat,
        "gen_ai.token.type": "output",
      }).at(-1)!;
      expect(output).toMatchObject({ kind: "histogram", unit: "{token}" });
      expect(output.count).toBeGreaterThanOrEqual(1);
      expect(output.sum).toBeGreaterThan(0);
      expect(
        pointOf(points, service, "gen_ai.client.token.usage", { ...chat, "gen_ai.token.type": "input" })
          .length,
      ).toBeGreaterThan(0);
      const duration = pointOf(points, service, "gen_ai.client.operation.duration", chat).at(-1)!;
      expect(duration).toMatchObject({ kind: "histogram", unit: "s" });
      expect(duration.attributes["error.type"]).toBeUndefined();
      const steps = pointOf(points, service, "tandem.step.duration");
      expect(steps.length).toBeGreaterThan(0);
      expect(steps.every((point) => point.unit === "s")).toBe(true);
      expect(pointOf(points, service, "tandem.queue.depth").at(-1)).toMatchObject({
        kind: "gauge",
        unit: "{thread}",
      });
      expect(pointOf(points, service, "tandem.steps.in_flight").at(-1)).toMatchObject({
        kind: "gauge",
        unit: "{step}",
      });
      // Group commit runs on a Postgres server only: there each commit's transaction is counted.
      if (testBackend() === "postgres") {
        const batches = pointOf(points, service, "tandem.commit.batch_size");
        expect(batches.at(-1)).toMatchObject({ kind: "histogram", unit: "{commit}" });
        expect(batches.at(-1)!.count).toBeGreaterThan(0);
      }
      expect(
        receiver.requests.some(
          (request) => request.path === "/v1/metrics" && request.contentType === contentType,
        ),
      ).toBe(true);
    });
  }

  it("a failed model call is counted in gen_ai.client.operation.duration with its error.type", async () => {
    const { projectWith, startThread, waitFor } = threadHelpers(exporting);
    const projectId = await projectWith(toolBundle([{ error: "simulated provider failure" }], [], []));
    const threadId = await startThread(projectId, "assistant", "hi");
    await waitFor(threadId, ["failed"]);
    const failed = await receiver.waitForMetrics(
      (all) =>
        pointOf(all, "tandem", "gen_ai.client.operation.duration", {
          "gen_ai.request.model": "s",
          "error.type": "model_call_failed",
        }).length > 0,
    );
    expect(
      pointOf(failed, "tandem", "gen_ai.client.operation.duration", { "error.type": "model_call_failed" }).at(
        -1,
      ),
    ).toMatchObject({ attributes: { "gen_ai.provider.name": "scripted", "gen_ai.operation.name": "chat" } });
  });
});

describe("with no OTLP variable set", () => {
  const { projectWith, waitFor } = threadHelpers(unset);

  it("exports nothing and answers trace_id null, a traceparent notwithstanding", async () => {
    const projectId = await projectWith(chatBundle(1));
    const caller = newCaller();
    const created = await createThread(
      unset.server.baseUrl,
      { project_id: projectId, agent_id: "chat", message: "hi" },
      caller.header,
    );
    expect(created.trace_id).toBeNull();
    await waitFor(created.threadId, ["idle"]);
    // Give a stray exporter time to send (the others send within 50 ms).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.spans.filter((span) => span.traceId === caller.traceId)).toEqual([]);
    expect(receiver.spans.some((span) => span.attributes["tandem.thread.id"] === created.threadId)).toBe(
      false,
    );
    expect(unset.server.output()).not.toContain("traces go out over OTLP");
    expect(unset.server.output()).not.toContain("metrics go out over OTLP");
  });
});
