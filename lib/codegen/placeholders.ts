// Hint texts the studio once stored as content in new definitions ("Describe when to call this
// prompt."). They are instructions to the author, not descriptions, so an export never carries them:
// `withoutPlaceholders` leaves such a field out, and the import then says the description is missing.
import type { Bundle } from "@/lib/standard";

/** What a prompt's toolDescription box suggests while it is empty (shown as the input's placeholder). */
export const PROMPT_TOOL_DESCRIPTION_HINT = "Describe when to call this prompt.";
/** What a tool's description box suggests while it is empty. */
export const TOOL_DESCRIPTION_HINT = "Describe what this tool does, when to call it and what it returns.";

const PLACEHOLDER_TEXTS: ReadonlySet<string> = new Set([PROMPT_TOOL_DESCRIPTION_HINT, TOOL_DESCRIPTION_HINT]);

/** True for a text that is one of the studio's hints rather than something the author wrote. */
export function isPlaceholderText(value: unknown): boolean {
  return typeof value === "string" && PLACEHOLDER_TEXTS.has(value.trim());
}

function withoutField<Definition extends object>(definition: Definition, field: string): Definition {
  if (!isPlaceholderText((definition as Record<string, unknown>)[field])) return definition;
  const next = { ...definition } as Record<string, unknown>;
  delete next[field];
  return next as Definition;
}

/** The bundle with every placeholder description left out (the same bundle when there is none). */
export function withoutPlaceholders(bundle: Bundle): Bundle {
  const prompts = bundle.prompts.map((prompt) => withoutField(prompt, "toolDescription"));
  const agents = bundle.agents.map((agent) => withoutField(agent, "toolDescription"));
  const tools = bundle.tools.map((tool) => withoutField(tool, "description"));
  const changed =
    prompts.some((prompt, index) => prompt !== bundle.prompts[index]) ||
    agents.some((agent, index) => agent !== bundle.agents[index]) ||
    tools.some((tool, index) => tool !== bundle.tools[index]);
  return changed ? { ...bundle, prompts, agents, tools } : bundle;
}
