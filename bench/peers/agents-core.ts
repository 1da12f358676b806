// OpenAI agents-core, in memory (it has no persistence of its own: a run's state lives in the
// process; `RunState` can be serialised by the caller, which these workloads do not do).
//   - dialogue: sides A and B as two agents; one step = one `run()` of one side on the whole history
//     so far (one model call, text reply, the run ends), as a Tandem dual_ai step is one model call;
//   - fan-out: agents as tools (`worker.asTool()`), not handoffs (a handoff passes control to ONE
//     agent, there is no fan-out): the parent's first model turn calls the worker tool N times, the
//     runner runs those N calls concurrently, each worker makes two model calls (a draft that calls
//     `approve`, then its answer), and the parent's next model call sees all N results.
import {
  Agent,
  type AgentInputItem,
  type ModelRequest,
  Runner,
  setTracingDisabled,
  tool,
} from "@openai/agents-core";
import { z } from "zod";
import type { PeerFanOutRun, PeerStepRun, PeerThroughputRun } from "../peer-results";
import { CallLog, ScriptedAgentsModel } from "./fake-models";
import { cpuMeter, intervals, MemoryPeak, now, runLimited, stepRun, summarize } from "./measure";

setTracingDisabled(true);
const runner = new Runner({ tracingDisabled: true });

function itemText(item: AgentInputItem | undefined): string {
  if (!item || !("content" in item)) return "";
  const { content } = item as { content: unknown };
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : ""))
      .join("");
  return "";
}

function requestItems(request: ModelRequest): AgentInputItem[] {
  return typeof request.input === "string"
    ? [{ role: "user", content: request.input } as AgentInputItem]
    : request.input;
}

/** The request's first user message: the thread's (or worker's) name. */
function firstUserText(request: ModelRequest): string {
  return itemText(requestItems(request).find((item) => "role" in item && item.role === "user"));
}

function dialogueAgents(log: CallLog): { A: Agent; B: Agent } {
  const side = (name: "A" | "B") =>
    new Agent({
      name: `side_${name}`,
      instructions: `You are side ${name} of a benchmark dialogue. Answer briefly.`,
      model: new ScriptedAgentsModel(
        (request) => {
          const items = requestItems(request);
          const turn =
            Math.floor(items.filter((item) => "role" in item && item.role === "assistant").length / 2) + 1;
          return { text: `${name}${turn}: replying to "${itemText(items.at(-1)).slice(0, 200)}"` };
        },
        log,
        firstUserText,
      ),
    });
  return { A: side("A"), B: side("B") };
}

async function runDialogue(agents: { A: Agent; B: Agent }, threadId: string, steps: number): Promise<void> {
  let history: AgentInputItem[] = [{ role: "user", content: `Dialogue ${threadId}` }];
  for (let step = 0; step < steps; step++) {
    const result = await runner.run(step % 2 === 0 ? agents.A : agents.B, history);
    history = result.history;
  }
}

const STEP_THREAD_STEPS = 200;

/** One thread of 200 steps after an unmeasured warm-up thread (bench/step-time.ts 2a). */
export async function agentsCoreStepTime(): Promise<PeerStepRun> {
  const log = new CallLog();
  const agents = dialogueAgents(log);
  await runDialogue(agents, "warm-up", STEP_THREAD_STEPS);
  log.clear();
  const meter = cpuMeter(null);
  await runDialogue(agents, "measured", STEP_THREAD_STEPS);
  const cpu = meter();
  const calls = log.calls.get("Dialogue measured") ?? [];
  if (calls.length !== STEP_THREAD_STEPS)
    throw new Error(`agents-core: expected ${STEP_THREAD_STEPS} model calls, saw ${calls.length}`);
  return stepRun(calls, cpu);
}

/** 200 threads × 10 steps, all at once (no database, so no pool to vary). */
export async function agentsCoreThroughput(threads: number, steps: number): Promise<PeerThroughputRun> {
  const log = new CallLog();
  const agents = dialogueAgents(log);
  const meter = cpuMeter(null);
  await runLimited(threads, threads, (index) => runDialogue(agents, `thread-${index}`, steps));
  const cpu = meter();
  if (log.total !== threads * steps)
    throw new Error(`agents-core: expected ${threads * steps} model calls, saw ${log.total}`);
  return {
    concurrency: threads,
    pool: null,
    steps: log.total,
    stepsPerSecond: log.total / (cpu.wallMs / 1000),
    stepUnderLoad: summarize([...log.calls.values()].flatMap((calls) => intervals(calls))),
    cpu,
  };
}

const approve = tool({
  name: "approve",
  description: "Approve the draft.",
  parameters: z.object({ message: z.string() }),
  execute: async ({ message }) => message,
});

function hasToolResult(request: ModelRequest): boolean {
  return requestItems(request).some((item) => "type" in item && item.type === "function_call_result");
}

function fanOutAgent(children: number, log: CallLog): Agent {
  const worker = new Agent({
    name: "worker",
    instructions: "You are the worker. Draft, then have it approved.",
    tools: [approve],
    model: new ScriptedAgentsModel(
      (request) =>
        hasToolResult(request)
          ? { text: `Draft for ${firstUserText(request)}, approved` }
          : { toolCalls: [{ name: "approve", args: { message: `Approved: ${firstUserText(request)}` } }] },
      log,
      firstUserText,
    ),
  });
  return new Agent({
    name: "orchestrator",
    instructions: "You orchestrate workers.",
    tools: [worker.asTool({ toolName: "worker", toolDescription: "The worker." })],
    model: new ScriptedAgentsModel(
      (request) =>
        hasToolResult(request)
          ? { text: "noted" }
          : {
              toolCalls: Array.from({ length: children }, (_, index) => ({
                name: "worker",
                args: { input: `job ${index}` },
              })),
            },
      log,
      () => "parent",
    ),
  });
}

async function fanOutOnce(children: number): Promise<PeerFanOutRun> {
  const log = new CallLog();
  const agent = fanOutAgent(children, log);
  global.gc?.();
  const memory = new MemoryPeak();
  const meter = cpuMeter(null);
  const started = now();
  const result = await runner.run(agent, `Fan out to ${children} workers.`);
  const cpu = meter();
  const peak = memory.stop();
  const reports = result.newItems.filter(
    (item) => item.type === "tool_call_output_item" && String(item.output).startsWith("Draft for job "),
  ).length;
  const workerCalls = [...log.calls.entries()].filter(([key]) => key.startsWith("job "));
  if (reports !== children || workerCalls.length !== children || result.finalOutput !== "noted")
    throw new Error(
      `agents-core: expected ${children} workers and reports, saw ${workerCalls.length} and ${reports}`,
    );
  return {
    children,
    wallMs: cpu.wallMs,
    spawnMs: Math.max(...workerCalls.map(([, calls]) => calls[0]!)) - started,
    modelCalls: log.total,
    reports,
    peakRssMiB: peak.rssMiB,
    cpu,
  };
}

export async function agentsCoreFanOuts(fanOuts: readonly number[]): Promise<PeerFanOutRun[]> {
  await fanOutOnce(5);
  const runs: PeerFanOutRun[] = [];
  for (const children of fanOuts) runs.push(await fanOutOnce(children));
  return runs;
}
