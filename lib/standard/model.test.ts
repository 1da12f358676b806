import { describe, expect, it } from "vitest";
import {
  credentialVariable,
  DEFAULT_API_KEY_ENV,
  ModelDefinitionSchema,
  resolveApiKeyEnv,
  ScriptStepSchema,
} from "./model";

const openaiModel = { name: "fast", provider: "openai", model: "gpt-5-mini" };

describe("ModelDefinition", () => {
  it("accepts every JSON-form property, exactly as written", () => {
    const model = {
      ...openaiModel,
      baseURL: "https://gateway.example.com/v1",
      apiKeyEnv: "GATEWAY_KEY",
      fallbacks: ["smart"],
      includedProviders: ["azure"],
      inputPrice: 0.25,
      outputPrice: 2,
      cachedPrice: 0,
      capabilities: {
        vision: true,
        functionCalling: true,
        structuredOutputs: false,
        maxContextTokens: 400000,
        maxOutputTokens: 128000,
      },
      providerOptions: { service_tier: "flex" },
      providerTools: ["web_search"],
    };
    expect(ModelDefinitionSchema.parse(model)).toEqual(model);
  });

  it("accepts the four providers and nothing else", () => {
    for (const provider of ["openai", "anthropic", "openai-compatible", "scripted"]) {
      expect(ModelDefinitionSchema.safeParse({ ...openaiModel, provider }).success, provider).toBe(true);
    }
    expect(ModelDefinitionSchema.safeParse({ ...openaiModel, provider: "google" }).success).toBe(false);
  });

  it("rejects negative prices and a baseURL that is not http(s)", () => {
    expect(ModelDefinitionSchema.safeParse({ ...openaiModel, inputPrice: -1 }).success).toBe(false);
    expect(ModelDefinitionSchema.safeParse({ ...openaiModel, baseURL: "ftp://example.com" }).success).toBe(
      false,
    );
  });

  it.each(["apiKey", "api_key", "secret", "token", "password"])(
    "rejects a literal %s and points to apiKeyEnv",
    (field) => {
      const result = ModelDefinitionSchema.safeParse({ ...openaiModel, [field]: "sk-live-123" });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({
          path: [field],
          params: { code: "literal_secret" },
          message: expect.stringContaining("apiKeyEnv"),
        }),
      ]);
    },
  );

  it("rejects secret-looking keys inside providerOptions", () => {
    const result = ModelDefinitionSchema.safeParse({ ...openaiModel, providerOptions: { api_key: "sk" } });
    expect(result.error?.issues[0]).toMatchObject({ path: ["providerOptions", "api_key"] });
  });
});

describe("scripted provider script", () => {
  it("accepts text, tool calls, delays and errors", () => {
    const script = [
      { text: "Here is the draft: {{input}}" },
      { toolCalls: [{ name: "approve_asset", args: { summary: "ok" } }] },
      { text: "thinking...", delayMs: 300 },
      { error: "simulated provider failure" },
    ];
    const model = { name: "worker_model", provider: "scripted", model: "scripted", script };
    expect(ModelDefinitionSchema.parse(model)).toEqual(model);
  });

  it("rejects a step with none of text, toolCalls or error", () => {
    const result = ScriptStepSchema.safeParse({ delayMs: 10 });
    expect(result.error?.issues[0]).toMatchObject({ params: { code: "empty_script_step" } });
  });

  it("rejects negative delays and tool calls without object args", () => {
    expect(ScriptStepSchema.safeParse({ text: "x", delayMs: -1 }).success).toBe(false);
    expect(ScriptStepSchema.safeParse({ toolCalls: [{ name: "x", args: "y" }] }).success).toBe(false);
  });
});

describe("resolveApiKeyEnv", () => {
  it("uses the written name, else the provider's usual variable, and none for scripted", () => {
    const parse = (model: object) => ModelDefinitionSchema.parse(model);
    expect(resolveApiKeyEnv(parse({ ...openaiModel, apiKeyEnv: "MY_KEY" }))).toBe("MY_KEY");
    expect(resolveApiKeyEnv(parse(openaiModel))).toBe("OPENAI_API_KEY");
    expect(resolveApiKeyEnv(parse({ ...openaiModel, provider: "anthropic" }))).toBe("ANTHROPIC_API_KEY");
    expect(resolveApiKeyEnv(parse({ ...openaiModel, provider: "openai-compatible" }))).toBeUndefined();
    expect(resolveApiKeyEnv(parse({ ...openaiModel, provider: "scripted", apiKeyEnv: "X" }))).toBeUndefined();
  });
});

describe("model credentials", () => {
  it("a named credential wins over apiKeyEnv and is read from its own variable", () => {
    const model = ModelDefinitionSchema.parse({
      ...openaiModel,
      apiKeyEnv: "MY_KEY",
      apiKeyCredential: "openai",
    });
    expect(resolveApiKeyEnv(model)).toBe("tandem-credential:openai");
    expect(credentialVariable("team key")).toBe("tandem-credential:team key");
    expect(
      resolveApiKeyEnv(
        ModelDefinitionSchema.parse({ ...openaiModel, provider: "scripted", apiKeyCredential: "x" }),
      ),
    ).toBeUndefined();
  });

  it("the usual variables are those of OpenAI and Anthropic only", () => {
    expect(DEFAULT_API_KEY_ENV).toStrictEqual({ openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" });
  });
});
