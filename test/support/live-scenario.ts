// One realistic root-thread stream, in the order the runtime commits it: a coordinator spawns a
// blocking researcher (which spawns a blocking fact checker, a grandchild) and then a non-blocking
// writer that is still drafting when the script ends. Test-only.
import {
  EventScript,
  messageWire,
  registryEntryWire,
  T0,
  threadWire,
  toolCallsJson,
  uuid,
} from "./live-support";

export const ROOT = uuid("root");
export const RESEARCHER = uuid("researcher");
export const CHECKER = uuid("checker");
export const WRITER = uuid("writer");

export const MESSAGE = {
  rootQuestion: uuid("m-root-1"),
  rootSpawn: uuid("m-root-2"),
  rootResearchResult: uuid("m-root-3"),
  rootWriterStarted: uuid("m-root-4"),
  researcherTask: uuid("m-res-1"),
  researcherSpawn: uuid("m-res-2"),
  researcherCheckResult: uuid("m-res-3"),
  researcherAnswer: uuid("m-res-4"),
  checkerTask: uuid("m-chk-1"),
  checkerAnswer: uuid("m-chk-2"),
  writerTask: uuid("m-wri-1"),
  writerDraft: uuid("m-wri-2"),
};

const rootThread = (overrides: Parameters<typeof threadWire>[0]) =>
  threadWire({ root_id: ROOT, agent_id: "coordinator", ...overrides });

const researcherThread = (overrides: Partial<Parameters<typeof threadWire>[0]>) =>
  threadWire({
    id: RESEARCHER,
    parent_id: ROOT,
    root_id: ROOT,
    depth: 1,
    agent_id: "researcher",
    name: "tides-research",
    created_at: T0 + 30,
    ...overrides,
  });

const checkerThread = (overrides: Partial<Parameters<typeof threadWire>[0]>) =>
  threadWire({
    id: CHECKER,
    parent_id: RESEARCHER,
    root_id: ROOT,
    depth: 2,
    agent_id: "fact_checker",
    name: "check-1",
    created_at: T0 + 50,
    ...overrides,
  });

const writerThread = (overrides: Partial<Parameters<typeof threadWire>[0]>) =>
  threadWire({
    id: WRITER,
    parent_id: ROOT,
    root_id: ROOT,
    depth: 1,
    agent_id: "writer",
    name: "report-writer",
    created_at: T0 + 100,
    ...overrides,
  });

const researcherEntry = (status: string, threadStatus: string) =>
  registryEntryWire({
    reference: RESEARCHER,
    name: "tides-research",
    agent: "researcher",
    blocking: true,
    createdAt: T0 + 30,
    status,
    threadStatus,
    threadName: "tides-research",
  });

const writerEntry = registryEntryWire({
  reference: WRITER,
  name: "report-writer",
  agent: "writer",
  blocking: false,
  resumable: true,
  createdAt: T0 + 100,
  status: "running",
  threadStatus: "queued",
});

const checkerEntry = (status: string, threadStatus: string) =>
  registryEntryWire({
    reference: CHECKER,
    name: "check-1",
    agent: "fact_checker",
    createdAt: T0 + 50,
    status,
    threadStatus,
  });

