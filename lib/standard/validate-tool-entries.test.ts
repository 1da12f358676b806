import { describe, expect, it } from "vitest";
import { assetBundle, summarize } from "../../test/support/spec-fixtures";
import type { Bundle } from "./bundle";
import { PromptDefinitionSchema } from "./prompt";
import { validateBundle } from "./validate-bundle";

/** The asset example plus an exposed ai_human agent `billing` the orchestrator can hand off to. */
function bundleWithHandoff(exposed: boolean): Bundle {
  const bundle = assetBundle();
  bundle.agents.push({
    name: "billing",
    exposeAsTool: exposed,
    toolDescription: "Hand the customer over to billing.",
    sideA: { prompt: "asset_style_guide" },
  });
  return bundle;
}

describe("prompt tools entry rules", () => {
  it("unknown_tool_reference: a string entry resolving to no tool, prompt or agent", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.tools = ["write_file", "list_files", "paint"];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "unknown_tool_reference", path: "prompts[1].tools[2]" },
    ]);
    expect(diagnostics[0]?.message).toContain('Define a tool, prompt or agent named "paint" or pick one of:');
  });

  it("unknown_tool_reference: an object entry points at its name", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.tools = [{ name: "paint", env: { STYLE: "pixel" } }];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "unknown_tool_reference", path: "prompts[1].tools[0].name" },
    ]);
  });

  it("accepts a reviewer listing its side's synthesized binding tools, but not another prompt's", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.tools = ["write_file", "approve_asset"];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "unknown_tool_reference", path: "prompts[1].tools[1]" },
    ]);
  });

  it("reserved_tool_reference: listing a runtime lifecycle tool", () => {
    const bundle = assetBundle();
    bundle.prompts[0]!.tools!.push("subagent_create");
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "reserved_tool_reference", path: "prompts[0].tools[1]" },
    ]);
  });

  it("duplicate_tool_entry: one name listed twice", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.tools = ["write_file", "list_files", { name: "write_file" }];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "duplicate_tool_entry", path: "prompts[1].tools[2].name" },
    ]);
  });

  it("agent_not_exposed: a subagent whose agent is not exposeAsTool", () => {
    const bundle = assetBundle();
    bundle.agents[1]!.exposeAsTool = false;
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "agent_not_exposed", path: "prompts[0].tools[0].name" },
    ]);
    expect(diagnostics[0]?.message).toContain('Set "exposeAsTool": true on agent "asset_subagent"');
  });

  it("agent_not_exposed: a handoff to an ai_human agent that is not exposed", () => {
    const bundle = bundleWithHandoff(false);
    bundle.prompts[0]!.tools!.push("billing");
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "agent_not_exposed", path: "prompts[0].tools[1]" },
    ]);
  });

  it("accepts an exposed handoff with its init mappings", () => {
    const bundle = bundleWithHandoff(true);
    bundle.prompts[3]!.requiredSchema = { type: "object", properties: { question: { type: "string" } } };
    bundle.prompts[0]!.tools!.push({ name: "billing", initUserMessageProperty: "question" });
    expect(validateBundle(bundle)).toEqual([]);
  });

  it("subagent_config_on_non_subagent: subagent options on a handoff", () => {
    const bundle = bundleWithHandoff(true);
    bundle.prompts[0]!.tools!.push({ name: "billing", blocking: false, resumable: false });
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "subagent_config_on_non_subagent", path: "prompts[0].tools[1].blocking" },
    ]);
    expect(diagnostics[0]?.message).toContain('sets subagent options "blocking" and "resumable"');
    expect(diagnostics[0]?.message).toContain('Set "type": "dual_ai" on agent "billing"');
  });

  it("subagent_config_on_non_subagent: subagent options on a function tool", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.tools = ["write_file", { name: "list_files", immediate: true }];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "subagent_config_on_non_subagent", path: "prompts[1].tools[1].immediate" },
    ]);
  });

  it("tool_entry_field_ignored: sub-prompt options on a function tool", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.tools = [
      "write_file",
      { name: "list_files", includeErrors: false, initUserMessageProperty: "x" },
    ];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "warning", code: "tool_entry_field_ignored", path: "prompts[1].tools[1].includeErrors" },
    ]);
    expect(diagnostics[0]?.message).toContain(
      'sets "includeErrors" and "initUserMessageProperty", which have no effect',
    );
  });

  it("requiresApproval: kept on tools and subagents, ignored (with a warning) on a session binding", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.tools = [{ name: "write_file", requiresApproval: true }, "list_files"];
    bundle.prompts[0]!.tools = [
      { ...(bundle.prompts[0]!.tools![0] as object), name: "asset_subagent", requiresApproval: true },
    ];
    bundle.prompts[2]!.tools = ["read_file", { name: "approve_asset", requiresApproval: true }];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "tool_entry_field_ignored", path: "prompts[2].tools[1].requiresApproval" },
    ]);
    const parsed = PromptDefinitionSchema.parse(bundle.prompts[1]);
    expect(parsed.tools?.[0]).toEqual({ name: "write_file", requiresApproval: true });
  });

  it("invalid_max_instances: resumable.maxInstances below 1", () => {
    const bundle = assetBundle();
    bundle.prompts[0]!.tools = [
      { name: "asset_subagent", resumable: { receives_messages: "side_a", maxInstances: 0 } },
    ];
    expect(summarize(validateBundle(bundle))).toEqual([
      {
        severity: "error",
        code: "invalid_max_instances",
        path: "prompts[0].tools[0].resumable.maxInstances",
      },
    ]);
  });

  it("accepts a resumable, non-blocking, immediate, optional subagent", () => {
    const bundle = assetBundle();
    bundle.prompts[0]!.tools = [
      {
        name: "asset_subagent",
        blocking: false,
        immediate: { nameEnv: "ASSET_NAME", scopedEnv: ["ASSET_TOKEN"] },
        optional: "ENABLE_ASSETS",
        resumable: { receives_messages: "side_b", maxInstances: 3, parentCommunication: "explicit" },
      },
    ];
    expect(validateBundle(bundle)).toEqual([]);
  });

  it("missing_receiving_side: receives_messages names a side the target lacks", () => {
    const bundle = assetBundle();
    bundle.agents.push({
      name: "solo",
      type: "dual_ai",
      exposeAsTool: true,
      toolDescription: "Works alone.",
      maxSessionTurns: 5,
      sideA: { prompt: "asset_style_guide", sessionStop: "done" },
    });
    bundle.prompts[0]!.tools!.push({ name: "solo", resumable: { receives_messages: "side_b" } });
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "missing_side_b", path: "agents[2].sideB" },
      {
        severity: "error",
        code: "missing_receiving_side",
        path: "prompts[0].tools[1].resumable.receives_messages",
      },
    ]);
  });

  it("init_property_not_in_schema: a subagent init mapping the target's side A prompt does not declare", () => {
    const bundle = assetBundle();
    bundle.prompts[0]!.tools = [
      { name: "asset_subagent", initUserMessageProperty: "task", initAgentNameProperty: "asset_name" },
    ];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      {
        severity: "warning",
        code: "init_property_not_in_schema",
        path: "prompts[0].tools[0].initUserMessageProperty",
      },
    ]);
    expect(diagnostics[0]?.message).toContain("(it has: brief, asset_name, references)");
  });

  it("init_property_not_in_schema: a sub-prompt without any requiredSchema", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.tools = [
      "write_file",
      { name: "asset_style_guide", initUserMessageProperty: "topic" },
    ];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      {
        severity: "warning",
        code: "init_property_not_in_schema",
        path: "prompts[1].tools[1].initUserMessageProperty",
      },
    ]);
    expect(diagnostics[0]?.message).toContain("declares no requiredSchema");
  });
});
