import { describe, expect, it } from "vitest";
import type { Bundle } from "@/lib/standard";
import { documentFromBundle } from "./document-layout";
import { type ProviderAvailability, providerDiagnostics } from "./provider-diagnostics";

const models = (entries: Record<string, unknown>[]) =>
  documentFromBundle({ agents: [], prompts: [], tools: [], models: entries } as unknown as Bundle);

const openAiMissing: ProviderAvailability[] = [
  { provider: "openai", available: false, requires: ["OPENAI_API_KEY"] },
  { provider: "anthropic", available: true, requires: ["ANTHROPIC_API_KEY"] },
  { provider: "openai-compatible", available: false, requires: ["OPENAI_COMPATIBLE_BASE_URL"] },
  { provider: "scripted", available: true, requires: [] },
];

describe("providerDiagnostics", () => {
  it("warns on a model whose provider's key is not set on the server, on its node", () => {
    const graph = models([
      { name: "writer", provider: "openai", model: "gpt-4o-mini" },
      { name: "critic", provider: "anthropic", model: "claude-3-5-haiku-latest" },
      { name: "demo", provider: "scripted", model: "scripted" },
    ]);
    const diagnostics = providerDiagnostics(graph, openAiMissing);
    expect(diagnostics).toHaveLength(1);
    const writer = graph.nodes.find(
      (node) => node.type === "model" && node.data.definition.name === "writer",
    );
    expect(diagnostics[0]).toMatchObject({
      severity: "warning",
      code: "provider_not_configured",
      path: "models[0].provider",
      node_id: writer?.id,
      entity: { kind: "model", name: "writer" },
    });
    expect(diagnostics[0]?.message).toContain("OPENAI_API_KEY is not set on this server");
  });

  it("says nothing of a model that names its own key variable or endpoint, or before the server answered", () => {
    const graph = models([
      { name: "own_key", provider: "openai", model: "gpt-4o-mini", apiKeyEnv: "TEAM_OPENAI_KEY" },
      {
        name: "local",
        provider: "openai-compatible",
        model: "llama3.2",
        baseURL: "http://127.0.0.1:11434/v1",
      },
    ]);
    expect(providerDiagnostics(graph, openAiMissing)).toEqual([]);
    expect(providerDiagnostics(models([{ name: "m", provider: "openai", model: "x" }]), null)).toEqual([]);
  });

  it("warns on a model that names the usual variable when it is not set", () => {
    const graph = models([{ name: "m", provider: "openai", model: "x", apiKeyEnv: "OPENAI_API_KEY" }]);
    expect(providerDiagnostics(graph, openAiMissing)).toHaveLength(1);
  });
});
