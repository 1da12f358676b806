// Traces out across processes (docs/observability.md "How a trace crosses processes"): an app server
// that holds one thread at most runs the parent, so the children its fan-out spawns run on a worker
// (`npm run worker`), another process with another service name. Their `invoke_agent` spans still
// nest under the parent's `execute_tool` spans, in the caller's trace. Postgres only (a worker
// shares the database).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIsolatedDatabaseConfig } from "../support/database";
import { requestJson } from "../support/http";
import { type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver";
import { startTestServer, type TestServer } from "../support/server";
import { assetBundle } from "../support/subagent-bundles";
import { startTestWorker, type TestWorker } from "../support/worker";

const FAN_OUT = 2;

describe("a fan-out whose children run on a worker process", () => {
  let receiver: OtlpReceiver;
  let app: TestServer | undefined;
  let worker: TestWorker | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const database = await createIsolatedDatabaseConfig();
    drop = database.drop;
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "50" };
    // The app server holds one thread at most: the parent. Its children go to the worker.
    app = await startTestServer({
      ...database.env,
      ...otel,
      OTEL_SERVICE_NAME: "tandem-app",
      TANDEM_CONCURRENCY: "1",
      TANDEM_MAX_CLAIMED_THREADS: "1",
    });
    worker = await startTestWorker({ ...database.env, ...otel, OTEL_SERVICE_NAME: "tandem-worker" });
  });

  afterAll(async () => {
    await worker?.kill();
    await app?.stop();
    await drop?.();
    await receiver?.close();
  });

  it("nests each child's invoke_agent span under the execute_tool span that spawned it", async () => {
    const server = app!;
    const project = await requestJson<{ id: string }>(server.baseUrl, "POST", "/api/projects", {
      name: `traces-${Date.now()}`,
      definitions: assetBundle({
        config: { blocking: false, initUserMessageProperty: "task" },
        orchestratorScript: [
          {
            toolCalls: Array.from({ length: FAN_OUT }, (_, index) => ({
              name: "asset_subagent",
              args: { task: `task ${index + 1}` },
            })),
          },
          // The parent stays at work while its children start: it keeps the app's one claim.
          { text: "started", delayMs: 1500 },
          { text: "noted" },
          { text: "noted" },
        ],
      }),
    });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const traceId = randomBytes(16).toString("hex");
    const callerSpan = randomBytes(8).toString("hex");
    const created = await requestJson<{ threadId: string; trace_id: string }>(
      server.baseUrl,
      "POST",
      "/api/threads",
      { project_id: project.body.id, agent_id: "orchestrator", message: "Make assets" },
      { headers: { traceparent: `00-${traceId}-${callerSpan}-01` } },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.trace_id).toBe(traceId);

    // Both processes export on their own batch timers: wait for the app's execute_tool spans and the
    // worker's invoke_agent spans alike (the children may finish, and export, before the app does).
    const named = (all: { traceId: string; name: string }[], name: string) =>
      all.filter((span) => span.traceId === traceId && span.name === name).length;
    const spans = await receiver.waitFor(
      (all) =>
        named(all, "invoke_agent asset_subagent") === FAN_OUT &&
        named(all, "execute_tool asset_subagent") === FAN_OUT,
      60_000,
    );
    const trace = spans.filter((span) => span.traceId === traceId);
    const tools = trace.filter((span) => span.name === "execute_tool asset_subagent");
    expect(tools).toHaveLength(FAN_OUT);
    for (const tool of tools) expect(tool.resource["service.name"]).toBe("tandem-app");
    const children = trace.filter((span) => span.name === "invoke_agent asset_subagent");
    expect(children.map((child) => child.parentSpanId).sort()).toEqual(
      tools.map((tool) => tool.spanId).sort(),
    );
    // The worker ran (and ended) the children's runs: their spans come from the other process.
    for (const child of children) expect(child.resource["service.name"]).toBe("tandem-worker");
    for (const child of children) {
      const chats = trace.filter(
        (span) => span.name.startsWith("chat ") && span.parentSpanId === child.spanId,
      );
      expect(chats.length).toBeGreaterThan(0);
      for (const chat of chats) expect(chat.resource["service.name"]).toBe("tandem-worker");
    }
    expect(worker!.output()).toContain("traces go out over OTLP");
  });
});
