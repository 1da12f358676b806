// Which agent, side and prompt take the step, and the tools that prompt offers.
import { type PromptDefinition, resolveSideConfig } from "@/lib/standard";
import type { DefinitionsCache } from "../../store/definitions";
import type { ThreadRow } from "../../store/thread-row";
import type { EnvLookup } from "../../subagents/branches";
import { buildToolCatalog, type ToolCatalog } from "../tool-catalog";
import type { ActiveSide, StepExtensions } from "./types";

/** The side the thread's execution names, or why it cannot take a step (the thread fails). */
export async function activeSide(
  definitionsCache: DefinitionsCache,
  row: ThreadRow,
): Promise<ActiveSide | string> {
  const definitions = await definitionsCache.load(row.project_id, row.project_version);
  if (!definitions) return `Project version ${row.project_version} of this thread no longer exists.`;
  const agent = definitions.index.agents.get(row.agent_name)?.definition;
  if (!agent) return `Agent "${row.agent_name}" is not defined in version ${row.project_version}.`;
  const side = row.execution.currentSide;
  const rawSide = side === "a" ? agent.sideA : agent.sideB;
  if (!rawSide) return `Agent "${agent.name}" has no side ${side.toUpperCase()}.`;
  const sideConfig = resolveSideConfig(rawSide);
  if (!definitions.index.prompts.has(sideConfig.prompt)) {
    return `Side ${side.toUpperCase()} of agent "${agent.name}" uses prompt "${sideConfig.prompt}", which is not defined.`;
  }
  return { agent, side, sideConfig, definitions };
}

/** The tools `prompt` offers on the active side (code tools' schemas from the installed modules). */
export function catalogFor(
  prompt: PromptDefinition,
  active: ActiveSide,
  ext: StepExtensions,
  env: EnvLookup,
): ToolCatalog {
  return buildToolCatalog(
    prompt,
    prompt.name === active.sideConfig.prompt ? active.sideConfig : resolveSideConfig({ prompt: prompt.name }),
    active.definitions.index,
    (moduleId) => ext.registry?.tools.get(moduleId)?.inputSchema,
    env,
    (serverId) => ext.registry?.mcp.cachedTools(serverId),
  );
}
