// The canvas overlay of a playground run (pure): from the live state of the run's tree (lib/live) to
// a badge per agent node — its live threads (running, waiting for approval), the side its latest step
// ran on, steps and tokens — and
// the subagent edges to animate while a child runs. The project-wide poll (run-activity.ts) lights
// up every run of the project; this overlay describes the one run the playground follows.
import { definitionName, type Graph, type GraphEdge, type GraphNode } from "@/lib/graph";
import { isActiveStatus, isSettledStatus } from "@/lib/live/apply-thread";
import type { LiveThread, ThreadStatus } from "@/lib/live/events";
import { getEntry, mapValues } from "@/lib/live/persistent-map";
import type { LiveState } from "@/lib/live/state";

export type Side = "a" | "b";

/** What one agent node shows about the playground run. */
export interface AgentRunOverlay {
  /** Threads of this agent in the run's tree that have not ended (queued, running or idle). */
  live: number;
  /** Of those, queued or running now. */
  running: number;
  /** Of those, parked until a human approves or denies a tool call (`waiting_approval`). */
  waiting: number;
  /** The side of this agent's latest step (a running thread's first), null before any step. */
  side: Side | null;
  /** The label of that side in the agent's definition ("Reviewer"), when it has one. */
  sideLabel: string | null;
  /** Steps taken by this agent's threads in the run. */
  steps: number;
  /** Tokens in and out used by this agent's threads themselves (not their children). */
  tokens: number;
  /**
   * The status its ended threads share, in the run tree's word ("completed", "failed", "stopped",
   * "terminated"); null when they ended differently or none has ended.
   */
  ended: ThreadStatus | null;
}

export interface RunOverlay {
  /** Per agent node id; agents with no thread in the run are absent. */
  readonly agents: ReadonlyMap<string, AgentRunOverlay>;
  /** Subagent edges whose child runs now (queued or running) under a parent of the edge's prompt. */
  readonly animatedEdges: ReadonlySet<string>;
}

export const NO_RUN_OVERLAY: RunOverlay = { agents: new Map(), animatedEdges: new Set() };

/** The parts of the live state the overlay reads; chunks of streamed text change none of them. */
export type RunOverlaySource = Pick<LiveState, "threads" | "telemetry">;

interface Tally {
  live: number;
  running: number;
  waiting: number;
  steps: number;
  tokens: number;
  /** The status of the ended threads: one shared status, "mixed", or null before any ended. */
  ended: ThreadStatus | "mixed" | null;
  /** The latest step seen, preferring one of a running thread. */
  latest: { side: Side; at: number; running: boolean } | null;
}

function later(
  current: Tally["latest"],
  candidate: { side: Side; at: number; running: boolean },
): Tally["latest"] {
  if (!current) return candidate;
  if (candidate.running !== current.running) return candidate.running ? candidate : current;
  return candidate.at >= current.at ? candidate : current;
}

function sideLabelOf(node: GraphNode, side: Side | null): string | null {
  if (side === null || node.type !== "agent") return null;
  const config = node.data.definition[side === "a" ? "sideA" : "sideB"];
  const label = config && typeof config === "object" ? (config as Record<string, unknown>).label : undefined;
  return typeof label === "string" && label.trim() !== "" ? label : null;
}

/**
 * The overlay for `graph` while the playground follows the run in `source` (null: no run). Agents
 * are matched by definition name (a thread's `agent_id` is the agent it runs now, after handoffs).
 * A subagent edge (prompt → agent) animates while a thread of its target agent is queued or running
 * and that thread's parent runs an agent one of whose sides uses the edge's prompt.
 */
