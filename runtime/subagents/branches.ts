// Which subagent branches a prompt offers (spec §7.4–7.7), what their tools look like to the model,
// how a call's arguments map to the child's first input (§7.10), and the texts a parent receives.
// Pure: no database, no clock.
import {
  type AgentDefinition,
  type BundleIndex,
  classifyToolEntry,
  isOptionalBranchEnabled,
  type PromptDefinition,
  type ResolvedSubagentToolConfig,
  resolveSubagentToolConfig,
  resolveVariable,
} from "@/lib/standard";

/** A subagent tools entry of a prompt whose target is a dual_ai agent. */
export interface SubagentBranch {
  /** The tools entry name: the callable dual_ai agent. */
  name: string;
  agent: AgentDefinition;
  config: ResolvedSubagentToolConfig;
}

export const SUBAGENT_CREATE_TOOL = "subagent_create";
export const SUBAGENT_MESSAGE_TOOL = "subagent_message";

/** Default property of a call's arguments that becomes the child's first message. */
export const DEFAULT_MESSAGE_PROPERTY = "message";

export type EnvLookup = (name: string) => string | undefined;

/** The prompt's subagent branches; an `optional` branch is left out unless its env flag is on (§7.5). */
export function subagentBranches(
  prompt: PromptDefinition,
  index: BundleIndex,
  env: EnvLookup,
): SubagentBranch[] {
  const branches: SubagentBranch[] = [];
  for (const raw of prompt.tools ?? []) {
    const entry = classifyToolEntry(raw, index, prompt.name);
    if (entry.kind !== "subagent") continue;
    const config = resolveSubagentToolConfig(entry.config);
    if (config.optional !== undefined && !isOptionalBranchEnabled(env(config.optional))) continue;
    branches.push({ name: entry.name, agent: entry.agent, config });
  }
  return branches;
}

export function branchDescription(branch: SubagentBranch): string {
  return branch.agent.toolDescription ?? branch.agent.description ?? `Run the ${branch.name} subagent.`;
}

const PATHS_SCHEMA = {
  type: "array",
  items: { type: "string" },
  description: "Paths of files in your filesystem to hand to the subagent (copied into its filesystem).",
};

/**
 * The arguments of a direct (non-resumable) subagent tool: the child's side-A prompt `requiredSchema`
 * when it has one (like handoff tools), otherwise the init properties of the config.
 */
export function subagentToolSchema(branch: SubagentBranch, index: BundleIndex): Record<string, unknown> {
  const sideAPrompt = index.prompts.get(branch.agent.sideA.prompt)?.definition;
  const declared = sideAPrompt?.requiredSchema as Record<string, unknown> | undefined;
  if (declared) return declared;
  const messageProperty = branch.config.initUserMessageProperty ?? DEFAULT_MESSAGE_PROPERTY;
  const properties: Record<string, unknown> = {
    [messageProperty]: {
      type: "string",
      description: "The task for the subagent: everything it needs to know.",
    },
  };
  if (branch.config.initAttachmentsProperty) properties[branch.config.initAttachmentsProperty] = PATHS_SCHEMA;
  if (branch.config.initAgentNameProperty) {
    properties[branch.config.initAgentNameProperty] = {
      type: "string",
      description: "A short display name for this subagent instance.",
    };
  }
  return { type: "object", properties, required: [messageProperty] };
}

/** `subagent_create` over the prompt's resumable branches (§7.7): `name` is required and non-empty. */
export function createToolSchema(branches: readonly SubagentBranch[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    subagent: {
      type: "string",
      enum: branches.map((branch) => branch.name),
      description: branches.map((branch) => `${branch.name}: ${branchDescription(branch)}`).join("\n"),
    },
    name: {
      type: "string",
      minLength: 1,
      description: "A unique, non-empty name for the new instance; use it with subagent_message later.",
    },
    message: { type: "string", description: "The first task for the new instance." },
    description: { type: "string", description: "What this instance is for (shown in the registry)." },
    attachments: PATHS_SCHEMA,
  };
  const required = branches.length > 1 ? ["subagent", "name", "message"] : ["name", "message"];
  return { type: "object", properties, required };
}

