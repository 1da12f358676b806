// Renders a prompt's content into the system message: text parts verbatim, include parts by
// rendering the named prompt (recursively, cycles cut), env parts from the thread's env.
//
// Interpolation choice: `{{name}}` in text is NOT substituted. The 0.1.0 runtime renders string
// prompts verbatim and offers structured `{ type: "env", property }` parts for values; keeping text
// literal means a prompt that talks about templates ({{like this}}) is never mangled, and no value
// reaches a model unless a prompt asks for it by name.
import type { PromptDefinition } from "@/lib/standard";

export interface RenderPromptInput {
  prompt: PromptDefinition;
  findPrompt: (name: string) => PromptDefinition | undefined;
  /** Resolves an env value for an env part; undefined renders as "". Secrets are the caller's call. */
  resolveEnv: (name: string) => string | undefined;
}

export function renderPromptContent({ prompt, findPrompt, resolveEnv }: RenderPromptInput): string {
  const render = (current: PromptDefinition, visiting: ReadonlySet<string>): string => {
    const content = current.prompt;
    if (typeof content === "string") return content;
    return content
      .map((part) => {
        if (part.type === "text") return part.content;
        if (part.type === "env") return resolveEnv(part.property) ?? "";
        const included = findPrompt(part.prompt);
        if (!included) return `[Prompt not found: ${part.prompt}]`;
        if (visiting.has(part.prompt)) return "";
        return render(included, new Set([...visiting, part.prompt]));
      })
      .join("");
  };
  return render(prompt, new Set([prompt.name]));
}
