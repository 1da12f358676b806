import { describe, expect, it } from "vitest";
import { chatBundle, summarize } from "../../test/support/spec-fixtures";
import type { Bundle } from "./bundle";
import { validateBundle } from "./validate-bundle";

/** The chat example with two extra openai models, `fast` and `smart`. */
function bundleWithModels(): Bundle {
  const bundle = chatBundle();
  bundle.models.push(
    { name: "fast", provider: "openai", model: "gpt-5-mini" },
    { name: "smart", provider: "anthropic", model: "claude-sonnet-4-5" },
  );
  return bundle;
}

describe("model rules", () => {
  it("unknown_fallback_model: a fallback naming no model", () => {
    const bundle = bundleWithModels();
    bundle.models[1]!.fallbacks = ["smart", "smrt"];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "unknown_fallback_model", path: "models[1].fallbacks[1]" },
    ]);
    expect(diagnostics[0]?.message).toContain(
      'Define a model named "smrt" or pick one of: assistant_model, smart.',
    );
  });

  it("fallback_self_reference: a model listing itself", () => {
    const bundle = bundleWithModels();
    bundle.models[1]!.fallbacks = ["fast"];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "fallback_self_reference", path: "models[1].fallbacks[0]" },
    ]);
  });

  it("fallback_cycle: fast → smart → fast is reported once", () => {
    const bundle = bundleWithModels();
    bundle.models[1]!.fallbacks = ["smart"];
    bundle.models[2]!.fallbacks = ["fast"];
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "warning", code: "fallback_cycle", path: "models[1].fallbacks[0]" },
    ]);
    expect(diagnostics[0]?.message).toContain("fast → smart → fast");
  });

  it("duplicate_fallback: the same fallback twice", () => {
    const bundle = bundleWithModels();
    bundle.models[1]!.fallbacks = ["smart", "smart"];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "duplicate_fallback", path: "models[1].fallbacks[1]" },
    ]);
  });

  it("missing_base_url: an openai-compatible model without baseURL", () => {
    const bundle = bundleWithModels();
    bundle.models.push({ name: "local", provider: "openai-compatible", model: "llama3" });
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "missing_base_url", path: "models[3].baseURL" },
    ]);
    bundle.models[3]!.baseURL = "http://localhost:11434/v1";
    expect(validateBundle(bundle)).toEqual([]);
  });

  it("missing_script: a scripted model without a script", () => {
    const bundle = chatBundle();
    delete bundle.models[0]!.script;
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "missing_script", path: "models[0].script" },
    ]);
  });

  it("script_ignored: a script on a real provider", () => {
    const bundle = bundleWithModels();
    bundle.models[1]!.script = [{ text: "hi" }];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "script_ignored", path: "models[1].script" },
    ]);
  });

  it("script_loop_out_of_range: a loop that starts past the last step", () => {
    const bundle = chatBundle();
    bundle.models[0]!.script = [{ text: "one" }, { text: "two" }];
    bundle.models[0]!.scriptLoopFrom = 1;
    expect(validateBundle(bundle)).toEqual([]);
    bundle.models[0]!.scriptLoopFrom = 2;
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "script_loop_out_of_range", path: "models[0].scriptLoopFrom" },
    ]);
    expect(diagnostics[0]?.message).toContain("numbered 0 to 1");
    bundle.models[0]!.script = [];
    expect(validateBundle(bundle)[0]?.message).toContain("the script is empty");
  });

  it("script_ignored: a script loop on a real provider", () => {
    const bundle = bundleWithModels();
    bundle.models[1]!.scriptLoopFrom = 0;
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "script_ignored", path: "models[1].scriptLoopFrom" },
    ]);
  });
});
