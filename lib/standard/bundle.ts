// The definitions bundle: a project's agents, prompts, models and tools (API.md "Definitions bundle").
import { z } from "zod";
import { AgentDefinitionSchema } from "./agent";
import { ModelDefinitionSchema } from "./model";
import { PromptDefinitionSchema } from "./prompt";
import { ToolDefinitionSchema } from "./tool";

export const BundleSchema = z.object({
  agents: z.array(AgentDefinitionSchema).default([]),
  prompts: z.array(PromptDefinitionSchema).default([]),
  models: z.array(ModelDefinitionSchema).default([]),
  tools: z.array(ToolDefinitionSchema).default([]),
});
export type Bundle = z.infer<typeof BundleSchema>;
export type BundleInput = z.input<typeof BundleSchema>;

export function emptyBundle(): Bundle {
  return { agents: [], prompts: [], models: [], tools: [] };
}
