// Resolved forms for the runtime: stored definitions with the spec defaults applied (pure functions, no I/O).
import {
  type AgentDefinition,
  type AgentType,
  type SessionToolBinding,
  type SessionToolBindingObject,
  type SideConfig,
  sessionBindingToolName,
} from "./agent";
import { DEFINITION_DEFAULTS } from "./defaults";
import type { PromptDefinition, ToolChoice, VariableDefinition } from "./prompt";
import type { PromptToolConfig, SubagentToolConfig, SubpromptConfig } from "./tool-entry";

export interface ResolvedSessionBinding {
  name: string;
  /** Argument whose value becomes the lifecycle message (default `message`). */
  messageProperty: string;
  /** Argument holding attachment path(s); absent means the binding carries no attachments. */
  attachmentsProperty?: string;
}

export function resolveSessionBinding(binding: SessionToolBinding): ResolvedSessionBinding {
  const name = sessionBindingToolName(binding);
  const written: Partial<SessionToolBindingObject> = typeof binding === "string" ? {} : binding;
  const resolved: ResolvedSessionBinding = {
    name,
    messageProperty: written.messageProperty ?? DEFINITION_DEFAULTS.sessionBinding.messageProperty,
  };
  if (written.attachmentsProperty !== undefined) resolved.attachmentsProperty = written.attachmentsProperty;
  return resolved;
}

export interface ResolvedSideConfig {
  prompt: string;
  label?: string;
  stopOnResponse: boolean;
  stopTool?: string;
  stopToolResponseProperty?: string;
  maxSteps?: number;
  sessionStop?: ResolvedSessionBinding;
  sessionFail?: ResolvedSessionBinding;
  sessionStatus?: ResolvedSessionBinding;
}

export function resolveSideConfig(side: SideConfig): ResolvedSideConfig {
  const { sessionStop, sessionFail, sessionStatus, stopOnResponse, ...rest } = side;
  const resolved: ResolvedSideConfig = {
    ...rest,
    stopOnResponse: stopOnResponse ?? DEFINITION_DEFAULTS.side.stopOnResponse,
  };
  if (sessionStop !== undefined) resolved.sessionStop = resolveSessionBinding(sessionStop);
  if (sessionFail !== undefined) resolved.sessionFail = resolveSessionBinding(sessionFail);
  if (sessionStatus !== undefined) resolved.sessionStatus = resolveSessionBinding(sessionStatus);
  return resolved;
}

export interface ResolvedAgent extends Omit<AgentDefinition, "type" | "exposeAsTool" | "sideA" | "sideB"> {
  type: AgentType;
  exposeAsTool: boolean;
  sideA: ResolvedSideConfig;
  /** Absent for `ai_human`: side B is the human. */
  sideB?: ResolvedSideConfig;
}

export function resolveAgent(agent: AgentDefinition): ResolvedAgent {
  const { type, exposeAsTool, sideA, sideB, ...rest } = agent;
  const resolved: ResolvedAgent = {
    ...rest,
    type: type ?? DEFINITION_DEFAULTS.agent.type,
    exposeAsTool: exposeAsTool ?? DEFINITION_DEFAULTS.agent.exposeAsTool,
    sideA: resolveSideConfig(sideA),
  };
  if (sideB !== undefined) resolved.sideB = resolveSideConfig(sideB);
  return resolved;
}

export interface ResolvedPromptOptions {
  includeChat: boolean;
  includePastTools: boolean;
  parallelToolCalls: boolean;
  toolChoice: ToolChoice;
  recentImageThreshold: number;
}

export function resolvePromptOptions(prompt: PromptDefinition): ResolvedPromptOptions {
  const defaults = DEFINITION_DEFAULTS.prompt;
  return {
    includeChat: prompt.includeChat ?? defaults.includeChat,
    includePastTools: prompt.includePastTools ?? defaults.includePastTools,
    parallelToolCalls: prompt.parallelToolCalls ?? defaults.parallelToolCalls,
    toolChoice: prompt.toolChoice ?? defaults.toolChoice,
    recentImageThreshold: prompt.recentImageThreshold ?? defaults.recentImageThreshold,
  };
}

export interface ResolvedSubpromptConfig {
  name: string;
  initUserMessageProperty?: string;
  initAttachmentsProperty?: string;
  includeTextResponse: boolean;
  includeToolCalls: boolean;
  includeErrors: boolean;
}

