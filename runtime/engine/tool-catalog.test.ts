import { describe, expect, it } from "vitest";
import { indexBundle, parseBundle, resolveSideConfig } from "@/lib/standard";
import { buildToolCatalog, mcpServersOf } from "./tool-catalog";

function bundleWith(tools: unknown[], promptTools: string[]) {
  const parsed = parseBundle({
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [{ name: "chat", toolDescription: "Chats", prompt: "Hi", model: "m", tools: promptTools }],
    models: [{ name: "m", provider: "scripted", model: "scripted", script: [{ text: "x" }] }],
    tools,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  const index = indexBundle(parsed.bundle);
  return { index, prompt: index.prompts.get("chat")!.definition };
}

const listed = [
  {
    name: "add",
    description: "Adds.",
    inputSchema: { type: "object", properties: { a: { type: "number" } } },
  },
  { name: "shout", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
];

describe("MCP tools in a tool catalog", () => {
  const { index, prompt } = bundleWith(
    [
      { name: "calc", description: "Every calculator tool.", kind: "mcp", server: "calc" },
      { name: "loud", description: "Shouts.", kind: "mcp", server: "web", tool: "shout" },
    ],
    ["calc", "loud"],
  );
  const side = resolveSideConfig({ prompt: "chat" });

  it("names the servers a prompt's tools use", () => {
    expect(mcpServersOf(prompt, index)).toEqual(["calc", "web"]);
  });

  it("offers every listed tool of a whole-server entry by its own name, and one tool under the entry's name", () => {
    const catalog = buildToolCatalog(prompt, side, index, undefined, undefined, (server) =>
      server === "calc" || server === "web" ? listed : undefined,
    );
    expect(catalog.specs.map((spec) => [spec.name, spec.description])).toEqual([
      ["add", "Adds."],
      ["shout", "Every calculator tool."],
      ["loud", "Shouts."],
    ]);
    expect(catalog.specs.find((spec) => spec.name === "loud")?.inputSchema).toEqual(listed[1]?.inputSchema);
    expect(catalog.entries.get("loud")).toMatchObject({ kind: "tool", remoteName: "shout" });
    expect(catalog.entries.get("add")).toMatchObject({ kind: "tool", remoteName: "add" });
  });

  it("offers nothing for a server that is not listed, but keeps a named tool with an empty schema", () => {
    const catalog = buildToolCatalog(prompt, side, index, undefined, undefined, () => undefined);
    expect(catalog.specs.map((spec) => spec.name)).toEqual(["loud"]);
    expect(catalog.specs[0]?.inputSchema).toEqual({ type: "object", properties: {} });
  });
});
