// Pins the words of the model and tool rules (validate-models.ts, validate-tools.ts): each rule's
// diagnostic as a user reads it — severity, code, path and the whole message.
import { describe, expect, it } from "vitest";
import { asJson, chatBundle } from "../../test/support/spec-fixtures";
import type { Bundle } from "./bundle";
import { parseBundle } from "./parse-bundle";

/** The chat example changed by `change`, parsed; its diagnostics as `severity code path: message` lines. */
function linesAfter(change: (bundle: Bundle & Record<string, unknown>) => void): string[] {
  const bundle = chatBundle() as Bundle & Record<string, unknown>;
  change(bundle);
  return parseBundle(asJson(bundle)).diagnostics.map(
    (diagnostic) => `${diagnostic.severity} ${diagnostic.code} ${diagnostic.path}: ${diagnostic.message}`,
  );
}

type Model = Bundle["models"][number];
type Tool = Bundle["tools"][number];

const model = (overrides: Record<string, unknown>) =>
  ({ name: "backup", provider: "openai", model: "gpt-x", ...overrides }) as Model;
const httpTool = (overrides: Record<string, unknown>) =>
  ({
    name: "fetch_item",
    description: "Fetch an item",
    kind: "http",
    method: "GET",
    url: "https://api.test/items",
    ...overrides,
  }) as Tool;

