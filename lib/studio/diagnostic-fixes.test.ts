import { describe, expect, it } from "vitest";
import { compileGraph, type Graph } from "@/lib/graph";
import { assetExampleBundle, type Bundle, cloneExample } from "@/lib/standard";
import { bindingOptions } from "./binding-options";
import { diagnosticFix } from "./diagnostic-fixes";
import { countErrors, fieldMessages } from "./diagnostic-targets";
import { documentFromBundle } from "./document-layout";

/** The asset example with its dual_ai subagent no longer exposed as a tool. */
function unexposed(): Graph {
  const bundle = cloneExample(assetExampleBundle) as Bundle;
  const subagent = bundle.agents.find((agent) => agent.exposeAsTool)!;
  delete subagent.exposeAsTool;
  return documentFromBundle(bundle);
}

describe("diagnosticFix", () => {
  it("offers to expose an agent a prompt calls as a subagent, and the fix clears the error", () => {
    const graph = unexposed();
    const diagnostic = compileGraph(graph).diagnostics.find((d) => d.code === "agent_not_exposed")!;
    expect(diagnostic).toBeDefined();
    const fix = diagnosticFix(graph, diagnostic);
    expect(fix?.label).toBe("Expose asset_subagent as a tool");
    const fixed = fix!.apply(graph);
    expect(compileGraph(fixed).diagnostics.filter((d) => d.code === "agent_not_exposed")).toEqual([]);
    expect(fix!.done).toBe("asset_subagent is exposed as a tool.");
  });

  it("offers nothing for a diagnostic without a certain fix", () => {
    const graph = unexposed();
    const other = {
      severity: "error" as const,
      code: "unknown_prompt" as const,
      path: "agents[0]",
      message: "x",
    };
    expect(diagnosticFix(graph, other)).toBeNull();
  });
});

describe("warnings are kept apart from errors", () => {
  it("counts warnings per node separately and gives a field its warnings only when asked", () => {
    const bundle = cloneExample(assetExampleBundle) as Bundle;
    const subagent = bundle.agents.find((agent) => agent.exposeAsTool)!;
    delete subagent.maxSessionTurns; // a warning on the agent, at .maxSessionTurns
    const graph = documentFromBundle(bundle);
    const { diagnostics } = compileGraph(graph);
    const node = graph.nodes.find(
      (candidate) => candidate.type === "agent" && candidate.data.definition.name === subagent.name,
    )!;
    const counts = countErrors(diagnostics);
    expect(counts.byNode.get(node.id)).toBeUndefined();
    expect(counts.warningsByNode.get(node.id)).toBe(1);
    expect(fieldMessages(diagnostics, node.id, ".maxSessionTurns")).toEqual([]);
    expect(fieldMessages(diagnostics, node.id, ".maxSessionTurns", "warning")).toHaveLength(1);
  });
});

describe("bindingOptions", () => {
  it("lists the side's prompt's tools, then the project's tools, then a new session tool name", () => {
    const graph = documentFromBundle(cloneExample(assetExampleBundle) as Bundle);
    const options = bindingOptions(graph, "asset_reviewer", "sessionStop");
    expect(options.at(-1)).toBe("finish_session");
    expect(options).toContain("update_asset_status");
    expect(new Set(options).size).toBe(options.length);
    expect(bindingOptions(graph, "asset_reviewer")).not.toContain("finish_session");
  });
});
