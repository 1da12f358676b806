import { describe, expect, it } from "vitest";
import { asJson, assetBundle, chatBundle, summarize } from "../../test/support/spec-fixtures";
import { parseBundle } from "./parse-bundle";

describe("parseBundle", () => {
  it.each([null, 42, "bundle", [], undefined])("rejects %j as a bundle", (input) => {
    expect(parseBundle(input)).toStrictEqual({
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "invalid_bundle",
          path: "",
          message:
            'A definitions bundle must be a JSON object like { "agents": [], "prompts": [], "models": [], "tools": [] }.',
        },
      ],
    });
  });

  it("defaults every missing collection to []", () => {
    expect(parseBundle({})).toEqual({
      ok: true,
      bundle: { agents: [], prompts: [], models: [], tools: [] },
      diagnostics: [],
    });
  });

  it("reports a collection that is not an array", () => {
    const result = parseBundle({ agents: {} });
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "error", code: "invalid_type", path: "agents" },
    ]);
  });

  it("reports missing required properties with their path and the definition they belong to", () => {
    const result = parseBundle({ agents: [{ name: "helper", sideA: {} }] });
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toEqual([
      {
        severity: "error",
        code: "missing_property",
        path: "agents[0].sideA.prompt",
        message: 'Agent "helper": required property "sideA.prompt" is missing. Add it.',
        entity: { kind: "agent", name: "helper" },
      },
    ]);
  });

  it("reports wrong types, bad enum values and out-of-range numbers", () => {
    const input = asJson(chatBundle()) as { agents: Array<Record<string, unknown>> };
    Object.assign(input.agents[0]!, { type: "solo", maxSessionTurns: 0, exposeAsTool: "yes" });
    const result = parseBundle(input);
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "error", code: "invalid_type", path: "agents[0].exposeAsTool" },
      { severity: "error", code: "out_of_range", path: "agents[0].maxSessionTurns" },
      { severity: "error", code: "invalid_value", path: "agents[0].type" },
    ]);
    expect(result.diagnostics[0]?.message).toBe(
      'Agent "assistant": "exposeAsTool" must be true or false, not the string "yes".',
    );
    expect(result.diagnostics[2]?.message).toBe(
      'Agent "assistant": "type" is "solo"; it must be one of "ai_human", "dual_ai".',
    );
  });

  it("explains a session binding of the wrong shape, and errors inside the object form", () => {
    const input = asJson(chatBundle()) as { agents: Array<{ sideA: Record<string, unknown> }> };
    input.agents[0]!.sideA.sessionStop = 5;
    input.agents[0]!.sideA.sessionFail = { messageProperty: "reason" };
    const result = parseBundle(input);
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "error", code: "missing_property", path: "agents[0].sideA.sessionFail.name" },
      { severity: "error", code: "invalid_type", path: "agents[0].sideA.sessionStop" },
    ]);
    expect(result.diagnostics[1]?.message).toContain("must be a string or an object, not number 5");
  });

  it("reports an unknown tool kind and bad prompt part types at the discriminator", () => {
    const input = asJson(chatBundle()) as Record<string, Array<Record<string, unknown>>>;
    input.tools = [{ name: "run", description: "Run code", kind: "shell" }];
    input.prompts![0]!.prompt = [{ type: "variable", value: "x" }];
    expect(summarize(parseBundle(input).diagnostics)).toEqual([
      { severity: "error", code: "invalid_value", path: "prompts[0].prompt[0].type" },
      { severity: "error", code: "invalid_value", path: "tools[0].kind" },
    ]);
  });

  it("turns format, emptiness and refinement failures into coded diagnostics", () => {
    const input = {
      agents: [{ name: "", sideA: { prompt: "p", maxSteps: 2.5 } }],
      models: [
        { name: "local", provider: "openai-compatible", model: "llama3", baseURL: "localhost:11434" },
        { name: "scripted", provider: "scripted", model: "scripted", script: [{ delayMs: 5 }] },
      ],
      tools: [{ name: "invoice", description: " ", kind: "code", module: "../billing.js" }],
    };
    const result = parseBundle(input);
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "error", code: "empty_value", path: "agents[0].name" },
      { severity: "error", code: "invalid_type", path: "agents[0].sideA.maxSteps" },
      { severity: "error", code: "invalid_format", path: "models[0].baseURL" },
      { severity: "error", code: "empty_script_step", path: "models[1].script[0]" },
      { severity: "error", code: "empty_value", path: "tools[0].description" },
      { severity: "error", code: "invalid_format", path: "tools[0].module" },
    ]);
    const messages = result.diagnostics.map((diagnostic) => diagnostic.message);
    // A definition's empty name is said without its path, which means nothing on the canvas.
    expect(messages[0]).toBe("This agent has no name: give it one.");
    expect(messages[1]).toBe('agents[0]: "sideA.maxSteps" must be an integer, not number 2.5.');
    expect(messages[2]).toContain('"baseURL" must be an http(s) URL');
    expect(messages[5]).toContain("Definitions never hold code.");
  });

  it("strips unknown properties with a warning that suggests the intended name", () => {
    const input = asJson(chatBundle()) as { agents: Array<{ sideA: Record<string, unknown> }> };
    input.agents[0]!.sideA.stopOnRespone = false;
    const result = parseBundle(input);
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([
      {
        severity: "warning",
        code: "unknown_property",
        path: "agents[0].sideA.stopOnRespone",
        message:
          'Agent "assistant" in "sideA": unknown property "stopOnRespone" was ignored. Did you mean "stopOnResponse"?',
        entity: { kind: "agent", name: "assistant" },
      },
    ]);
    expect(result.bundle?.agents[0]?.sideA).toEqual({ label: "Assistant", prompt: "assistant_chat" });
  });

  it("finds unknown properties at every depth, including where the shape is otherwise invalid", () => {
    const input = asJson(assetBundle()) as Record<string, Array<Record<string, unknown>>>;
    input.unknownTop = [];
    (input.prompts![0]!.tools as Array<Record<string, unknown>>)[0]!.blockng = false;
    (input.models![0]!.script as Array<Record<string, unknown>>)[0]!.txt = "hi";
    input.tools!.push({
      name: "weather",
      description: "Weather",
      kind: "http",
      method: "GET",
      url: "https://x.test",
      headers: { Authorization: { env: "TOKEN", prefx: "Bearer " } },
    });
    input.agents![0]!.sidea = {};
    const result = parseBundle(input);
    expect(
      summarize(result.diagnostics.filter((diagnostic) => diagnostic.code === "unknown_property")),
    ).toEqual([
      { severity: "warning", code: "unknown_property", path: "agents[0].sidea" },
      { severity: "warning", code: "unknown_property", path: "models[0].script[0].txt" },
      { severity: "warning", code: "unknown_property", path: "prompts[0].tools[0].blockng" },
      { severity: "warning", code: "unknown_property", path: "tools[3].headers.Authorization.prefx" },
      { severity: "warning", code: "unknown_property", path: "unknownTop" },
    ]);
  });

  it("does not report JSON Schema keywords, provider options or tool-call args as unknown", () => {
    const bundle = assetBundle();
    bundle.prompts[3]!.requiredSchema = {
      type: "object",
      additionalProperties: false,
      $defs: {},
      properties: {},
    };
    bundle.models[0]!.providerOptions = { anything: { nested: true } };
    expect(parseBundle(asJson(bundle))).toMatchObject({ ok: true, diagnostics: [] });
  });

  it("makes a secret-looking property anywhere an error, not a warning", () => {
    const input = asJson(chatBundle()) as Record<string, Array<Record<string, unknown>>>;
    input.agents![0]!.password = "hunter2";
    input.models![0]!.apiKey = "sk-live";
    const result = parseBundle(input);
    expect(result.ok).toBe(false);
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "error", code: "literal_secret", path: "agents[0].password" },
      { severity: "error", code: "literal_secret", path: "models[0].apiKey" },
    ]);
    expect(result.diagnostics[1]?.message).toContain('"apiKeyEnv"');
  });

  it("normalises deprecated binding aliases and warns about them", () => {
    const input = asJson(chatBundle()) as { agents: Array<{ sideA: Record<string, unknown> }> };
    input.agents[0]!.sideA.endSessionTool = { name: "finish", messageProperty: "summary" };
    const result = parseBundle(input);
    expect(result.ok).toBe(true);
    expect(result.bundle?.agents[0]?.sideA.sessionStop).toEqual({
      name: "finish",
      messageProperty: "summary",
    });
    expect(result.bundle?.agents[0]?.sideA).not.toHaveProperty("endSessionTool");
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "warning", code: "deprecated_property", path: "agents[0].sideA.endSessionTool" },
    ]);
    expect(result.diagnostics[0]?.message).toContain('Rename it to "sessionStop"');
  });

  it("rejects an alias next to its current name as conflicting_alias", () => {
    const input = asJson(chatBundle()) as { agents: Array<{ sideA: Record<string, unknown> }> };
    input.agents[0]!.sideA.failSessionTool = "give_up";
    input.agents[0]!.sideA.sessionFail = "fail";
    const result = parseBundle(input);
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "error", code: "conflicting_alias", path: "agents[0].sideA.failSessionTool" },
      { severity: "warning", code: "deprecated_property", path: "agents[0].sideA.failSessionTool" },
    ]);
  });

  it("warns about deprecated prompt exposeAsTool and tools-entry tenvs but keeps them", () => {
    const input = asJson(assetBundle()) as { prompts: Array<Record<string, unknown>> };
    input.prompts[3]!.exposeAsTool = true;
    input.prompts[1]!.tools = ["write_file", { name: "list_files", tenvs: { ROOT: "/" } }];
    const result = parseBundle(input);
    expect(result.ok).toBe(true);
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "warning", code: "deprecated_property", path: "prompts[1].tools[1].tenvs" },
      { severity: "warning", code: "deprecated_property", path: "prompts[3].exposeAsTool" },
    ]);
    expect(result.bundle?.prompts[3]?.exposeAsTool).toBe(true);
  });

  it("runs the cross-reference rules and still returns the parsed bundle when they find errors", () => {
    const bundle = chatBundle();
    bundle.prompts[0]!.model = "gpt5";
    const result = parseBundle(asJson(bundle));
    expect(result.ok).toBe(false);
    expect(result.bundle).toEqual(bundle);
    expect(summarize(result.diagnostics)).toEqual([
      { severity: "error", code: "unknown_model", path: "prompts[0].model" },
    ]);
  });

  it("keeps what the user wrote: no defaults are added to the stored form", () => {
    const result = parseBundle(asJson(chatBundle()));
    expect(result.bundle?.agents[0]).toEqual({
      name: "assistant",
      title: "Assistant",
      description: "A helpful chat assistant.",
      sideA: { label: "Assistant", prompt: "assistant_chat" },
    });
    expect(result.bundle?.prompts[0]).not.toHaveProperty("toolChoice");
  });

  it("returns diagnostics sorted by path", () => {
    const bundle = assetBundle();
    bundle.prompts[2]!.model = "missing";
    bundle.agents[1]!.sideA.prompt = "missing";
    delete bundle.agents[1]!.maxSessionTurns;
    const paths = parseBundle(asJson(bundle)).diagnostics.map((diagnostic) => diagnostic.path);
    expect(paths).toEqual(["agents[1].maxSessionTurns", "agents[1].sideA.prompt", "prompts[2].model"]);
  });
});
