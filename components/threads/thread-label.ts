// How a thread is named in the live tree and the timeline: its instance name first (what tells
// siblings of one agent apart; the registry's name is the instance name or else the agent), then the
// subagent's title from the parent's registry, then the agent id.
import type { LiveThread, RegistryEntry } from "@/lib/live";

export interface ThreadLabel {
  /** The most specific name: the instance name, else the registry's name, else the agent id. */
  primary: string;
  /** The agent id, when the primary name is something else. */
  agent: string | null;
  /** Everything (name, title, agent), for a tooltip and the accessible name. */
  full: string;
}

export function threadLabel(thread: LiveThread, entry: RegistryEntry | undefined): ThreadLabel {
  const candidates = [thread.name, entry?.threadName, entry?.name];
  const primary = candidates.find((value): value is string => Boolean(value?.trim())) ?? thread.agent_id;
  const agent = primary === thread.agent_id ? null : thread.agent_id;
  const title = entry?.title && entry.title !== primary ? ` — ${entry.title}` : "";
  return { primary, agent, full: `${primary}${title}${agent ? ` (${agent})` : ""}` };
}
