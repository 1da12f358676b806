// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests feed "${" to the reader and writer on purpose.
import { describe, expect, it } from "vitest";
import { typeScriptToBundle } from "./read-typescript";

const IMPORTS =
  'import { defineAgent, definePrompt, defineModel, defineTool } from "@standardagents/spec";\nimport { z } from "zod";\n';

function read(body: string) {
  return typeScriptToBundle(IMPORTS + body);
}

function errorsOf(result: ReturnType<typeof typeScriptToBundle>) {
  return result.diagnostics
    .filter((diagnostic) => diagnostic.severity === "error")
    .map(({ code, path, line, column }) => ({ code, path, line, column }));
}

const model =
  'export const m = defineModel({ name: "m", provider: "scripted", model: "scripted", script: [{ text: "hi" }] });\n';
const prompt =
  'export const p = definePrompt({ name: "p", toolDescription: "Chat", prompt: "Be brief.", model: "m" });\n';
const agent = 'export const a = defineAgent({ name: "a", sideA: { prompt: "p" } });\n';

describe("typeScriptToBundle", () => {
  it("reads define* declarations in source order when there is no default export", () => {
    const result = read(agent + prompt + model);
    expect(result.diagnostics).toEqual([]);
    expect(result.bundle).toEqual({
      agents: [{ name: "a", sideA: { prompt: "p" } }],
      prompts: [{ name: "p", toolDescription: "Chat", prompt: "Be brief.", model: "m" }],
      models: [{ name: "m", provider: "scripted", model: "scripted", script: [{ text: "hi" }] }],
      tools: [],
    });
  });

  it("takes membership and order from the default export and warns about declarations it leaves out", () => {
    const second =
      'export const q = definePrompt({ name: "q", toolDescription: "Other", prompt: "x", model: "m" });\n';
    const result = read(
      `${agent}${prompt}${second}${model}export default { agents: [a], prompts: [q, p], models: [m] };\n`,
    );
    expect(result.bundle?.prompts.map((entry) => entry.name)).toEqual(["q", "p"]);
    const unlisted = read(
      `${agent}${prompt}${second}${model}export default { agents: [a], prompts: [p], models: [m] };\n`,
    );
    expect(unlisted.ok).toBe(true);
    expect(unlisted.bundle?.prompts.map((entry) => entry.name)).toEqual(["p"]);
    expect(unlisted.diagnostics).toEqual([
      expect.objectContaining({ severity: "warning", code: "unlisted_definition", line: 5, column: 18 }),
    ]);
  });

  it("maps z chains back to JSON Schema, with optional properties left out of required", () => {
    const result = read(
      `export const p = definePrompt({ name: "p", toolDescription: "t", prompt: "x", model: "m", requiredSchema: z.object({
  q: z.string().describe("Query"),
  n: z.int().optional(),
  tags: z.array(z.enum(["a", "b"])).describe("Tags").optional(),
}) });\n`,
    );
    expect(errorsOf(result).filter((error) => error.code !== "unknown_model")).toEqual([]);
    expect(result.bundle?.prompts[0]?.requiredSchema).toEqual({
      type: "object",
      properties: {
        q: { type: "string", description: "Query" },
        n: { type: "integer" },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, description: "Tags" },
      },
      required: ["q"],
    });
  });

  it("accepts a JSON Schema object literal where a z chain has no exact form", () => {
    const result = read(
      `${model}export const t = defineTool({ name: "t", kind: "code", module: "t", description: "Does t.", args: { type: "object", properties: { email: { type: "string", format: "email" } } } });\n`,
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.bundle?.tools[0]?.args).toEqual({
      type: "object",
      properties: { email: { type: "string", format: "email" } },
    });
  });

  it("reports a syntax error at its line and column and reads nothing", () => {
    const result = read(
      'export const a = defineAgent({ name: "a", sideA: { prompt: "p" }, run: () => 1 });\n',
    );
    expect(result.ok).toBe(false);
    expect(result.bundle).toBeUndefined();
    expect(errorsOf(result)).toEqual([{ code: "syntax_error", path: "", line: 3, column: 72 }]);
  });

  it("refuses template substitutions, unknown names, calls and unsupported z methods with their positions", () => {
    expect(errorsOf(read("export const a = defineAgent({ name: `a${x}` });\n"))).toEqual([
      { code: "syntax_error", path: "", line: 3, column: 40 },
    ]);
    const result = read(
      [
        'export const a = defineAgent({ name: NAME, sideA: { prompt: load("p") } });',
        'export const t = defineTool({ name: "t", kind: "code", module: "t", description: "d", args: z.object({ s: z.string().min(2) }) });',
        'export const t2 = defineTool({ name: "t2", kind: "code", module: "t", description: "d", args: z.string().optional() });',
      ].join("\n"),
    );
    expect(result.bundle).toBeUndefined();
    expect(errorsOf(result)).toEqual([
      { code: "unknown_identifier", path: "agents[0].name", line: 3, column: 38 },
      { code: "unsupported_syntax", path: "agents[0].sideA.prompt", line: 3, column: 61 },
      { code: "unsupported_schema", path: "tools[0].args.properties.s", line: 4, column: 118 },
      { code: "unsupported_schema", path: "tools[1].args", line: 5, column: 106 },
    ]);
  });

  it("refuses imports from other modules, define* it does not know, and definitions listed under the wrong kind", () => {
    const foreign = typeScriptToBundle(
      'import fs from "node:fs";\nimport { defineHook } from "@standardagents/spec";\n',
    );
    expect(errorsOf(foreign).map((error) => [error.code, error.line])).toEqual([
      ["unsupported_import", 1],
      ["unsupported_import", 2],
    ]);
    const misplaced = read(
      `${agent}${prompt}${model}export default { agents: [p], prompts: [a], models: [m] };\n`,
    );
    expect(errorsOf(misplaced).map((error) => [error.code, error.path])).toEqual([
      ["wrong_definition_kind", "agents[0]"],
      ["wrong_definition_kind", "prompts[0]"],
    ]);
  });

  it("places bundle validation problems at the line that wrote the value and keeps the bundle", () => {
    const result = read(`${model}export const p = definePrompt({
  name: "p",
  toolDescription: "Chat",
  prompt: "x",
  model: "missing_model",
});\n`);
    expect(result.ok).toBe(false);
    expect(result.bundle?.prompts[0]?.model).toBe("missing_model");
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: "unknown_model", path: "prompts[0].model", line: 8, column: 10 }),
    );
  });

  it("never runs the source: calls to anything but define* and z are refused, not executed", () => {
    const marker = "__tandem_codegen_marker__";
    const result = read(
      `export const a = defineAgent({ name: globalThis.${marker}(), sideA: { prompt: "p" } });\n`,
    );
    expect(result.ok).toBe(false);
    expect(Reflect.has(globalThis, marker)).toBe(false);
    expect(errorsOf(result)[0]?.code).toBe("unsupported_syntax");
  });

  it("decodes string escapes and template literals exactly, and refuses duplicated keys", () => {
    const result = read(
      'export const m = defineModel({ name: "m", provider: "scripted", model: \'s\\u{1F3A8}\\x41\\n\', script: [{ text: `a\\`b\\${c}\r\nd` }] });\n',
    );
    expect(result.bundle?.models[0]).toMatchObject({ model: "s🎨A\n", script: [{ text: "a`b${c}\nd" }] });
    const duplicated = read(
      'export const a = defineAgent({ name: "a", name: "b", sideA: { prompt: "p" } });\n',
    );
    expect(errorsOf(duplicated)).toEqual([
      { code: "duplicate_property", path: "agents[0].name", line: 3, column: 43 },
    ]);
  });
});

