// Step phase 2, the preparation: the side that acts and its prompt, the step's hooks and
// extensions (after_create_message announced, a spawned child's after_thread_created run once),
// MCP servers readied and the tool catalog built — the StepContext every later phase receives.
import type { PromptDefinition } from "@/lib/standard";
import type { StoredMessage } from "../../store/messages";
import type { ThreadRow } from "../../store/thread-row";
import { type EnvLookup, envLookup } from "../../subagents/branches";
import type { RunTrace } from "../run-trace";
import { mcpServersOf } from "../tool-catalog";
import { activeSide, catalogFor } from "./active-side";
import { afterCreate, runCreatedHooks, stepExtensions } from "./hooks";
import { parkThread } from "./park";
import type { RunnerContext, StepContext, StepOutcome } from "./types";

/** What the preparation leaves the runner: the step ready to run, or its outcome. */
export type PreparedStep =
  | {
      kind: "ready";
      step: StepContext;
      row: ThreadRow;
      prompt: PromptDefinition;
      history: StoredMessage[];
      threadEnv: EnvLookup;
    }
  | { kind: "ended"; outcome: StepOutcome };

/** What the preparation starts from: the running thread, as the start left it. */
export interface PrepareInput {
  row: ThreadRow;
  /** Messages new to after_create_message (stored with the run started, or drained). */
  announce: StoredMessage[];
  abortSignal: AbortSignal;
  trace: RunTrace | null;
}

/** The step's context for the thread's active side; the outcome when the thread cannot act. */
export async function prepareStep(ctx: RunnerContext, input: PrepareInput): Promise<PreparedStep> {
  const { row, abortSignal } = input;
  const active = await activeSide(ctx.deps.definitions, row);
  if (typeof active === "string") {
    await ctx.commits.commit(row.id, (tx, current) =>
      parkThread(ctx, tx, current, "failSession", { failure: active, stopReason: active }),
    );
    return { kind: "ended", outcome: "parked" };
  }
  const history = await ctx.memory.historyOf(row);
  const prompt = active.definitions.index.prompts.get(active.sideConfig.prompt)?.definition;
  if (!prompt) return { kind: "ended", outcome: "parked" }; // activeSide checked it
  const ext = await stepExtensions(ctx, row, active, history, abortSignal);
  await afterCreate(ext, prompt.name, input.announce);
  // A spawned child runs its after_thread_created hooks before its first step, once.
  if (await runCreatedHooks(ctx, row, ext, prompt.name)) return { kind: "ended", outcome: "continue" }; // the next step reads what they wrote
  const threadEnv = envLookup(row.env, row.scoped_env, active.agent.env, prompt.env);
  await ext.registry?.mcp.prepare(mcpServersOf(prompt, active.definitions.index));
  const catalog = catalogFor(prompt, active, ext, threadEnv);
  const step: StepContext = {
    ...ctx,
    threadId: row.id,
    rootId: row.root_id,
    active,
    catalog,
    ext,
    abortSignal,
    trace: input.trace,
  };
  return { kind: "ready", step, row, prompt, history, threadEnv };
}
