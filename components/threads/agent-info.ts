// What the live view needs to know about a project's agents: their type (ai_human gets a chat box),
// their title (handoff markers and the thread header name the agent by it) and the labels of their
// sides (dual_ai transcripts name the speaking side), read leniently.
import { z } from "zod";
import type { SideLabels } from "./MessageRow";

export interface AgentInfo {
  type: "ai_human" | "dual_ai";
  title: string | null;
  sideLabels: SideLabels;
}

const SideSchema = z.looseObject({ label: z.string().optional() }).optional().catch(undefined);
const AgentSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional().catch(undefined),
  type: z.enum(["ai_human", "dual_ai"]).optional().catch(undefined),
  sideA: SideSchema,
  sideB: SideSchema,
});
const DefinitionsSchema = z.looseObject({ agents: z.array(z.unknown()).optional().catch(undefined) });

export function agentInfoFromDefinitions(definitions: unknown): Record<string, AgentInfo> {
  const agents = DefinitionsSchema.safeParse(definitions).data?.agents ?? [];
  const result: Record<string, AgentInfo> = {};
  for (const raw of agents) {
    const agent = AgentSchema.safeParse(raw);
    if (!agent.success) continue;
    result[agent.data.name] = {
      type: agent.data.type ?? "ai_human",
      title: agent.data.title?.trim() || null,
      sideLabels: { a: agent.data.sideA?.label ?? "Side A", b: agent.data.sideB?.label ?? "Side B" },
    };
  }
  return result;
}
