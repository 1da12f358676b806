// Traces out (API.md "Traces out", docs/observability.md): real servers export to a real OTLP/HTTP
// receiver started here — one over http/protobuf (the default), one over http/json with message
// content captured, one with no OTLP variable at all. Span names and attributes per the GenAI
// semantic conventions, a fan-out whose children nest under the spawning tool calls, `traceparent`
// joining on thread creation and on a message, content left out by default, nothing when unset.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { chatBundle } from "../support/bench-bundles";
import { testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";
import { type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver";
import { assetFanOutBundle } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";

const receiver = await startOtlpReceiver();
afterAll(() => receiver.close());

const exporting = testServerForFile({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_BSP_SCHEDULE_DELAY: "50",
});
const json = testServerForFile({
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`,
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
  });
});
