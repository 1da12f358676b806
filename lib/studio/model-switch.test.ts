import { describe, expect, it } from "vitest";
import { addNode, replaceDefinition } from "./document-edits";
import { exportCanvas } from "./export-canvas";
import { DEFAULT_DEMO_SCRIPT, switchModelProvider } from "./model-switch";

describe("switchModelProvider (the inspector's Provider select)", () => {
  const openai = { name: "fast", provider: "openai", model: "gpt-4o-mini", apiKeyEnv: "OPENAI_API_KEY" };

  it("gives a model switched to scripted the scripted provider's defaults and drops OpenAI's", () => {
    const scripted = switchModelProvider(openai, "scripted");
    expect(scripted).toEqual({
      name: "fast",
      provider: "scripted",
      model: "scripted",
      script: DEFAULT_DEMO_SCRIPT,
    });
  });

  it("gives the new real provider its model id and key variable; keeps a written script, drops the demo one", () => {
    const demo = { name: "fast", provider: "scripted", model: "scripted", script: DEFAULT_DEMO_SCRIPT };
    expect(switchModelProvider(demo, "anthropic")).toEqual({
      name: "fast",
      provider: "anthropic",
      model: "claude-3-5-haiku-latest",
      apiKeyEnv: "ANTHROPIC_API_KEY",
    });
    expect(switchModelProvider(openai, "anthropic")).toMatchObject({
      model: "claude-3-5-haiku-latest",
      apiKeyEnv: "ANTHROPIC_API_KEY",
    });
    // The user's script stays (a warning says only scripted plays it) and comes back with scripted.
    const written = { ...demo, script: [{ text: "hi" }], scriptLoopFrom: 0 };
    const onOpenai = switchModelProvider(written, "openai");
    expect(onOpenai).toMatchObject({
      provider: "openai",
      model: "gpt-4o-mini",
      script: [{ text: "hi" }],
      scriptLoopFrom: 0,
    });
    expect(switchModelProvider(onOpenai, "scripted")).toEqual({ ...written });
  });

  it("keeps a model id, key variable and endpoint the user wrote between real providers", () => {
    const custom = {
      ...openai,
      model: "my-finetune",
      apiKeyEnv: "TEAM_KEY",
      baseURL: "https://proxy.example/v1",
    };
    expect(switchModelProvider(custom, "openai-compatible")).toEqual({
      ...custom,
      provider: "openai-compatible",
    });
  });

  it("keeps a script the user wrote when switching to scripted", () => {
    const script = [{ text: "Mine" }];
    expect(switchModelProvider({ ...openai, script }, "scripted").script).toEqual(script);
  });

  it("leaves no other provider's model id or key in the export of a model switched to scripted", () => {
    const added = addNode({ version: 1, nodes: [] }, "model", { x: 0, y: 0 });
    const node = added.graph.nodes[0]!;
    const definition = (node as { data: { definition: Record<string, unknown> } }).data.definition;
    const switched = replaceDefinition(
      added.graph,
      added.nodeId,
      switchModelProvider(definition, "scripted"),
    );
    const exported = exportCanvas(switched, "json", "demo");
    if (!exported.ok) throw new Error(exported.reason);
    expect(exported.file.data).not.toContain("gpt-4o-mini");
    expect(exported.file.data).not.toContain("OPENAI_API_KEY");
    expect(JSON.parse(exported.file.data as string).models[0]).toMatchObject({
      provider: "scripted",
      model: "scripted",
    });
  });
});
