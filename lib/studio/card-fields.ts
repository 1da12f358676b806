// What each canvas card shows, read from the definition in its node: an agent's type and its sides
// with their prompts and labels, a prompt's model and tool count, a tool's kind, a model's provider
// and model id. Pure, so the cards only render and the text is tested here.
import type { GraphNode } from "@/lib/graph";

type Definition = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export interface SideSummary {
  handle: "sideA" | "sideB";
  letter: "A" | "B";
  /** The side's prompt, or "" when none is set. */
  prompt: string;
  label: string;
  /** Side B of an ai_human agent without its own config is the human user. */
  human: boolean;
}

export interface CardFields {
  /** One line under the title (prompt: its model, tool, model); agents show their sides instead. */
  detail: string;
  /** Right-aligned after the detail (a prompt's tool count). */
  meta: string;
  /** Short tag in the header (an agent's type, a tool's kind). */
  tag: string;
  sides: SideSummary[];
  /** The full text for a tooltip. */
  tooltip: string;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function sideSummary(definition: Definition, handle: "sideA" | "sideB", humanSide: boolean): SideSummary {
  const config = definition[handle];
  const side = config && typeof config === "object" ? (config as Definition) : undefined;
  return {
    handle,
    letter: handle === "sideA" ? "A" : "B",
    prompt: text(side?.prompt),
    label: text(side?.label),
    human: humanSide && !side,
  };
}

export function describeSide(side: SideSummary): string {
  if (side.human) return `Side ${side.letter}: the human user`;
  const prompt = side.prompt ? `prompt ${side.prompt}` : "no prompt";
  return `Side ${side.letter}${side.label ? ` (${side.label})` : ""}: ${prompt}`;
}

export function cardFields(node: GraphNode): CardFields {
  if (node.type === "note") return { detail: "", meta: "", tag: "", sides: [], tooltip: node.data.text };
  const definition = node.data.definition;
  const name = text(definition.name) || "(unnamed)";
  if (node.type === "agent") {
    const type = text(definition.type) || "ai_human";
    const sides = [
      sideSummary(definition, "sideA", false),
      sideSummary(definition, "sideB", type === "ai_human"),
    ];
    return {
      detail: "",
      meta: "",
      tag: type,
      sides,
      tooltip: `agent ${name} (${type})\n${sides.map(describeSide).join("\n")}`,
    };
  }
  if (node.type === "prompt") {
    const tools = Array.isArray(definition.tools) ? definition.tools.length : 0;
    const model = text(definition.model);
    return {
      detail: model,
      meta: plural(tools, "tool"),
      tag: "",
      sides: [],
      tooltip: `prompt ${name}\nmodel: ${model || "none"}\n${plural(tools, "tool")}`,
    };
  }
  if (node.type === "tool") {
    const kind = text(definition.kind);
    const detail =
      kind === "builtin"
        ? text(definition.builtin)
        : kind === "http"
          ? `${text(definition.method) || "GET"} ${text(definition.url)}`.trim()
          : kind === "mcp"
            ? `${text(definition.server)}${definition.tool ? ` / ${text(definition.tool)}` : " / every tool"}`
            : text(definition.description);
    return {
      detail: [kind || "tool", detail].filter(Boolean).join(" · "),
      meta: "",
      tag: "",
      sides: [],
      tooltip: `tool ${name} (${kind})\n${detail}`,
    };
  }
  const provider = text(definition.provider);
  const model = text(definition.model);
  const detail = [provider || "no provider", model].filter(Boolean).join(" · ");
  return {
    detail,
    meta: "",
    tag: "",
    sides: [],
    tooltip: `model ${name}\nprovider: ${provider || "none"}\nmodel: ${model || "none"}`,
  };
}
