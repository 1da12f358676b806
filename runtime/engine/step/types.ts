// The shapes the step cycle's phases share: the runner's dependencies, what it remembers of a
// thread, the active side and hooks of a step, and the two contexts every phase receives.
import type { Database } from "@/lib/db/database";
import type { SqlClient } from "@/lib/db/sql-client";
import type { AgentDefinition, ResolvedSideConfig } from "@/lib/standard";
import type { AttachmentRef, ThreadState, ToolAttachment } from "../../extensions/define";
import type { HookRunner } from "../../extensions/hook-runner";
import type { ExtensionRegistry } from "../../extensions/registry";
import type { ModelCallRequest, ModelCallResult, ModelTelemetry } from "../../models/types";
import type { DefinitionsCache, LoadedDefinitions } from "../../store/definitions";
import type { LocalTake } from "../../store/local-take";
import type { Side, StoredMessage } from "../../store/messages";
import type { RunTrace } from "../../store/thread-traces";
import type { ParentWaker } from "../../subagents/parent-waker";
import type { OneOffReportRoute } from "../../subagents/report-to-parent";
import type { SubagentLimits } from "../../subagents/spawn-child";
import type { ContextMemo } from "../context";
import type { HistoryHasSome } from "../history-prefix";
import type { ParkedCaches } from "../parked-caches";
import type { RequestMemory } from "../request-log";
import type { ExecutionControl } from "../thread-state";
import type { ToolCatalog } from "../tool-catalog";
import type { RunMemory } from "./run-memory";
import type { ThreadCommitter } from "./thread-committer";

/** A runaway turn stops here even without maxSteps (the reference runtime's cap). */
export const MAX_STEPS_PER_TURN = 250;

/** How deep prompts called as tools may nest. */
export const MAX_SUBPROMPT_DEPTH = 5;

export const EXECUTION_STOPPED_RESULT = "Execution stopped by state.execution.stop()";

export const EMPTY_RESPONSE_RESULT =
  "You must reply. Empty response was rejected. Return non-empty content, call a tool, or include attachments.";

/**
 * What the scheduler does after a step: run the thread again ("continue"), or let it go — it parked
 * (lease released), another process holds its lease, it was terminated, or the run was aborted.
 */
export type StepOutcome = "continue" | "parked" | "lease_lost" | "terminated" | "aborted";

export type CallModelFunction = (
  modelName: string,
  models: LoadedDefinitions["bundle"]["models"],
  request: ModelCallRequest,
  /** `projectId`: the thread's project, whose credentials a model's `apiKeyCredential` names. */
  options: { onTelemetry?: (event: ModelTelemetry) => void; projectId?: string },
) => Promise<ModelCallResult>;

export interface StepRunnerDependencies {
  database: Database;
  definitions: DefinitionsCache;
  callModel: CallModelFunction;
  leaseOwner: string;
  /** Ephemeral token chunks for live views (never persisted). */
  publishChunk?: (chunk: {
    rootId: string;
    threadId: string;
    messageId: string;
    chunk: string;
    /** The side whose reply streams, so the view labels it by the side's name from the start. */
    side?: "a" | "b";
  }) => void;
  /** The message whose chunks were published is persisted, or will never be: its chunk buffer can go. */
  endMessage?: (messageId: string) => void;
  /** Code tools and hooks installed on this server; none when absent. */
  extensions?: () => Promise<{ registry: ExtensionRegistry; hooks: HookRunner }>;
  /** Terminates a thread and its subtree (ThreadState.terminate). */
  terminate?: (threadId: string) => Promise<void>;
  /** Stores files a tool returned in the thread filesystem (ToolResult.attachments). */
  storeToolAttachments?: (
    threadId: string,
    attachments: Array<ToolAttachment | AttachmentRef>,
  ) => Promise<{ refs: AttachmentRef[]; pathLines: string }>;
  /** Fan-out governance for subagents. */
  subagentLimits?: SubagentLimits;
  /** Caches of parked threads, shared by the runs of this process (none: every run reads afresh). */
  parkedCaches?: ParkedCaches<ThreadCache>;
  /** Wakes parents after their children's reports commit, off the children's runs (none: inline). */
  parentWaker?: ParentWaker;
  /** Caches of children this process spawned (their first message), for their first run. */
  spawnedCaches?: ParkedCaches<ThreadCache>;
  /** Room in this process's scheduler for children it spawns (none: every child is claimed). */
  takeLocally?: () => LocalTake | null;
}

export interface ThreadCache {
  history: { version: number; messages: StoredMessage[] } | null;
  modelCalls: Map<string, number>;
  requests: Map<string, RequestMemory>;
  /** What context assembly remembers per side, so a long conversation's step builds only its new messages. */
  contexts?: Map<Side, ContextMemo>;
  /** Facts about the history that a step asks every time, kept up to date as it grows (model-turn.ts). */
  historyFacts?: {
    childTrace: HistoryHasSome<StoredMessage>;
    images: HistoryHasSome<StoredMessage>;
  };
  /** The history's size estimate so far (threadCacheBytes): the array counted, how many of its messages, their bytes. */
  historyBytes?: { messages: readonly StoredMessage[]; length: number; bytes: number };
  /** A child spawned here as a one-off subagent: how it reports without reading (the one-off path of reportToParent). */
  report?: OneOffReportRoute;
  /** The thread as it parked here (parkThread): a message posted to it may start its run at once. */
  parkedAs?: { projectId: string; rootId: string; projectVersion: number; agentName: string };
}

/** The agent, side and prompt configuration that take this step. */
export interface ActiveSide {
  agent: AgentDefinition;
  side: Side;
  sideConfig: ResolvedSideConfig;
  definitions: LoadedDefinitions;
}

/** The per-run view of one step's extension surface: hooks in force and the ThreadState factory. */
export interface StepExtensions {
  registry: ExtensionRegistry | null;
  hooks: HookRunner | null;
  hookIds: string[];
  control: ExecutionControl;
  /** The top-level history as this step knows it; messages the step stores are appended. */
  history: StoredMessage[];
  state: (promptName: string, promptPath: string[]) => Promise<ThreadState>;
}

/** What every phase may use, for every step of one runner: its dependencies and its state. */
export interface RunnerContext {
  deps: StepRunnerDependencies;
  db: SqlClient;
  /** Commits under the thread's lease (and the state that makes them one round trip). */
  commits: ThreadCommitter;
  /** What this runner remembers of the threads it runs (history, call counts, run context). */
  memory: RunMemory;
}

/** One step past its preparation: the thread, the side acting, its tools and hooks. */
export interface StepContext extends RunnerContext {
  threadId: string;
  /** The thread's root (for events written outside the step's transactions). */
  rootId: string;
  active: ActiveSide;
  catalog: ToolCatalog;
  ext: StepExtensions;
  abortSignal: AbortSignal;
  /** The run's trace while traces are exported (runtime/engine/run-trace.ts); else null. */
  trace: RunTrace | null;
}