export function fanOutScript(): EventScript {
  const script = new EventScript();
  script.thread(rootThread({ id: ROOT, status: "queued" }));
  script.thread(rootThread({ id: ROOT, status: "running", updated_at: T0 + 10 }));
  script.message(
    ROOT,
    messageWire({ id: MESSAGE.rootQuestion, seq: 1, role: "user", side: null, content: "Report on tides" }),
  );
  script.telemetry(ROOT, { type: "llm_request", model: "planner-model", attempt: 1 });
  script.telemetry(ROOT, { type: "llm_response", model: "planner-model", tokens: 140, latency: 820 });
  script.telemetry(ROOT, { type: "step_started", step: 1, side: "a" });
  script.chunk(ROOT, MESSAGE.rootSpawn, "Delegating.");
  script.message(
    ROOT,
    messageWire({
      id: MESSAGE.rootSpawn,
      seq: 2,
      content: "Delegating.",
      tool_calls: toolCallsJson([
        { id: "call_research", name: "research", args: { message: "Why are there tides?" } },
        { id: "call_write", name: "write_report", args: { message: "Write it up", name: "report-writer" } },
      ]),
    }),
  );
  script.thread(
    rootThread({
      id: ROOT,
      status: "running",
      updated_at: T0 + 20,
      usage: { input_tokens: 100, output_tokens: 40, cost_usd: 0.002 },
    }),
  );

  // The blocking researcher and its blocking fact checker.
  script.thread(researcherThread({ status: "queued" }));
  script.registry(ROOT, [researcherEntry("running", "queued")]);
  script.thread(researcherThread({ status: "running", updated_at: T0 + 31 }));
  script.message(
    RESEARCHER,
    messageWire({
      id: MESSAGE.researcherTask,
      seq: 1,
      role: "user",
      side: null,
      content: "Why are there tides?",
      metadata: { from_parent: ROOT },
    }),
  );
  script.chunk(RESEARCHER, MESSAGE.researcherSpawn, "Let me ");
  script.chunk(RESEARCHER, MESSAGE.researcherSpawn, "check.");
  script.message(
    RESEARCHER,
    messageWire({
      id: MESSAGE.researcherSpawn,
      seq: 2,
      content: "Let me check.",
      tool_calls: toolCallsJson([{ id: "call_check", name: "check_facts", args: { message: "Moon?" } }]),
    }),
  );
  script.thread(checkerThread({ status: "queued" }));
  script.registry(RESEARCHER, [checkerEntry("running", "queued")]);
  script.thread(checkerThread({ status: "running", updated_at: T0 + 51 }));
  script.message(
    CHECKER,
    messageWire({ id: MESSAGE.checkerTask, seq: 1, role: "user", side: null, content: "Moon?" }),
  );
  script.chunk(CHECKER, MESSAGE.checkerAnswer, "All facts ");
  script.chunk(CHECKER, MESSAGE.checkerAnswer, "hold.");
  script.message(CHECKER, messageWire({ id: MESSAGE.checkerAnswer, seq: 2, content: "All facts hold." }));
  script.telemetry(CHECKER, { type: "stopped", reason: "sessionStop", side: "a" }, T0 + 60);
  script.thread(
    checkerThread({
      status: "completed",
      updated_at: T0 + 60,
      result: "All facts hold.",
      usage: { input_tokens: 30, output_tokens: 10, cost_usd: 0.0005 },
    }),
  );
  script.registry(RESEARCHER, [checkerEntry("completed", "completed")]);
  script.message(
    RESEARCHER,
    messageWire({
      id: MESSAGE.researcherCheckResult,
      seq: 3,
      role: "tool",
      content: `Subagent (reference: ${CHECKER}) has returned the following result:\n\nAll facts hold.`,
      tool_call_id: "call_check",
      tool_status: "success",
    }),
  );
  script.message(
    RESEARCHER,
    messageWire({ id: MESSAGE.researcherAnswer, seq: 4, content: "Tides are caused by the moon." }),
  );
  script.thread(
    researcherThread({
      status: "completed",
      updated_at: T0 + 70,
      result: "Tides are caused by the moon.",
      usage: { input_tokens: 80, output_tokens: 20, cost_usd: 0.001 },
    }),
  );
  script.registry(ROOT, [researcherEntry("completed", "completed")]);

  // Back in the root: the blocking call's result, then the non-blocking writer.
  script.telemetry(ROOT, { type: "tool_started", tool: "research" });
  script.telemetry(ROOT, { type: "tool_completed", tool: "research", status: "success" });
  script.message(
    ROOT,
    messageWire({
      id: MESSAGE.rootResearchResult,
      seq: 3,
      role: "tool",
      content: `Subagent (reference: ${RESEARCHER}) has returned the following result:\n\nTides are caused by the moon.`,
      tool_call_id: "call_research",
      tool_status: "success",
    }),
  );
  script.thread(writerThread({ status: "queued" }));
  script.registry(ROOT, [researcherEntry("completed", "completed"), writerEntry]);
  script.telemetry(ROOT, { type: "tool_started", tool: "write_report" });
  script.telemetry(ROOT, { type: "tool_completed", tool: "write_report", status: "success" });
  script.message(
    ROOT,
    messageWire({
      id: MESSAGE.rootWriterStarted,
      seq: 4,
      role: "tool",
      content: `Subagent "report-writer" started (reference: ${WRITER}). Its result will arrive as a message when it finishes.`,
      tool_call_id: "call_write",
      tool_status: "success",
    }),
  );
  script.thread(
    rootThread({
      id: ROOT,
      status: "idle",
      updated_at: T0 + 110,
      usage: { input_tokens: 200, output_tokens: 80, cost_usd: 0.004 },
    }),
  );
  script.thread(writerThread({ status: "running", updated_at: T0 + 120 }));
  script.message(
    WRITER,
    messageWire({ id: MESSAGE.writerTask, seq: 1, role: "user", side: null, content: "Write it up" }),
  );
  script.telemetry(WRITER, { type: "llm_request", model: "writer-model", attempt: 1 });
  script.telemetry(WRITER, { type: "llm_error", model: "writer-model", attempt: 1, error: "rate limited" });
  script.telemetry(WRITER, { type: "fallback_triggered", from: "writer-model", to: "backup-model" });
  script.chunk(WRITER, MESSAGE.writerDraft, "Draft: ");
  script.chunk(WRITER, MESSAGE.writerDraft, "the moon");
  return script;
}
