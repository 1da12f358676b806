// LangGraph.js with PostgresSaver, shaped like Tandem's dual_ai dialogue (bench/step-time.ts,
// bench/throughput.ts): a StateGraph of two nodes, side A and side B, each one model call on the
// whole message history that appends its reply; A → B → A … until the thread has made its steps.
// Every node is one super-step, and every super-step's checkpoint is committed before the next
// starts (`durability: "sync"`), as a Tandem step commits before the next one.
import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import type { PeerStepRun, PeerThroughputRun } from "../peer-results";
import { CallLog, messageText, ScriptedChatModel } from "./fake-models";
import { cpuMeter, intervals, runLimited, stepRun, summarize } from "./measure";

/** Tandem's dialogue reply: `A3: replying to "<the last message>"` (test/support/bench-bundles.ts). */
function sideModel(side: "A" | "B"): ScriptedChatModel {
  return new ScriptedChatModel((messages) => {
    const turn = Math.floor(messages.filter((message) => message.getType() === "ai").length / 2) + 1;
    return { text: `${side}${turn}: replying to "${messageText(messages.at(-1)).slice(0, 200)}"` };
  });
}

/** The two-sided dialogue graph: `steps` model calls in all, then END. */
export function dialogueGraph(steps: number, log: CallLog, checkpointer: PostgresSaver) {
  const models = { A: sideModel("A"), B: sideModel("B") };
  const prompts = {
    A: new SystemMessage("You are side A of a benchmark dialogue. Answer briefly."),
    B: new SystemMessage("You are side B of a benchmark dialogue. Answer briefly."),
  };
  const node =
    (side: "A" | "B") =>
    async (
      state: { messages: BaseMessage[] },
      config: RunnableConfig,
    ): Promise<{ messages: BaseMessage[] }> => {
      log.record(String(config.configurable?.thread_id));
      const reply = await models[side].invoke([prompts[side], ...state.messages]);
      return { messages: [reply] };
    };
  const done = (state: { messages: BaseMessage[] }) =>
    state.messages.filter((message) => message.getType() === "ai").length >= steps;
  return new StateGraph(MessagesAnnotation)
    .addNode("side_a", node("A"))
    .addNode("side_b", node("B"))
    .addEdge(START, "side_a")
    .addConditionalEdges("side_a", (state) => (done(state) ? END : "side_b"))
    .addConditionalEdges("side_b", (state) => (done(state) ? END : "side_a"))
    .compile({ checkpointer });
}

async function openSaver(
  url: string,
  pool: number,
): Promise<{ saver: PostgresSaver; connection: pg.Pool; close(): Promise<void> }> {
  const connection = new pg.Pool({ connectionString: url, max: pool });
  const saver = new PostgresSaver(connection);
  await saver.setup();
  return { saver, connection, close: () => connection.end() };
}

/** `"sync"` (Tandem's durability: each checkpoint committed before the next step) or LangGraph's default `"async"`. */
export type Durability = "sync" | "async";

async function runDialogue(
  graph: ReturnType<typeof dialogueGraph>,
  threadId: string,
  steps: number,
  durability: Durability = "sync",
): Promise<void> {
  await graph.invoke(
    { messages: [new HumanMessage(`Dialogue ${threadId}`)] },
    { configurable: { thread_id: threadId }, durability, recursionLimit: steps + 10 },
  );
}

const STEP_THREAD_STEPS = 200;

/** One thread of 200 steps after an unmeasured warm-up thread of the same shape (bench/step-time.ts 2a). */
export async function langGraphStepTime(
  url: string,
  postmasterPid: number | null,
  durability: Durability = "sync",
): Promise<PeerStepRun> {
  const log = new CallLog();
  const { saver, close } = await openSaver(url, 10);
  try {
    const graph = dialogueGraph(STEP_THREAD_STEPS, log, saver);
    await runDialogue(graph, "warm-up", STEP_THREAD_STEPS, durability);
    log.clear();
    const meter = cpuMeter(postmasterPid);
    await runDialogue(graph, "measured", STEP_THREAD_STEPS, durability);
    const cpu = meter();
    const calls = log.calls.get("measured") ?? [];
    if (calls.length !== STEP_THREAD_STEPS)
      throw new Error(`LangGraph: expected ${STEP_THREAD_STEPS} model calls, saw ${calls.length}`);
    await checkCheckpoints(saver, "measured", STEP_THREAD_STEPS);
    return stepRun(calls, cpu);
  } finally {
    await close();
  }
}

/** The persisted state of a thread has all its messages (the human message and one per step). */
async function checkCheckpoints(saver: PostgresSaver, threadId: string, steps: number): Promise<void> {
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
  const messages = (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
  if (messages.length !== steps + 1)
    throw new Error(
      `LangGraph: thread ${threadId} persisted ${messages.length} messages, expected ${steps + 1}`,
    );
}

export const THROUGHPUT_THREADS = 200;
export const THROUGHPUT_STEPS = 10;

/** 200 threads × 10 steps at a setting, on a fresh database each (bench/throughput.ts). */
export async function langGraphThroughput(
  url: string,
  setting: { concurrency: number; pool: number },
  postmasterPid: number | null,
): Promise<PeerThroughputRun> {
  const log = new CallLog();
  const { saver, connection, close } = await openSaver(url, setting.pool);
  try {
    const graph = dialogueGraph(THROUGHPUT_STEPS, log, saver);
    const meter = cpuMeter(postmasterPid);
    await runLimited(THROUGHPUT_THREADS, setting.concurrency, (index) =>
      runDialogue(graph, `thread-${index}`, THROUGHPUT_STEPS),
    );
    const cpu = meter();
    if (log.total !== THROUGHPUT_THREADS * THROUGHPUT_STEPS)
      throw new Error(
        `LangGraph: expected ${THROUGHPUT_THREADS * THROUGHPUT_STEPS} model calls, saw ${log.total}`,
      );
    // Every thread persisted, and the last one whole (bench/throughput.ts checks its model_calls rows).
    const persisted = await connection.query<{ threads: number }>(
      "SELECT count(DISTINCT thread_id)::int AS threads FROM checkpoints WHERE thread_id LIKE 'thread-%'",
    );
    if (persisted.rows[0]?.threads !== THROUGHPUT_THREADS)
      throw new Error(`LangGraph: ${persisted.rows[0]?.threads} of ${THROUGHPUT_THREADS} threads persisted`);
    await checkCheckpoints(saver, `thread-${THROUGHPUT_THREADS - 1}`, THROUGHPUT_STEPS);
    return {
      ...setting,
      steps: log.total,
      stepsPerSecond: log.total / (cpu.wallMs / 1000),
      stepUnderLoad: summarize([...log.calls.values()].flatMap((calls) => intervals(calls))),
      cpu,
    };
  } finally {
    await close();
  }
}
