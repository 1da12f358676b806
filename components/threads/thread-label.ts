// How a thread is named in the live tree and the timeline: its instance name first (what tells
// siblings of one agent apart), then the subagent's title from the parent's registry, then the agent.
import type { LiveThread, RegistryEntry } from "@/lib/live";

export interface ThreadLabel {
  /** The most specific name: instance name, registry title or name, else the agent id. */
  primary: string;
  /** The agent id, when the primary name is something else. */
  agent: string | null;
  /** Everything, for a tooltip and the accessible name. */
  full: string;
}

export function threadLabel(thread: LiveThread, entry: RegistryEntry | undefined): ThreadLabel {
  const candidates = [thread.name, entry?.threadName, entry?.title, entry?.name];
  const primary = candidates.find((value): value is string => Boolean(value?.trim())) ?? thread.agent_id;
  const agent = primary === thread.agent_id ? null : thread.agent_id;
  const title = entry?.title && entry.title !== primary ? entry.title : null;
  const full = [primary, title, agent ? `(${agent})` : null].filter(Boolean).join(" ");
  return { primary, agent, full };
}