describe("model rule messages", () => {
  it("fallbacks: itself, twice, or a model that is not defined", () => {
    expect(
      linesAfter((bundle) => {
        bundle.models[0]!.fallbacks = ["assistant_model", "missing", "missing"];
        bundle.models.push(model({ name: "backup" }), model({ name: "other" }));
      }),
    ).toMatchInlineSnapshot(`
      [
        "warning fallback_self_reference models[0].fallbacks[0]: Model "assistant_model" lists itself as a fallback, which only retries the model that just failed. Remove it or name another model.",
        "error unknown_fallback_model models[0].fallbacks[1]: Model "assistant_model" falls back to model "missing" which is not defined. Define a model named "missing" or pick one of: backup, other.",
        "warning duplicate_fallback models[0].fallbacks[2]: Model "assistant_model" lists fallback "missing" twice; it would be tried twice. Remove the repeat.",
      ]
    `);
  });

  it("a fallback to an undefined model when there is no other model", () => {
    expect(
      linesAfter((bundle) => {
        bundle.models[0]!.fallbacks = ["assistant_modl"];
      }),
    ).toMatchInlineSnapshot(`
      [
        "error unknown_fallback_model models[0].fallbacks[0]: Model "assistant_model" falls back to model "assistant_modl" which is not defined. Define a model named "assistant_modl".",
      ]
    `);
  });

  it("fallback cycles", () => {
    expect(
      linesAfter((bundle) => {
        bundle.models[0]!.fallbacks = ["backup"];
        bundle.models.push(
          model({ name: "backup", fallbacks: ["third"] }),
          model({ name: "third", fallbacks: ["assistant_model"] }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "warning fallback_cycle models[0].fallbacks[0]: Model fallbacks form a cycle: assistant_model → backup → third → assistant_model. Fallbacks are tried in order from the failing model, so a cycle only retries models that already failed. Break the cycle.",
      ]
    `);
  });

  it("what each provider needs", () => {
    expect(
      linesAfter((bundle) => {
        bundle.models.push(
          model({ name: "local", provider: "openai-compatible", model: "llama" }),
          model({ name: "played", provider: "scripted", model: "scripted" }),
          model({
            name: "empty_loop",
            provider: "scripted",
            model: "scripted",
            script: [],
            scriptLoopFrom: 0,
          }),
          model({
            name: "short_loop",
            provider: "scripted",
            model: "scripted",
            script: [{ text: "a" }, { text: "b" }],
            scriptLoopFrom: 2,
          }),
          model({
            name: "fine_loop",
            provider: "scripted",
            model: "scripted",
            script: [{ text: "a" }, { text: "b" }],
            scriptLoopFrom: 1,
          }),
          model({ name: "real", script: [{ text: "a" }], scriptLoopFrom: 0 }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "error missing_base_url models[1].baseURL: Model "local" uses the openai-compatible provider, which needs to know where the API is. Set "baseURL", e.g. "http://localhost:11434/v1".",
        "error missing_script models[2].script: Model "played" uses the scripted provider but has no script. Add "script": [{ "text": "..." }] with one step per model call.",
        "error script_loop_out_of_range models[3].scriptLoopFrom: Model "empty_loop" loops its script from step 0, but the script is empty. Add steps to "script" or remove "scriptLoopFrom".",
        "error script_loop_out_of_range models[4].scriptLoopFrom: Model "short_loop" loops its script from step 2, but the script's steps are numbered 0 to 1. Set "scriptLoopFrom" to a step between 0 and 1.",
        "warning script_ignored models[6].script: Model "real" has a script, but only the scripted provider plays scripts (this one uses "openai"). Remove the script or set "provider": "scripted".",
        "warning script_ignored models[6].scriptLoopFrom: Model "real" loops a script, but only the scripted provider plays scripts (this one uses "openai"). Remove "scriptLoopFrom" or set "provider": "scripted".",
      ]
    `);
  });
});

describe("tool rule messages", () => {
  it("URL placeholders without an argument, with other arguments or none", () => {
    expect(
      linesAfter((bundle) => {
        bundle.tools.push(
          httpTool({
            url: "https://api.test/items/{id}/{id}",
            args: { type: "object", properties: { item: { type: "string" }, kind: { type: "string" } } },
          }),
          httpTool({ name: "bare", url: "https://api.test/{id}" }),
          httpTool({
            name: "fine",
            url: "https://api.test/{id}",
            args: { type: "object", properties: { id: { type: "string" } } },
          }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "error unknown_url_placeholder tools[0].url: Tool "fetch_item" URL uses {id}, but its args define no "id". Use one of: item, kind, or add "id" to the tool's args.",
        "error unknown_url_placeholder tools[1].url: Tool "bare" URL uses {id}, but its args define no "id". Add "id" to the tool's args.",
      ]
    `);
  });

  it("URLs that are not absolute http(s) URLs", () => {
    expect(
      linesAfter((bundle) => {
        bundle.tools.push(
          httpTool({ name: "ftp", url: "ftp://files.test/a" }),
          httpTool({ name: "relative", url: "/items" }),
          httpTool({
            name: "plain",
            url: "http://api.test/{x}",
            args: { type: "object", properties: { x: { type: "string" } } },
          }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "error invalid_url tools[0].url: Tool "ftp" URL "ftp://files.test/a" is not an absolute http(s) URL. Write it like "https://api.example.com/items/{id}".",
        "error invalid_url tools[1].url: Tool "relative" URL "/items" is not an absolute http(s) URL. Write it like "https://api.example.com/items/{id}".",
      ]
    `);
  });

  it("literal credentials in headers, and headers that are fine", () => {
    expect(
      linesAfter((bundle) => {
        bundle.tools.push(
          httpTool({
            headers: { Authorization: "Bearer abc", "X-Trace": "on", "X-Api-Key": { env: "API_KEY" } },
          }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "error literal_secret_header tools[0].headers.Authorization: Tool "fetch_item" header "Authorization" carries a literal credential, and definitions are stored and exported in plain text. Read it from an env variable instead: { "env": "MY_API_TOKEN", "prefix": "Bearer " }.",
      ]
    `);
  });

  it("args of a built-in tool, and required args that are not defined", () => {
    expect(
      linesAfter((bundle) => {
        bundle.tools.push(
          {
            name: "clock",
            description: "Time",
            kind: "builtin",
            builtin: "fs_read",
            args: { type: "object", properties: {} },
          } as unknown as Tool,
          httpTool({ args: { type: "object", properties: { a: { type: "string" } }, required: ["a", "b"] } }),
          httpTool({ name: "none_defined", args: { type: "object", properties: {}, required: ["c"] } }),
          httpTool({ name: "no_properties", args: { type: "object", required: ["d"] } }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "warning builtin_args_ignored tools[0].args: Tool "clock" is the built-in fs_read, whose arguments are fixed by the runtime, so these args are ignored. Remove them.",
        "warning required_property_not_defined tools[1].args.required[1]: Tool "fetch_item" args require "b" but do not define it under "properties". Add the property or fix the name (defined: a).",
        "warning required_property_not_defined tools[2].args.required[0]: Tool "none_defined" args require "c" but do not define it under "properties". Add the property or fix the name (defined: none).",
      ]
    `);
  });
});
