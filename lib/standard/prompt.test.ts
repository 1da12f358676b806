import { describe, expect, it } from "vitest";
import {
  PromptContentSchema,
  PromptDefinitionSchema,
  promptIncludes,
  VariableDefinitionSchema,
} from "./prompt";

const minimalPrompt = { name: "chat", toolDescription: "Chat", prompt: "Be nice.", model: "fast" };

describe("PromptDefinition", () => {
  it("requires name, toolDescription, prompt and model", () => {
    for (const key of ["name", "toolDescription", "prompt", "model"] as const) {
      const { [key]: _removed, ...rest } = minimalPrompt;
      expect(PromptDefinitionSchema.safeParse(rest).success, key).toBe(false);
    }
  });

  it("keeps the stored form minimal (no defaults written)", () => {
    expect(PromptDefinitionSchema.parse(minimalPrompt)).toEqual(minimalPrompt);
  });

  it("accepts every optional 0.1.0 property, and the deprecated exposeAsTool", () => {
    const prompt = {
      ...minimalPrompt,
      includeChat: true,
      includePastTools: true,
      parallelToolCalls: true,
      toolChoice: "required",
      requiredSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      tools: ["search", { name: "summarise", includeErrors: false }],
      variables: [
        { name: "API_TOKEN" },
        { name: "REGION", description: "Where", required: false, type: "text" },
      ],
      env: { REGION: "eu" },
      reasoning: { effort: "high", maxTokens: 2000, include: true, exclude: false },
      recentImageThreshold: 0,
      hooks: ["filter_noise"],
      exposeAsTool: true,
    };
    expect(PromptDefinitionSchema.parse(prompt)).toEqual(prompt);
  });

  it("rejects an unknown toolChoice, a negative recentImageThreshold and an unknown reasoning effort", () => {
    expect(PromptDefinitionSchema.safeParse({ ...minimalPrompt, toolChoice: "any" }).success).toBe(false);
    expect(PromptDefinitionSchema.safeParse({ ...minimalPrompt, recentImageThreshold: -1 }).success).toBe(
      false,
    );
    expect(PromptDefinitionSchema.safeParse({ ...minimalPrompt, reasoning: { effort: "max" } }).success).toBe(
      false,
    );
  });

  it("accepts any JSON Schema object as requiredSchema, keeping unknown keywords", () => {
    const requiredSchema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      additionalProperties: false,
    };
    expect(PromptDefinitionSchema.parse({ ...minimalPrompt, requiredSchema }).requiredSchema).toEqual(
      requiredSchema,
    );
  });

  it("rejects a requiredSchema that describes something other than an object", () => {
    const result = PromptDefinitionSchema.safeParse({ ...minimalPrompt, requiredSchema: { type: "string" } });
    expect(result.error?.issues[0]?.path).toEqual(["requiredSchema", "type"]);
  });
});

describe("PromptContent", () => {
  it("accepts a string and an array of text, include and env parts", () => {
    expect(PromptContentSchema.parse("Hello")).toBe("Hello");
    const parts = [
      { type: "text", content: "You are helpful.\n" },
      { type: "include", prompt: "common_rules" },
      { type: "env", property: "COMPANY_NAME" },
    ];
    expect(PromptContentSchema.parse(parts)).toEqual(parts);
  });

  it("rejects parts of an unknown type or missing their field", () => {
    expect(PromptContentSchema.safeParse([{ type: "variable", value: "x" }]).success).toBe(false);
    expect(PromptContentSchema.safeParse([{ type: "include" }]).success).toBe(false);
  });

  it("lists the include parts with their positions", () => {
    const prompt = PromptDefinitionSchema.parse({
      ...minimalPrompt,
      prompt: [
        { type: "text", content: "a" },
        { type: "include", prompt: "x" },
        { type: "include", prompt: "y" },
      ],
    });
    expect(promptIncludes(prompt)).toEqual([
      { partIndex: 1, target: "x" },
      { partIndex: 2, target: "y" },
    ]);
    expect(promptIncludes(PromptDefinitionSchema.parse(minimalPrompt))).toEqual([]);
  });
});

describe("VariableDefinition", () => {
  it("accepts name with optional description, required and type text|secret", () => {
    expect(VariableDefinitionSchema.parse({ name: "TOKEN" })).toEqual({ name: "TOKEN" });
    expect(VariableDefinitionSchema.safeParse({ name: "TOKEN", type: "password" }).success).toBe(false);
  });
});