export function createToolDescription(branches: readonly SubagentBranch[]): string {
  return `Create a persistent subagent instance (${branches.map((branch) => branch.name).join(", ")}) and give it its first task. It keeps its own thread; message it again with subagent_message.`;
}

export const MESSAGE_TOOL_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    reference: { type: "string", description: "The instance's reference (from subagent_create)." },
    name: { type: "string", description: "The instance's name, when you do not have its reference." },
    message: { type: "string", description: "The message for the instance." },
    attachments: PATHS_SCHEMA,
  },
  required: ["message"],
};

export const MESSAGE_TOOL_DESCRIPTION =
  "Send a message to a persistent subagent instance you created with subagent_create (by reference or name).";

/** What a call's arguments give the new child (§7.10 initial invocation mapping). */
export interface ChildInput {
  message: string;
  attachmentPaths: string[];
  instanceName: string | null;
}

function stringValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function pathList(value: unknown): string[] {
  if (typeof value === "string") return value ? [value] : [];
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string" && item !== "")
    : [];
}

export const EMPTY_TASK_MESSAGE = "Begin.";

export function childInputFromArgs(
  config: ResolvedSubagentToolConfig,
  args: Record<string, unknown>,
): ChildInput {
  const messageProperty = config.initUserMessageProperty ?? DEFAULT_MESSAGE_PROPERTY;
  const direct = stringValue(args[messageProperty]);
  // Without the mapped property the child still gets the whole call (a requiredSchema-shaped tool).
  const message =
    direct !== null && direct.trim() !== ""
      ? direct
      : Object.keys(args).length > 0
        ? JSON.stringify(args)
        : EMPTY_TASK_MESSAGE;
  const nameValue = config.initAgentNameProperty ? stringValue(args[config.initAgentNameProperty]) : null;
  return {
    message,
    attachmentPaths: config.initAttachmentsProperty ? pathList(args[config.initAttachmentsProperty]) : [],
    instanceName: nameValue?.trim() ? nameValue.trim() : null,
  };
}

/** Arguments of a `subagent_create` or `subagent_message` call. */
export function lifecycleInput(args: Record<string, unknown>): ChildInput & { description: string | null } {
  const message = stringValue(args.message);
  const name = stringValue(args.name);
  return {
    message: message?.trim() ? message : EMPTY_TASK_MESSAGE,
    attachmentPaths: pathList(args.attachments),
    instanceName: name?.trim() ? name.trim() : null,
    description: stringValue(args.description),
  };
}

/** The names of the variables a child graph requires: the required variables of its sides' prompts. */
export function requiredChildVariables(agent: AgentDefinition, index: BundleIndex): string[] {
  const names = new Set<string>();
  for (const side of [agent.sideA, agent.sideB]) {
    if (!side) continue;
    const prompt = index.prompts.get(side.prompt)?.definition;
    for (const variable of prompt?.variables ?? []) {
      if (resolveVariable(variable).required) names.add(variable.name);
    }
  }
  return [...names];
}

/** Required variables that neither the agent's nor its prompts' env, nor the handed-down values, hold. */
export function missingChildVariables(
  agent: AgentDefinition,
  index: BundleIndex,
  handedDown: Readonly<Record<string, string>>,
): { required: string[]; missing: string[] } {
  const required = requiredChildVariables(agent, index);
  const promptEnv = [agent.sideA, agent.sideB].flatMap((side) =>
    side ? [index.prompts.get(side.prompt)?.definition?.env ?? {}] : [],
  );
  const missing = required.filter(
    (name) =>
      handedDown[name] === undefined &&
      agent.env?.[name] === undefined &&
      !promptEnv.some((env) => env[name] !== undefined),
  );
  return { required, missing };
}

/** How a child's session ended, as far as its parent is concerned. */
export type ChildOutcome =
  | { kind: "completed"; result: string }
  | { kind: "failed"; failure: string }
  | { kind: "stopped"; reason: string }
  | { kind: "terminated" };

export function reportText(reference: string, outcome: ChildOutcome): string {
  if (outcome.kind === "completed") {
    return `Subagent (reference: ${reference}) has returned the following result:\n\n${outcome.result}`;
  }
  const details =
    outcome.kind === "failed"
      ? outcome.failure || "The subagent reported a failure without details."
      : outcome.kind === "stopped"
        ? `The subagent stopped before finishing its task: ${outcome.reason}`
        : "The subagent was terminated before finishing its task.";
  return `Subagent (reference: ${reference}) has reported a failure:\n\n${details}`;
}