export function runOverlay(
  graph: Graph,
  edges: readonly GraphEdge[],
  source: RunOverlaySource | null,
): RunOverlay {
  if (!source) return NO_RUN_OVERLAY;
  const tallies = new Map<string, Tally>();
  const activeChildren: LiveThread[] = [];
  for (const thread of mapValues(source.threads)) {
    const tally = tallies.get(thread.agent_id) ?? {
      live: 0,
      running: 0,
      waiting: 0,
      steps: 0,
      tokens: 0,
      ended: null,
      latest: null,
    };
    const running = isActiveStatus(thread.status);
    if (!isSettledStatus(thread.status)) tally.live += 1;
    else tally.ended = tally.ended === null || tally.ended === thread.status ? thread.status : "mixed";
    if (running) tally.running += 1;
    if (thread.status === "waiting_approval") tally.waiting += 1;
    tally.tokens += thread.usage.input_tokens + thread.usage.output_tokens;
    const step = getEntry(source.telemetry, thread.id)?.step;
    if (step) {
      tally.steps += step.number;
      tally.latest = later(tally.latest, { side: step.side, at: step.at, running });
    }
    tallies.set(thread.agent_id, tally);
    if (running && thread.parent_id !== null) activeChildren.push(thread);
  }

  const agents = new Map<string, AgentRunOverlay>();
  const agentNodesByName = new Map<string, GraphNode[]>();
  for (const node of graph.nodes) {
    if (node.type !== "agent") continue;
    const name = definitionName(node);
    agentNodesByName.set(name, [...(agentNodesByName.get(name) ?? []), node]);
    const tally = tallies.get(name);
    if (!tally) continue;
    const side = tally.latest?.side ?? null;
    agents.set(node.id, {
      live: tally.live,
      running: tally.running,
      waiting: tally.waiting,
      side,
      sideLabel: sideLabelOf(node, side),
      steps: tally.steps,
      tokens: tally.tokens,
      ended: tally.ended === "mixed" ? null : tally.ended,
    });
  }

  const animatedEdges = new Set<string>();
  if (activeChildren.length > 0) {
    // Which prompts each agent node's sides use, and the subagent edges leaving each prompt.
    const promptsOfAgentNode = new Map<string, string[]>();
    const subagentEdgesOfPrompt = new Map<string, GraphEdge[]>();
    for (const edge of edges) {
      if (edge.kind === "side")
        promptsOfAgentNode.set(edge.source, [...(promptsOfAgentNode.get(edge.source) ?? []), edge.target]);
      if (edge.kind === "subagent")
        subagentEdgesOfPrompt.set(edge.source, [...(subagentEdgesOfPrompt.get(edge.source) ?? []), edge]);
    }
    for (const child of activeChildren) {
      const parent = getEntry(source.threads, child.parent_id ?? "");
      if (!parent) continue;
      const childNodes = new Set((agentNodesByName.get(child.agent_id) ?? []).map((node) => node.id));
      for (const parentNode of agentNodesByName.get(parent.agent_id) ?? []) {
        for (const prompt of promptsOfAgentNode.get(parentNode.id) ?? []) {
          for (const edge of subagentEdgesOfPrompt.get(prompt) ?? []) {
            if (childNodes.has(edge.target)) animatedEdges.add(edge.id);
          }
        }
      }
    }
  }
  return { agents, animatedEdges };
}

function sameAgentOverlay(left: AgentRunOverlay, right: AgentRunOverlay): boolean {
  return (
    left.live === right.live &&
    left.running === right.running &&
    left.waiting === right.waiting &&
    left.side === right.side &&
    left.sideLabel === right.sideLabel &&
    left.steps === right.steps &&
    left.tokens === right.tokens &&
    left.ended === right.ended
  );
}

/** Whether two overlays draw the same canvas (an event that changed nothing shown re-renders nothing). */
export function sameRunOverlay(left: RunOverlay, right: RunOverlay): boolean {
  if (left === right) return true;
  if (left.agents.size !== right.agents.size || left.animatedEdges.size !== right.animatedEdges.size)
    return false;
  for (const [id, overlay] of left.agents) {
    const other = right.agents.get(id);
    if (!other || !sameAgentOverlay(overlay, other)) return false;
  }
  for (const id of left.animatedEdges) if (!right.animatedEdges.has(id)) return false;
  return true;
}

/** Tokens the way the badge shows them: 950, 1.2k, 34k, 1.5M. */
export function compactTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 9_950) return `${(tokens / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  if (tokens < 999_500) return `${Math.round(tokens / 1000)}k`;
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The badge's full text for tooltips and screen readers: "2 live threads (1 running, 1 waiting for approval) · side B (Reviewer) · 4 steps · 1,234 tokens". */
export function describeRunOverlay(overlay: AgentRunOverlay): string {
  const doing = [
    ...(overlay.running > 0 ? [`${overlay.running} running`] : []),
    ...(overlay.waiting > 0 ? [`${overlay.waiting} waiting for approval`] : []),
  ];
  const parts = [`${plural(overlay.live, "live thread")}${doing.length > 0 ? ` (${doing.join(", ")})` : ""}`];
  if (overlay.side)
    parts.push(`side ${overlay.side.toUpperCase()}${overlay.sideLabel ? ` (${overlay.sideLabel})` : ""}`);
  parts.push(plural(overlay.steps, "step"));
  parts.push(`${overlay.tokens.toLocaleString("en-US")} ${overlay.tokens === 1 ? "token" : "tokens"}`);
  return parts.join(" · ");
}

/**
 * What the agent's threads are doing, in a few words: running now, waiting for a human's approval,
 * idle (waiting for input), or, all ended, how they ended in the run tree's own word ("completed",
 * "failed"…; "ended" when they ended differently). A thread parked on an approval is never called idle.
 */
export function badgeState(overlay: AgentRunOverlay): string {
  if (overlay.running > 0) return `${overlay.running} running`;
  if (overlay.waiting > 0) return `${overlay.waiting} waiting for approval`;
  if (overlay.live > 0) return `${overlay.live} idle`;
  return overlay.ended ?? "ended";
}
