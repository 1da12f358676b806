// Every field of every definition in lib/standard has an inspector control: the definition schemas'
// keys are enumerated and compared with the `data-field` of the controls the inspectors render
// (server-rendered for a document that exercises every branch). A new spec field fails here until
// an inspector edits it.
import { createElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deriveEdges, type Graph, type GraphNode } from "@/lib/graph";
import {
  AgentDefinitionSchema,
  HandoffConfigSchema,
  ImmediateConfigSchema,
  isSecretFieldName,
  ModelCapabilitiesSchema,
  ModelDefinitionSchema,
  PromptDefinitionSchema,
  PromptToolConfigSchema,
  ReasoningConfigSchema,
  ResumableConfigSchema,
  SessionToolBindingObjectSchema,
  SideConfigSchema,
  SubagentToolConfigSchema,
  SubpromptConfigSchema,
  ToolDefinitionSchema,
} from "@/lib/standard";
import { createStudioStore, type StudioStore } from "@/lib/studio/studio-store";
import { AgentInspector } from "./AgentInspector";
import { ModelInspector } from "./ModelInspector";
import { NoteInspector } from "./NoteInspector";
import { PromptInspector } from "./PromptInspector";
import { StudioStoreProvider } from "./StudioStoreContext";
import { SubagentEdgeInspector } from "./SubagentEdgeInspector";
import { ToolEntryEdgeInspector } from "./ToolEntryEdgeInspector";
import { ToolInspector } from "./ToolInspector";

/** The object schema inside optional/pipe wrappers (SideConfigSchema is an object piped to a transform). */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  let current: z.ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodObject) return current.shape as Record<string, z.ZodType>;
    if (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else throw new Error("not an object schema");
  }
}

/** Keys a user should edit: deprecated aliases (normalised or rejected) and literal-secret traps are not. */
function editableKeys(schema: z.ZodType, except: string[] = []): string[] {
  return Object.entries(objectShape(schema))
    .filter(
      ([key, field]) => !except.includes(key) && !isSecretFieldName(key) && field.meta()?.deprecated !== true,
    )
    .map(([key]) => key);
}

const prefixed = (prefix: string, keys: string[]) => keys.map((key) => `${prefix}.${key}`);

/** The name of a tools entry is the edge's target: drawing the edge sets it. */
const ENTRY_NAME = ["name"];

function expectedFields(): string[] {
  return [
    ...prefixed("agent", editableKeys(AgentDefinitionSchema, ["sideA", "sideB"])),
    ...prefixed("agent.side", editableKeys(SideConfigSchema)),
    ...prefixed("agent.side.sessionBinding", editableKeys(SessionToolBindingObjectSchema)),
    ...prefixed("prompt", editableKeys(PromptDefinitionSchema, ["reasoning"])),
    ...prefixed("prompt.reasoning", editableKeys(ReasoningConfigSchema)),
    ...prefixed("model", editableKeys(ModelDefinitionSchema, ["capabilities"])),
    ...prefixed("model.capabilities", editableKeys(ModelCapabilitiesSchema)),
    ...new Set(ToolDefinitionSchema.options.flatMap((option) => prefixed("tool", editableKeys(option)))),
    ...prefixed("subagent", editableKeys(SubagentToolConfigSchema, ENTRY_NAME)),
    ...prefixed("subagent.immediate", editableKeys(ImmediateConfigSchema)),
    ...prefixed("subagent.resumable", editableKeys(ResumableConfigSchema)),
    ...prefixed("subprompt", editableKeys(SubpromptConfigSchema, ENTRY_NAME)),
    ...prefixed("toolEntry", editableKeys(PromptToolConfigSchema, ENTRY_NAME)),
    ...prefixed("handoff", editableKeys(HandoffConfigSchema, ENTRY_NAME)),
    "note.text",
  ];
}

