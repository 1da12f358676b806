// deepagents, shaped like Tandem's fan-out (bench/subagents.ts): one parent fans out to N workers
// in one model turn, each worker makes two model calls (a draft that calls `approve`, then its final
// answer), and the parent ends its turn once every worker's report is in. deepagents' `task` tool
// runs a worker inside the parent's tool call, so the N workers of one turn run concurrently in
// this process (one ToolNode super-step), and the parent's next model call sees all N reports at
// once. Checkpointed by PostgresSaver (`durability: "sync"`, which the `task` tool passes on to the
// workers' runs with the rest of its config; the workers inherit the parent's checkpointer) or by
// MemorySaver.
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { createDeepAgent } from "deepagents";
import pg from "pg";
import { z } from "zod";
import type { PeerFanOutRun } from "../peer-results";
import { CallLog, messageText, ScriptedChatModel } from "./fake-models";
import { cpuMeter, MemoryPeak, now } from "./measure";

const WORKER_PREFIX = "job ";

function orchestratorModel(children: number, log: CallLog): ScriptedChatModel {
  return new ScriptedChatModel(
    (messages) => {
      const last = messages.at(-1);
      if (last?.getType() === "human")
        return {
          toolCalls: Array.from({ length: children }, (_, index) => ({
            name: "task",
            args: { description: `${WORKER_PREFIX}${index}`, subagent_type: "worker" },
          })),
        };
      return { text: "noted" };
    },
    log,
    () => "parent",
  );
}

/** The worker: first a draft that calls `approve` (Tandem's reviewer step), then its final answer. */
function workerModel(log: CallLog): ScriptedChatModel {
  return new ScriptedChatModel(
    (messages) => {
      const task = messageText(messages.find((message) => message.getType() === "human"));
      if (!messages.some((message) => message.getType() === "tool"))
        return { toolCalls: [{ name: "approve", args: { message: `Approved: ${task}` } }] };
      return { text: `Draft for ${task}, approved` };
    },
    log,
    (messages) => messageText(messages.find((message) => message.getType() === "human")),
  );
}

const approve = tool(async ({ message }: { message: string }) => message, {
  name: "approve",
  description: "Approve the draft.",
  schema: z.object({ message: z.string() }),
});

function fanOutAgent(children: number, log: CallLog, checkpointer: BaseCheckpointSaver) {
  return createDeepAgent({
    model: orchestratorModel(children, log),
    systemPrompt: "You orchestrate workers.",
    subagents: [
      {
        name: "worker",
        description: "The worker.",
        systemPrompt: "You are the worker. Draft, then have it approved.",
        model: workerModel(log),
        tools: [approve],
      },
    ],
    checkpointer,
  });
}

export type DeepAgentsSaver = "postgres" | "memory";

async function fanOutOnce(
  children: number,
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  postmasterPid: number | null,
): Promise<PeerFanOutRun> {
  const log = new CallLog();
  const agent = fanOutAgent(children, log, checkpointer);
  global.gc?.();
  const memory = new MemoryPeak();
  const meter = cpuMeter(postmasterPid);
  const started = now();
  const result = await agent.invoke(
    { messages: [new HumanMessage(`Fan out to ${children} workers.`)] },
    { configurable: { thread_id: threadId }, durability: "sync", recursionLimit: 10_000 },
  );
  const cpu = meter();
  const peak = memory.stop();
  const messages = result.messages as BaseMessage[];
  const reports = messages.filter(
    (message) => message.getType() === "tool" && messageText(message).startsWith("Draft for job "),
  ).length;
  const workerCalls = [...log.calls.entries()].filter(([key]) => key.startsWith(WORKER_PREFIX));
  if (reports !== children || workerCalls.length !== children)
    throw new Error(
      `deepagents: expected ${children} workers and reports, saw ${workerCalls.length} and ${reports}`,
    );
  // The saver holds the parent's whole conversation, every report included.
  const saved = await checkpointer.getTuple({ configurable: { thread_id: threadId } });
  const savedMessages = (saved?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
  if (savedMessages.length !== messages.length)
    throw new Error(`deepagents: saved ${savedMessages.length} of ${messages.length} messages of the parent`);
  const lastFirstCall = Math.max(...workerCalls.map(([, calls]) => calls[0]!));
  return {
    children,
    wallMs: cpu.wallMs,
    spawnMs: lastFirstCall - started,
    modelCalls: log.total,
    reports,
    peakRssMiB: peak.rssMiB,
    cpu,
  };
}

/** 50 and 200 workers (and a small unmeasured warm-up fan-out first), on one saver. */
export async function deepAgentsFanOuts(
  saverKind: DeepAgentsSaver,
  url: string | null,
  fanOuts: readonly number[],
  postmasterPid: number | null,
): Promise<PeerFanOutRun[]> {
  let close = async () => {};
  let checkpointer: BaseCheckpointSaver;
  if (saverKind === "postgres") {
    if (!url) throw new Error("deepagents with PostgresSaver needs a database");
    // The pool of Tandem's fan-out runs (bench/subagents.ts: pool 20).
    const connection = new pg.Pool({ connectionString: url, max: 20 });
    const saver = new PostgresSaver(connection);
    await saver.setup();
    checkpointer = saver;
    close = () => connection.end();
  } else {
    checkpointer = new MemorySaver();
  }
  try {
    await fanOutOnce(5, checkpointer, "warm-up", null);
    const runs: PeerFanOutRun[] = [];
    for (const children of fanOuts)
      runs.push(
        await fanOutOnce(
          children,
          checkpointer,
          `fan-out-${children}`,
          saverKind === "postgres" ? postmasterPid : null,
        ),
      );
    return runs;
  } finally {
    await close();
  }
}
