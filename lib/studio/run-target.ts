// Which agent the studio's Run button starts: the selected ai_human agent, else the first one.

import { definitionName, type Graph } from "@/lib/graph";
import type { Bundle } from "@/lib/standard";

export type RunTarget = { ok: true; agent: string } | { ok: false; reason: string };

export function runTarget(
  graph: Graph,
  compiled: { bundle: Bundle; valid: boolean },
  selectedNodeId: string | null,
): RunTarget {
  if (!compiled.valid) return { ok: false, reason: "Fix the problems before running." };
  const runnable = compiled.bundle.agents.filter((agent) => (agent.type ?? "ai_human") === "ai_human");
  if (runnable.length === 0) return { ok: false, reason: "Add an ai_human agent to run." };
  const selected = graph.nodes.find((node) => node.id === selectedNodeId);
  if (selected?.type === "agent") {
    const name = definitionName(selected);
    if (runnable.some((agent) => agent.name === name)) return { ok: true, agent: name };
  }
  return { ok: true, agent: runnable[0]!.name };
}