const at = { x: 0, y: 0 };
const definitionNode = (type: "agent" | "prompt" | "tool" | "model", definition: Record<string, unknown>) =>
  ({ id: `${type}:${definition.name}`, type, position: at, data: { definition } }) as GraphNode;

/** A document whose inspectors show every optional branch: both sides, object bindings, parts, every tool kind and entry kind. */
const document: Graph = {
  version: 1,
  nodes: [
    definitionNode("agent", {
      name: "pair",
      type: "dual_ai",
      sideA: { prompt: "lead", sessionStop: { name: "done" } },
      sideB: { prompt: "parts", sessionFail: { name: "give_up" } },
    }),
    definitionNode("agent", { name: "human_desk", sideA: { prompt: "parts" } }),
    definitionNode("prompt", {
      name: "lead",
      toolDescription: "Leads.",
      prompt: "Lead.",
      model: "fast",
      tools: [
        { name: "pair", immediate: {}, resumable: { receives_messages: "side_a" } },
        "parts",
        "call_api",
        "human_desk",
      ],
    }),
    definitionNode("prompt", {
      name: "parts",
      toolDescription: "Parts.",
      prompt: [
        { type: "text", content: "Hello " },
        { type: "include", prompt: "lead" },
        { type: "env", property: "REGION" },
      ],
      model: "fast",
    }),
    definitionNode("tool", {
      name: "call_api",
      kind: "http",
      method: "GET",
      url: "https://x.test",
      description: "d",
    }),
    definitionNode("tool", { name: "read", kind: "builtin", builtin: "fs_read", description: "d" }),
    definitionNode("tool", { name: "module_tool", kind: "code", module: "weather", description: "d" }),
    definitionNode("tool", { name: "mcp_tool", kind: "mcp", server: "calc", tool: "add", description: "d" }),
    definitionNode("model", { name: "fast", provider: "scripted", model: "scripted" }),
    { id: "note:1", type: "note", position: at, data: { text: "hi" } },
  ],
};

function renderedFields(): Set<string> {
  const store = createStudioStore(document, 1);
  // Children are optional in this view of the provider, so they can go as createElement's third argument.
  const Provider = StudioStoreProvider as (props: {
    store: StudioStore;
    children?: ReactNode;
  }) => ReactElement;
  const render = (element: ReactElement) => renderToStaticMarkup(createElement(Provider, { store }, element));
  const inspectors: Record<GraphNode["type"], (props: { nodeId: string }) => ReactElement> = {
    agent: AgentInspector,
    prompt: PromptInspector,
    tool: ToolInspector,
    model: ModelInspector,
    note: NoteInspector,
  };
  const html = [
    ...document.nodes.map((node) => render(createElement(inspectors[node.type], { nodeId: node.id }))),
    ...deriveEdges(document).flatMap((edge) => {
      if (edge.kind === "subagent") return [render(createElement(SubagentEdgeInspector, { edge }))];
      if (edge.kind === "subprompt" || edge.kind === "tool" || edge.kind === "handoff")
        return [render(createElement(ToolEntryEdgeInspector, { edge }))];
      return [];
    }),
  ].join("\n");
  return new Set([...html.matchAll(/data-field="([^"]+)"/g)].map((match) => match[1] ?? ""));
}

describe("inspector coverage", () => {
  it("enumerates the spec's fields (sanity check of the enumeration)", () => {
    const fields = expectedFields();
    expect(fields).toContain("agent.icon");
    expect(fields).toContain("agent.side.stopToolResponseProperty");
    expect(fields).toContain("prompt.recentImageThreshold");
    expect(fields).toContain("tool.headers");
    expect(fields).not.toContain("agent.side.endSessionTool");
    expect(fields).not.toContain("model.apiKey");
    expect(fields).not.toContain("prompt.exposeAsTool");
  });

  it("has an inspector control for every field of every definition", () => {
    const rendered = renderedFields();
    const missing = expectedFields().filter((field) => !rendered.has(field));
    expect(missing).toEqual([]);
  });
});
