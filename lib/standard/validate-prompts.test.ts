import { describe, expect, it } from "vitest";
import { assetBundle, chatBundle, summarize } from "../../test/support/spec-fixtures";
import { validateBundle } from "./validate-bundle";

describe("prompt rules", () => {
  it("unknown_model: names the missing model and the ones that exist", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.model = "gpt5";
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "unknown_model", path: "prompts[1].model" },
    ]);
    expect(diagnostics[0]).toMatchObject({
      entity: { kind: "prompt", name: "asset_worker" },
      message:
        'Prompt "asset_worker" uses model "gpt5" which is not defined. Define a model named "gpt5" or pick one of: orchestrator_model, reviewer_model, worker_model.',
    });
  });

  it("model_lacks_function_calling: tools on a model that declares it cannot call functions", () => {
    const bundle = assetBundle();
    bundle.models[1]!.capabilities = { functionCalling: false };
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "model_lacks_function_calling", path: "prompts[1].tools" },
    ]);
  });

  it("unknown_include: an include part naming no prompt", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.prompt = [{ type: "include", prompt: "house_style" }];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "unknown_include", path: "prompts[1].prompt[0].prompt" },
    ]);
  });

  it("include_cycle: reports the cycle a → b → a once", () => {
    const bundle = assetBundle();
    bundle.prompts[3]!.prompt = [
      { type: "text", content: "Style: " },
      { type: "include", prompt: "asset_worker" },
    ];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "include_cycle", path: "prompts[3].prompt[1].prompt" },
    ]);
    expect(diagnostics[0]?.message).toContain("asset_style_guide → asset_worker → asset_style_guide");
  });

  it("include_cycle: a prompt including itself", () => {
    const bundle = chatBundle();
    bundle.prompts[0]!.prompt = [{ type: "include", prompt: "assistant_chat" }];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "include_cycle", path: "prompts[0].prompt[0].prompt" },
    ]);
    expect(diagnostics[0]?.message).toContain("assistant_chat → assistant_chat");
  });

  it("duplicate_variable: one variable declared twice", () => {
    const bundle = chatBundle();
    bundle.prompts[0]!.variables = [{ name: "REGION" }, { name: "TOKEN" }, { name: "REGION", type: "text" }];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "duplicate_variable", path: "prompts[0].variables[2].name" },
    ]);
  });

  it("required_property_not_defined: requiredSchema requires a property it does not define", () => {
    const bundle = assetBundle();
    bundle.prompts[1]!.requiredSchema!.required = ["brief", "asset_name", "palette"];
    expect(summarize(validateBundle(bundle))).toEqual([
      {
        severity: "warning",
        code: "required_property_not_defined",
        path: "prompts[1].requiredSchema.required[2]",
      },
    ]);
  });
});
