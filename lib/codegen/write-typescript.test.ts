// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests feed "${" to the reader and writer on purpose.
import { describe, expect, it } from "vitest";
import { type Bundle, minimalChatBundle } from "@/lib/standard";
import { printCode } from "./code-printer";
import { jsonSchemaToZodCode } from "./json-schema-to-zod";
import { bundleToTypeScript } from "./write-typescript";

const zod = (schema: unknown) => {
  const code = jsonSchemaToZodCode(schema);
  return code === undefined ? undefined : printCode(code, 0, 0, 0);
};

describe("jsonSchemaToZodCode", () => {
  it("writes the schemas a z chain says exactly", () => {
    expect(
      zod({
        type: "object",
        properties: { query: { type: "string", description: "Search query" }, limit: { type: "integer" } },
        required: ["query"],
      }),
    ).toBe('z.object({ query: z.string().describe("Search query"), limit: z.int().optional() })');
    expect(
      zod({
        type: "object",
        properties: {
          mode: { type: "string", enum: ["fast", "deep"] },
          tags: { type: "array", items: { type: "boolean" } },
        },
        required: ["mode", "tags"],
      }),
    ).toBe('z.object({ mode: z.enum(["fast", "deep"]), tags: z.array(z.boolean()) })');
    expect(zod({ type: "object", properties: {} })).toBe("z.object({})");
    expect(zod({ type: "object", properties: { n: { type: "null" } }, description: "None" })).toBe(
      'z.object({ n: z.null().optional() }).describe("None")',
    );
  });

  it("gives up (so the schema is written as a literal) on anything a z chain would change", () => {
    expect(zod({ type: "object", properties: { a: { type: "string" } }, required: [] })).toBeUndefined();
    expect(
      zod({
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        required: ["b", "a"],
      }),
    ).toBeUndefined();
    expect(zod({ type: "object" })).toBeUndefined();
    expect(zod({ type: "object", properties: { a: { type: "string", minLength: 1 } } })).toBeUndefined();
    expect(zod({ type: "object", properties: { a: true } })).toBeUndefined();
    expect(zod({ type: "object", properties: {}, additionalProperties: false })).toBeUndefined();
    expect(zod({ type: "array" })).toBeUndefined();
    expect(zod({ type: "string", enum: ["a", "a"] })).toBeUndefined();
  });
});

describe("bundleToTypeScript", () => {
  it("imports only the define* functions it uses, and zod only for z schemas", () => {
    const source = bundleToTypeScript(minimalChatBundle);
    expect(source).toContain(
      'import { defineAgent, defineModel, definePrompt } from "@standardagents/spec";',
    );
    expect(source).not.toContain("zod");
    expect(source).toMatch(
      /export default \{\n {2}agents: \[assistant\],\n {2}prompts: \[assistant_chat\],\n {2}models: \[assistant_model\],\n {2}tools: \[\],\n\};\n$/,
    );
  });

  it("binds names that are not identifiers, are reserved or repeat across kinds to unique identifiers", () => {
    const bundle: Bundle = {
      agents: [{ name: "default", sideA: { prompt: "my-prompt" } }],
      prompts: [{ name: "my-prompt", toolDescription: "t", prompt: "p", model: "my-prompt" }],
      models: [{ name: "my-prompt", provider: "scripted", model: "scripted", script: [{ text: "x" }] }],
      tools: [],
    };
    const source = bundleToTypeScript(bundle);
    expect(source).toContain("export const default_agent = defineAgent({");
    expect(source).toContain("export const my_prompt = definePrompt({");
    expect(source).toContain("export const my_prompt_model = defineModel({");
  });

  it("writes multi-line text as template literals with `, ${ and \\ escaped, and never a literal secret", () => {
    const bundle: Bundle = {
      agents: [],
      prompts: [
        { name: "p", toolDescription: "t", prompt: "Line one\nUse `code` and ${x} \\ here", model: "m" },
      ],
      models: [{ name: "m", provider: "openai", model: "gpt-4.1", apiKeyEnv: "OPENAI_API_KEY" }],
      tools: [],
    };
    const source = bundleToTypeScript(bundle);
    expect(source).toContain("prompt: `Line one\nUse \\`code\\` and \\${x} \\\\ here`,");
    expect(source).toContain('apiKeyEnv: "OPENAI_API_KEY"');
    expect(source).not.toMatch(/apiKey:|sk-/);
  });
});