export function outcomeStatus(outcome: ChildOutcome): "completed" | "failed" | "stopped" | "terminated" {
  return outcome.kind;
}

/**
 * A thread's env as tools and branch gates see it: thread env, then values handed down by a parent
 * (scoped), then the agent's and the prompt's defaults (first hit wins).
 */
export function envLookup(
  threadEnv: Readonly<Record<string, string>>,
  scopedEnv: Readonly<Record<string, string>>,
  agentEnv: Readonly<Record<string, string>> | undefined,
  promptEnv: Readonly<Record<string, string>> | undefined,
): EnvLookup {
  return (name) => threadEnv[name] ?? scopedEnv[name] ?? agentEnv?.[name] ?? promptEnv?.[name];
}

/** scopedEnv of the branch's immediate config, resolved from the parent's env (never shown to a model). */
export function handedDownEnv(branch: SubagentBranch, env: EnvLookup): Record<string, string> {
  const immediate = branch.config.immediate;
  const names = immediate === false ? [] : immediate.scopedEnv;
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = env(name);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

export const IMMEDIATE_DEFAULT_TASK = "Begin your task.";

/**
 * The tool calls the runtime makes for a prompt's immediate branches (spec §7.6): a direct tool call
 * for a non-resumable branch, `subagent_create` for a resumable one. The task is the input that
 * activated the prompt; `nameEnv`/`descriptionEnv` values may inform the name and description
 * (the spec allows showing those two); scopedEnv values never appear here.
 */
export function immediateCalls(
  branches: readonly SubagentBranch[],
  triggerText: string | null,
  env: EnvLookup,
): { name: string; args: Record<string, unknown> }[] {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const resumableSeen = new Set<string>();
  for (const branch of branches) {
    const immediate = branch.config.immediate;
    if (immediate === false) continue;
    const instanceName = immediate.nameEnv ? env(immediate.nameEnv) : undefined;
    const description = immediate.descriptionEnv ? env(immediate.descriptionEnv) : undefined;
    const task = triggerText?.trim() ? triggerText : (description ?? IMMEDIATE_DEFAULT_TASK);
    if (branch.config.resumable) {
      if (resumableSeen.has(branch.name)) continue;
      resumableSeen.add(branch.name);
      calls.push({
        name: SUBAGENT_CREATE_TOOL,
        args: {
          subagent: branch.name,
          name: instanceName?.trim() ? instanceName.trim() : branch.name,
          message: task,
          ...(description ? { description } : {}),
        },
      });
      continue;
    }
    const args: Record<string, unknown> = {
      [branch.config.initUserMessageProperty ?? DEFAULT_MESSAGE_PROPERTY]: task,
    };
    if (branch.config.initAgentNameProperty && instanceName?.trim()) {
      args[branch.config.initAgentNameProperty] = instanceName.trim();
    }
    calls.push({ name: branch.name, args });
  }
  return calls;
}

/** At most this many registry entries are listed in the parent's context; the rest are counted. */
export const REGISTRY_CONTEXT_LIMIT = 50;

/** The registry system text for the parent's model (spec §7.11): what it started and where each stands. */
export function registrySystemMessage(
  entries: readonly {
    reference: string;
    name: string;
    agent: string;
    resumable: boolean;
    status: string;
    description: string;
  }[],
): string {
  const shown = entries.slice(-REGISTRY_CONTEXT_LIMIT);
  const lines = shown.map(
    (entry) =>
      `- ${entry.name} (reference: ${entry.reference}; agent: ${entry.agent}; ${entry.resumable ? "resumable, message it with subagent_message" : "one-off"}; status: ${entry.status})${entry.description ? ` — ${entry.description}` : ""}`,
  );
  const hidden = entries.length - shown.length;
  return [
    `Subagents you have started (${entries.length}):`,
    ...(hidden > 0 ? [`(${hidden} older subagents not listed)`] : []),
    ...lines,
  ].join("\n");
}
