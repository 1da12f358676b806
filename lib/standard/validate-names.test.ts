import { describe, expect, it } from "vitest";
import { assetBundle, chatBundle, summarize } from "../../test/support/spec-fixtures";
import { validateBundle } from "./validate-bundle";

describe("name rules", () => {
  it("duplicate_name: two agents with one name", () => {
    const bundle = assetBundle();
    bundle.agents.push(structuredClone(bundle.agents[1]!));
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "duplicate_name", path: "agents[2].name" },
    ]);
    expect(diagnostics[0]?.message).toContain("agents[1] and agents[2]");
    expect(diagnostics[0]?.entity).toEqual({ kind: "agent", name: "asset_subagent" });
  });

  it("duplicate_name: prompts, models and tools", () => {
    const bundle = assetBundle();
    bundle.prompts.push(structuredClone(bundle.prompts[3]!));
    bundle.models.push(structuredClone(bundle.models[0]!));
    bundle.tools.push(structuredClone(bundle.tools[2]!));
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "duplicate_name", path: "models[3].name" },
      { severity: "error", code: "duplicate_name", path: "prompts[4].name" },
      { severity: "error", code: "duplicate_name", path: "tools[3].name" },
    ]);
  });

  it("callable_name_conflict: a tool named like a prompt", () => {
    const bundle = assetBundle();
    bundle.tools.push({
      name: "asset_worker",
      kind: "builtin",
      builtin: "fs_grep",
      description: "Search files.",
    });
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "callable_name_conflict", path: "prompts[1].name" },
      { severity: "error", code: "callable_name_conflict", path: "tools[3].name" },
    ]);
    expect(diagnostics[1]?.message).toContain('The tool "asset_worker" has the same name as a prompt.');
  });

  it("callable_name_conflict: an agent named like its prompt", () => {
    const bundle = chatBundle();
    bundle.prompts[0]!.name = "assistant";
    bundle.agents[0]!.sideA.prompt = "assistant";
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "callable_name_conflict", path: "agents[0].name" },
      { severity: "error", code: "callable_name_conflict", path: "prompts[0].name" },
    ]);
  });

  it("reserved_name: a tool, prompt or agent named like a runtime lifecycle tool", () => {
    const bundle = assetBundle();
    bundle.tools.push({ name: "subagent_create", kind: "builtin", builtin: "fs_list", description: "List." });
    bundle.prompts.push({ ...structuredClone(bundle.prompts[3]!), name: "subagent_message" });
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "reserved_name", path: "prompts[4].name" },
      { severity: "error", code: "reserved_name", path: "tools[3].name" },
    ]);
  });

  it("invalid_name: a tool name models cannot call, with a suggested fix", () => {
    const bundle = assetBundle();
    bundle.tools.push({
      name: "Grep Files!",
      kind: "builtin",
      builtin: "fs_grep",
      description: "Search files.",
    });
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "invalid_name", path: "tools[3].name" },
    ]);
    expect(diagnostics[0]?.message).toContain('Try "grep_files"');
  });

  it("invalid_name: a model name that cannot be a file name, and a session binding tool name", () => {
    const bundle = chatBundle();
    bundle.models[0]!.name = "my model/v2";
    bundle.prompts[0]!.model = "my model/v2";
    bundle.agents[0]!.sideA.sessionStop = "end chat";
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "invalid_name", path: "agents[0].sideA.sessionStop" },
      { severity: "error", code: "invalid_name", path: "models[0].name" },
    ]);
  });

  it("invalid_hook_id: hook ids on agents and prompts must be snake_case", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.hooks = ["LogMessages"];
    bundle.prompts[0]!.hooks = ["redact_secrets", "filter-noise"];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "invalid_hook_id", path: "agents[0].hooks[0]" },
      { severity: "error", code: "invalid_hook_id", path: "prompts[0].hooks[1]" },
    ]);
    expect(diagnostics[0]?.message).toContain('e.g. "log_messages"');
    expect(diagnostics[1]?.message).toContain('e.g. "filter_noise"');
  });
});