/** Accepts any tools entry object; fields that belong to other configs are dropped. */
export function resolveSubpromptConfig(config: SubpromptConfig): ResolvedSubpromptConfig {
  const defaults = DEFINITION_DEFAULTS.subprompt;
  const resolved: ResolvedSubpromptConfig = {
    name: config.name,
    includeTextResponse: config.includeTextResponse ?? defaults.includeTextResponse,
    includeToolCalls: config.includeToolCalls ?? defaults.includeToolCalls,
    includeErrors: config.includeErrors ?? defaults.includeErrors,
  };
  if (config.initUserMessageProperty !== undefined)
    resolved.initUserMessageProperty = config.initUserMessageProperty;
  if (config.initAttachmentsProperty !== undefined)
    resolved.initAttachmentsProperty = config.initAttachmentsProperty;
  return resolved;
}

export interface ResolvedPromptToolConfig {
  name: string;
  /** `env` merged over the deprecated `tenvs` (non-string `tenvs` values are JSON-encoded). */
  env: Record<string, string>;
  options: Record<string, unknown>;
}

export function resolvePromptToolConfig(config: PromptToolConfig): ResolvedPromptToolConfig {
  const legacyEnv = Object.fromEntries(
    Object.entries(config.tenvs ?? {}).map(([key, value]) => [
      key,
      typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
  return { name: config.name, env: { ...legacyEnv, ...config.env }, options: { ...config.options } };
}

export type ResolvedImmediate = false | { nameEnv?: string; descriptionEnv?: string; scopedEnv: string[] };

export type ResolvedResumable =
  | false
  | {
      receives_messages: "side_a" | "side_b";
      maxInstances?: number;
      parentCommunication: "implicit" | "explicit";
    };

export interface ResolvedSubagentToolConfig {
  name: string;
  blocking: boolean;
  initUserMessageProperty?: string;
  initAttachmentsProperty?: string;
  initAgentNameProperty?: string;
  immediate: ResolvedImmediate;
  /** Env variable gating the branch; undefined means always enabled. */
  optional?: string;
  resumable: ResolvedResumable;
}

function resolveImmediate(immediate: SubagentToolConfig["immediate"]): ResolvedImmediate {
  if (immediate === undefined || immediate === false) return DEFINITION_DEFAULTS.subagent.immediate;
  if (immediate === true) return { scopedEnv: [] };
  const resolved: Exclude<ResolvedImmediate, false> = { scopedEnv: [...(immediate.scopedEnv ?? [])] };
  if (immediate.nameEnv !== undefined) resolved.nameEnv = immediate.nameEnv;
  if (immediate.descriptionEnv !== undefined) resolved.descriptionEnv = immediate.descriptionEnv;
  return resolved;
}

function resolveResumable(resumable: SubagentToolConfig["resumable"]): ResolvedResumable {
  if (resumable === undefined || resumable === false) return DEFINITION_DEFAULTS.subagent.resumable;
  const resolved: Exclude<ResolvedResumable, false> = {
    receives_messages: resumable.receives_messages,
    parentCommunication: resumable.parentCommunication ?? DEFINITION_DEFAULTS.subagent.parentCommunication,
  };
  if (resumable.maxInstances !== undefined) resolved.maxInstances = resumable.maxInstances;
  return resolved;
}

/** Accepts any tools entry object; fields that belong to other configs are dropped. */
export function resolveSubagentToolConfig(config: SubagentToolConfig): ResolvedSubagentToolConfig {
  const resolved: ResolvedSubagentToolConfig = {
    name: config.name,
    blocking: config.blocking ?? DEFINITION_DEFAULTS.subagent.blocking,
    immediate: resolveImmediate(config.immediate),
    resumable: resolveResumable(config.resumable),
  };
  if (config.initUserMessageProperty !== undefined)
    resolved.initUserMessageProperty = config.initUserMessageProperty;
  if (config.initAttachmentsProperty !== undefined)
    resolved.initAttachmentsProperty = config.initAttachmentsProperty;
  if (config.initAgentNameProperty !== undefined)
    resolved.initAgentNameProperty = config.initAgentNameProperty;
  if (config.optional !== undefined) resolved.optional = config.optional;
  return resolved;
}

export interface ResolvedVariable {
  name: string;
  description?: string;
  required: boolean;
  type: "text" | "secret";
}

export function resolveVariable(variable: VariableDefinition): ResolvedVariable {
  const resolved: ResolvedVariable = {
    name: variable.name,
    required: variable.required ?? DEFINITION_DEFAULTS.variable.required,
    type: variable.type ?? DEFINITION_DEFAULTS.variable.type,
  };
  if (variable.description !== undefined) resolved.description = variable.description;
  return resolved;
}

/**
 * Spec §7.5: an optional branch is enabled only when its env variable resolves to `true`, `1` or
 * `yes`, in any case. Surrounding whitespace is ignored (values pasted into env forms often carry it).
 */
export function isOptionalBranchEnabled(value: string | null | undefined): boolean {
  if (typeof value !== "string") return false;
  return (DEFINITION_DEFAULTS.optionalBranchEnabledValues as readonly string[]).includes(
    value.trim().toLowerCase(),
  );
}
