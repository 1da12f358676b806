import { describe, expect, it } from "vitest";
import { assetBundle, chatBundle, summarize } from "../../test/support/spec-fixtures";
import { validateBundle } from "./validate-bundle";

describe("invalid_env_name", () => {
  it("rejects a model apiKeyEnv that is not a plausible env variable name (e.g. a pasted key)", () => {
    const bundle = chatBundle();
    bundle.models[0] = {
      name: "assistant_model",
      provider: "openai",
      model: "gpt-5-mini",
      apiKeyEnv: "sk-proj-12345",
    };
    const diagnostics = validateBundle(bundle);
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "invalid_env_name", path: "models[0].apiKeyEnv" },
    ]);
    expect(diagnostics[0]?.message).toContain('"sk_proj_12345"');
  });

  it("accepts a plausible apiKeyEnv", () => {
    const bundle = chatBundle();
    bundle.models[0] = {
      name: "assistant_model",
      provider: "openai",
      model: "gpt-5-mini",
      apiKeyEnv: "OPENAI_API_KEY",
    };
    expect(validateBundle(bundle)).toEqual([]);
  });

  it("checks agent and prompt env keys, variable names and env parts", () => {
    const bundle = chatBundle();
    bundle.agents[0]!.env = { "MY-VAR": "x", OK_VAR: "y" };
    bundle.prompts[0]!.env = { "2FAST": "z" };
    bundle.prompts[0]!.variables = [{ name: "api token" }];
    bundle.prompts[0]!.prompt = [{ type: "env", property: "company.name" }];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "invalid_env_name", path: 'agents[0].env["MY-VAR"]' },
      { severity: "error", code: "invalid_env_name", path: 'prompts[0].env["2FAST"]' },
      { severity: "error", code: "invalid_env_name", path: "prompts[0].prompt[0].property" },
      { severity: "error", code: "invalid_env_name", path: "prompts[0].variables[0].name" },
    ]);
  });

  it("checks tools-entry env keys, the optional flag and immediate env names", () => {
    const bundle = assetBundle();
    bundle.prompts[0]!.tools = [
      {
        name: "asset_subagent",
        optional: "enable-assets",
        immediate: {
          nameEnv: "asset name",
          descriptionEnv: "DESCRIPTION",
          scopedEnv: ["REPO_TOKEN", "bad-env"],
        },
        env: { "a b": "1" },
      },
    ];
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "tool_entry_field_ignored", path: "prompts[0].tools[0].env" },
      { severity: "error", code: "invalid_env_name", path: 'prompts[0].tools[0].env["a b"]' },
      { severity: "error", code: "invalid_env_name", path: "prompts[0].tools[0].immediate.nameEnv" },
      { severity: "error", code: "invalid_env_name", path: "prompts[0].tools[0].immediate.scopedEnv[1]" },
      { severity: "error", code: "invalid_env_name", path: "prompts[0].tools[0].optional" },
    ]);
  });

  it("checks the env variable of an env header", () => {
    const bundle = chatBundle();
    bundle.tools.push({
      name: "weather",
      description: "Weather.",
      kind: "http",
      method: "GET",
      url: "https://api.example.com/weather",
      headers: { Authorization: { env: "weather token", prefix: "Bearer " } },
    });
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "error", code: "invalid_env_name", path: "tools[0].headers.Authorization.env" },
    ]);
  });
});