describe("keys that name Object.prototype's own properties", () => {
  it('reads a "__proto__" key as an own property, refused as forbidden_property on its line, never as a prototype', () => {
    const result = read(
      `${model}export const p = definePrompt({ name: "p", toolDescription: "Chat", prompt: "x", model: "m",\n  env: { "__proto__": { polluted: "yes" } } });\n${agent}`,
    );
    expect(result.ok).toBe(false);
    expect(errorsOf(result)).toEqual([
      { code: "forbidden_property", path: "prompts[0].env.__proto__", line: 5, column: 23 },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses "__proto__" written as a property of a zod object schema too', () => {
    const result = read(
      `${model}${agent}export const p = definePrompt({ name: "p", toolDescription: "t", prompt: "x", model: "m",\n  requiredSchema: z.object({ __proto__: z.string() }) });\n`,
    );
    expect(errorsOf(result)).toEqual([
      expect.objectContaining({
        code: "forbidden_property",
        path: "prompts[0].requiredSchema.properties.__proto__",
      }),
    ]);
  });

  it('keeps "constructor" and "prototype" keys as ordinary data', () => {
    const result = read(
      `${model}${agent}export const p = definePrompt({ name: "p", toolDescription: "t", prompt: "x", model: "m",\n  env: { constructor: "a", prototype: "b" } });\n`,
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.bundle?.prompts[0]?.env).toEqual({ constructor: "a", prototype: "b" });
  });
});
