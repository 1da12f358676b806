// Name lookups over a bundle and the classification of prompt tool entries by what their name resolves to.
import { type AgentDefinition, agentSides, agentType, sideBindingToolNames } from "./agent";
import type { Bundle } from "./bundle";
import type { ModelDefinition } from "./model";
import type { PromptDefinition } from "./prompt";
import type { ToolDefinition } from "./tool";
import {
  type PromptToolEntry,
  type PromptToolEntryObject,
  toolEntryName,
  toolEntryObject,
} from "./tool-entry";

export interface Indexed<T> {
  definition: T;
  /** Position in the bundle's array, for diagnostic paths. */
  index: number;
}

/** Lookups by name. With duplicate names (an error of its own) the first definition wins. */
export interface BundleIndex {
  agents: ReadonlyMap<string, Indexed<AgentDefinition>>;
  prompts: ReadonlyMap<string, Indexed<PromptDefinition>>;
  models: ReadonlyMap<string, Indexed<ModelDefinition>>;
  tools: ReadonlyMap<string, Indexed<ToolDefinition>>;
  /** Per prompt name: the session binding tools of the sides that use that prompt (the runtime offers them). */
  sessionBindingToolsByPrompt: ReadonlyMap<string, ReadonlySet<string>>;
}

function byName<T extends { name: string }>(definitions: readonly T[]): Map<string, Indexed<T>> {
  const map = new Map<string, Indexed<T>>();
  definitions.forEach((definition, index) => {
    if (!map.has(definition.name)) map.set(definition.name, { definition, index });
  });
  return map;
}

export function indexBundle(bundle: Bundle): BundleIndex {
  const sessionBindingToolsByPrompt = new Map<string, Set<string>>();
  for (const agent of bundle.agents) {
    for (const { side } of agentSides(agent)) {
      const names = sessionBindingToolsByPrompt.get(side.prompt) ?? new Set<string>();
      for (const name of sideBindingToolNames(side)) names.add(name);
      sessionBindingToolsByPrompt.set(side.prompt, names);
    }
  }
  return {
    agents: byName(bundle.agents),
    prompts: byName(bundle.prompts),
    models: byName(bundle.models),
    tools: byName(bundle.tools),
    sessionBindingToolsByPrompt,
  };
}

/**
 * What a prompt's tools entry refers to. Resolution order: a tool, then a prompt, then an agent
 * (`dual_ai` → subagent, `ai_human` → handoff), then a session binding tool of a side using the
 * prompt (synthesized by the runtime when no tool of that name exists). Whether an agent is
 * exposed is not part of the classification; `validateBundle` reports unexposed agents.
 */
export type ClassifiedToolEntry =
  | { kind: "tool"; name: string; config: PromptToolEntryObject; tool: ToolDefinition }
  | { kind: "prompt"; name: string; config: PromptToolEntryObject; prompt: PromptDefinition }
  | { kind: "subagent"; name: string; config: PromptToolEntryObject; agent: AgentDefinition }
  | { kind: "handoff"; name: string; config: PromptToolEntryObject; agent: AgentDefinition }
  | { kind: "session_binding"; name: string; config: PromptToolEntryObject }
  | { kind: "unknown"; name: string; config: PromptToolEntryObject };

export type ToolEntryKind = ClassifiedToolEntry["kind"];

/** `owningPrompt` (the prompt whose tools list holds the entry) lets binding tools of its sides resolve. */
export function classifyToolEntry(
  entry: PromptToolEntry,
  bundleIndex: BundleIndex,
  owningPrompt?: string,
): ClassifiedToolEntry {
  const name = toolEntryName(entry);
  const config = toolEntryObject(entry);
  const tool = bundleIndex.tools.get(name);
  if (tool) return { kind: "tool", name, config, tool: tool.definition };
  const prompt = bundleIndex.prompts.get(name);
  if (prompt) return { kind: "prompt", name, config, prompt: prompt.definition };
  const agent = bundleIndex.agents.get(name);
  if (agent) {
    const kind = agentType(agent.definition) === "dual_ai" ? "subagent" : "handoff";
    return { kind, name, config, agent: agent.definition };
  }
  if (owningPrompt !== undefined && bundleIndex.sessionBindingToolsByPrompt.get(owningPrompt)?.has(name)) {
    return { kind: "session_binding", name, config };
  }
  return { kind: "unknown", name, config };
}
