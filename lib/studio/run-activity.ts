// Runs on the canvas: the pure mapping from `GET /api/projects/:id/activity` (its shape is in
// lib/contracts/activity.ts) to the decorations the studio draws on its nodes. The canvas only
// renders what `nodeActivity` returns.
import type { ProjectActivity } from "@/lib/contracts/activity";
import type { GraphNode } from "@/lib/graph";

/** What a canvas node shows while threads run: agents count their live threads, prompts how many use them. */
export interface NodeActivity {
  /** Highlighted: an agent with a queued or running thread, a prompt a running thread is on. */
  active: boolean;
  running: number;
  queued: number;
}

export const INACTIVE: NodeActivity = { active: false, running: 0, queued: 0 };

function nameOf(node: GraphNode): string | null {
  if (node.type !== "agent" && node.type !== "prompt") return null;
  const name = node.data.definition.name;
  return typeof name === "string" && name !== "" ? name : null;
}

/**
 * Decorations per canvas node id, for the agent and prompt nodes that are active; every other node
 * is absent (read it as `INACTIVE`). Matched by definition name: the canvas shows the project's
 * current definitions, and a thread pinned to an older version still counts for the agent and prompt
 * of the same name. Two nodes with one name (a compile error) both light up.
 */
export function nodeActivity(
  nodes: readonly GraphNode[],
  activity: ProjectActivity | null,
): ReadonlyMap<string, NodeActivity> {
  const decorations = new Map<string, NodeActivity>();
  if (!activity) return decorations;
  const agents = new Map<string, NodeActivity>();
  const prompts = new Map<string, number>();
  for (const agent of activity.agents) {
    const { running, queued } = agent.counts;
    if (running + queued > 0) agents.set(agent.agent_id, { active: true, running, queued });
    for (const { prompt, running: onPrompt } of agent.active_prompts) {
      if (onPrompt > 0) prompts.set(prompt, (prompts.get(prompt) ?? 0) + onPrompt);
    }
  }
  for (const node of nodes) {
    const name = nameOf(node);
    if (name === null) continue;
    if (node.type === "agent") {
      const decoration = agents.get(name);
      if (decoration) decorations.set(node.id, decoration);
    } else if (node.type === "prompt") {
      const running = prompts.get(name);
      if (running) decorations.set(node.id, { active: true, running, queued: 0 });
    }
  }
  return decorations;
}

/** Whether two decoration maps draw the same canvas (a poll that changed nothing re-renders nothing). */
export function sameNodeActivity(
  left: ReadonlyMap<string, NodeActivity>,
  right: ReadonlyMap<string, NodeActivity>,
): boolean {
  if (left.size !== right.size) return false;
  for (const [id, decoration] of left) {
    const other = right.get(id);
    if (
      !other ||
      other.active !== decoration.active ||
      other.running !== decoration.running ||
      other.queued !== decoration.queued
    )
      return false;
  }
  return true;
}

/** The label of an agent's live count: "2 running · 1 queued". */
export function describeNodeActivity(decoration: NodeActivity): string {
  const parts = [`${decoration.running} running`];
  if (decoration.queued > 0) parts.push(`${decoration.queued} queued`);
  return parts.join(" · ");
}
