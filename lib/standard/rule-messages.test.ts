// Pins the words of the name, agent, model, tool, prompt and env-name rules (validate-names.ts,
// validate-agents.ts, validate-tool-entries.ts, validate-models.ts, validate-tools.ts, validate-prompts.ts, validate-env-names.ts): each rule's diagnostic as a user reads it — severity,
// code, path and the whole message.
import { describe, expect, it } from "vitest";
import { asJson, assetBundle, chatBundle } from "../../test/support/spec-fixtures";
import type { Bundle } from "./bundle";
import { parseBundle } from "./parse-bundle";

/** The chat (or asset) example changed by `change`, parsed; its diagnostics as `severity code path: message` lines. */
function linesAfter(
  change: (bundle: Bundle & Record<string, unknown>) => void,
  example = chatBundle,
): string[] {
  const bundle = example() as Bundle & Record<string, unknown>;
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

type Prompt = Bundle["prompts"][number];

describe("prompt rule messages", () => {
  it("a model that is not defined, or cannot call the prompt's tools", () => {
    expect(
      linesAfter((bundle) => {
        bundle.prompts[0]!.model = "assistant_modle";
        bundle.models.push({
          name: "no_tools",
          provider: "openai",
          model: "gpt-x",
          capabilities: { functionCalling: false },
        } as Model);
        bundle.prompts.push(
          {
            name: "lister",
            model: "no_tools",
            toolDescription: "Use it.",
            prompt: "List.",
            tools: ["fs_list"],
          } as Prompt,
          {
            name: "talker",
            model: "no_tools",
            toolDescription: "Use it.",
            prompt: "Talk.",
            tools: [],
          } as Prompt,
        );
        bundle.tools.push({
          name: "fs_list",
          description: "List",
          kind: "builtin",
          builtin: "fs_list",
        } as Tool);
      }),
    ).toMatchInlineSnapshot(`
      [
        "error unknown_model prompts[0].model: Prompt "assistant_chat" uses model "assistant_modle" which is not defined. Define a model named "assistant_modle" or pick one of: assistant_model, no_tools.",
        "warning model_lacks_function_calling prompts[1].tools: Prompt "lister" lists tools, but its model "no_tools" declares functionCalling: false, so it cannot call them. Use a model that supports function calling, or remove the tools.",
      ]
    `);
  });

  it("includes that are not defined or form a cycle, variables declared twice, required but undefined", () => {
    expect(
      linesAfter((bundle) => {
        bundle.prompts.push(
          {
            name: "first",
            model: "assistant_model",
            toolDescription: "Use it.",
            prompt: [
              { type: "text", content: "A" },
              { type: "include", prompt: "second" },
              { type: "include", prompt: "nowhere" },
            ],
            variables: [{ name: "topic" }, { name: "topic" }, { name: "tone" }],
          } as Prompt,
          {
            name: "second",
            model: "assistant_model",
            toolDescription: "Use it.",
            prompt: [{ type: "include", prompt: "first" }],
          } as Prompt,
          {
            name: "self",
            model: "assistant_model",
            toolDescription: "Use it.",
            prompt: [{ type: "include", prompt: "self" }],
          } as Prompt,
          {
            name: "shaped",
            model: "assistant_model",
            toolDescription: "Use it.",
            prompt: "Answer.",
            requiredSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a", "b"] },
          } as Prompt,
          {
            name: "unshaped",
            model: "assistant_model",
            toolDescription: "Use it.",
            prompt: "Answer.",
            requiredSchema: { type: "object", properties: {}, required: ["c"] },
          } as Prompt,
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "error include_cycle prompts[1].prompt[1].prompt: Prompt includes form a cycle: first → second → first. Rendering it would never end; remove one of these includes.",
        "error unknown_include prompts[1].prompt[2].prompt: Prompt "first" includes prompt "nowhere" which is not defined. Define a prompt named "nowhere" or pick one of: assistant_chat, first, second, self, shaped, unshaped.",
        "error duplicate_variable prompts[1].variables[1].name: Prompt "first" declares variable "topic" twice. Keep one declaration.",
        "error include_cycle prompts[3].prompt[0].prompt: Prompt includes form a cycle: self → self. Rendering it would never end; remove one of these includes.",
        "warning required_property_not_defined prompts[4].requiredSchema.required[1]: Prompt "shaped"'s requiredSchema requires "b" but does not define it under "properties". Add the property or fix the name (defined: a).",
        "warning required_property_not_defined prompts[5].requiredSchema.required[0]: Prompt "unshaped"'s requiredSchema requires "c" but does not define it under "properties". Add the property or fix the name (defined: none).",
      ]
    `);
  });
});

describe("env name rule messages", () => {
  it("every place a definition names an env variable", () => {
    expect(
      linesAfter((bundle) => {
        bundle.agents[0]!.env = { "MY-VAR": "x", GOOD: "y" };
        bundle.models[0]!.apiKeyEnv = "9KEY";
        bundle.prompts[0]!.env = { "a b": "x" };
        bundle.prompts[0]!.variables = [{ name: "bad.name" }];
        bundle.prompts[0]!.prompt = [{ type: "env", property: "-" }];
        bundle.tools.push(
          httpTool({
            headers: { Authorization: { env: "API KEY", prefix: "Bearer " }, "X-Ok": { env: "OK" } },
          }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "error invalid_env_name agents[0].env["MY-VAR"]: The env key "MY-VAR" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "MY_VAR".",
        "error invalid_env_name models[0].apiKeyEnv: apiKeyEnv "9KEY" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "_9KEY".",
        "error invalid_env_name prompts[0].env["a b"]: The env key "a b" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "a_b".",
        "error invalid_env_name prompts[0].prompt[0].property: The env part's property "-" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "_".",
        "error invalid_env_name prompts[0].variables[0].name: The variable name "bad.name" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "bad_name".",
        "error invalid_env_name tools[0].headers.Authorization.env: The env variable of header "Authorization" "API KEY" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "API_KEY".",
      ]
    `);
  });
});

type Agent = Bundle["agents"][number];

const agent = (overrides: Record<string, unknown>) =>
  ({ name: "pair", sideA: { prompt: "assistant_chat" }, ...overrides }) as Agent;

describe("agent rule messages", () => {
  it("sides that do not match the type, and an exposed agent that cannot answer", () => {
    expect(
      linesAfter((bundle) => {
        bundle.agents.push(
          agent({ name: "lonely", type: "dual_ai" }),
          agent({ name: "human", type: "ai_human", sideB: { prompt: "assistant_chat" } }),
          agent({
            name: "exposed",
            type: "dual_ai",
            maxSessionTurns: 4,
            exposeAsTool: true,
            toolDescription: "  ",
            sideB: { prompt: "assistant_chat" },
          }),
          agent({
            name: "answers",
            type: "dual_ai",
            maxSessionTurns: 4,
            exposeAsTool: true,
            toolDescription: "Answers.",
            sideB: { prompt: "assistant_chat", sessionStop: "finish" },
          }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "warning missing_max_session_turns agents[1].maxSessionTurns: Agent "lonely" is dual_ai without maxSessionTurns, so two AIs could talk forever. Set a cap, e.g. "maxSessionTurns": 20.",
        "error missing_side_b agents[1].sideB: Agent "lonely" is dual_ai, so both sides are AI: add a sideB with the prompt the second AI uses.",
        "error unexpected_side_b agents[2].sideB: Agent "human" is ai_human, where side B is the human. Remove sideB, or set "type": "dual_ai" if both sides should be AI.",
        "warning subagent_without_session_stop agents[3]: Subagent "exposed" can never hand a result back to its parent: neither side has a session stop tool, the tool an AI calls to end the session with its answer, so it only ends at a limit. Pick a session stop tool for one side in the inspector (usually the reviewing side).",
        "warning missing_tool_description agents[3].toolDescription: Agent "exposed" is exposed as a tool but has no toolDescription, so models calling it do not know what it does. Describe what it does and when to call it.",
      ]
    `);
  });

  it("side prompts that are not defined, named by the side's label when it has one", () => {
    expect(
      linesAfter((bundle) => {
        bundle.agents[0]!.sideA.prompt = "assistant_chta";
        bundle.agents.push(
          agent({
            name: "pair",
            type: "dual_ai",
            maxSessionTurns: 2,
            sideA: { prompt: "assistant_chat", sessionStop: "finish" },
            sideB: { prompt: "reviewer" },
          }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "error unknown_prompt agents[0].sideA.prompt: Agent "assistant" side A ("Assistant") uses prompt "assistant_chta" which is not defined. Define a prompt named "assistant_chta" or pick one of: assistant_chat.",
        "error unknown_prompt agents[1].sideB.prompt: Agent "pair" side B uses prompt "reviewer" which is not defined. Define a prompt named "reviewer" or pick one of: assistant_chat.",
      ]
    `);
  });

  it("sides that cannot stop, or stop on a tool their prompt cannot call", () => {
    expect(
      linesAfter((bundle) => {
        bundle.tools.push(httpTool({ name: "done" }));
        bundle.prompts.push({
          name: "with_done",
          model: "assistant_model",
          toolDescription: "Use it.",
          prompt: "Go.",
          tools: ["done"],
        } as Prompt);
        bundle.agents.push(
          agent({ name: "a1", sideA: { prompt: "assistant_chat", stopToolResponseProperty: "answer" } }),
          agent({ name: "a2", sideA: { prompt: "assistant_chat", label: "Bot", stopOnResponse: false } }),
          agent({ name: "a3", sideA: { prompt: "assistant_chat", stopTool: "done" } }),
          agent({ name: "a4", sideA: { prompt: "with_done", stopTool: "done" } }),
          agent({
            name: "a5",
            sideA: { prompt: "assistant_chat", stopTool: "finish", sessionStop: "finish" },
          }),
          agent({ name: "a6", sideA: { prompt: "missing", stopTool: "done" } }),
          agent({ name: "a7", sideA: { prompt: "assistant_chat", stopOnResponse: false, maxSteps: 3 } }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "warning stop_tool_response_property_without_stop_tool agents[1].sideA.stopToolResponseProperty: Agent "a1" side A sets stopToolResponseProperty but no stopTool, so it is never used. Set stopTool or remove it.",
        "warning side_cannot_stop agents[2].sideA.stopOnResponse: Agent "a2" side A ("Bot") has stopOnResponse false and no stopTool, sessionStop, sessionFail or maxSteps, so its turn only ends at the runtime's safety limit. Add a stopTool or a maxSteps.",
        "error stop_tool_not_callable agents[3].sideA.stopTool: Agent "a3" side A stops when "done" is called, but its prompt "assistant_chat" cannot call it. Add "done" to prompt "assistant_chat"'s tools, or bind it as one of this side's session tools.",
        "error unknown_prompt agents[6].sideA.prompt: Agent "a6" side A uses prompt "missing" which is not defined. Define a prompt named "missing" or pick one of: assistant_chat, with_done.",
      ]
    `);
  });

  it("session tools bound twice, or reading arguments their tool does not declare", () => {
    expect(
      linesAfter((bundle) => {
        bundle.tools.push(
          httpTool({ name: "report", args: { type: "object", properties: { summary: { type: "string" } } } }),
          httpTool({ name: "bare" }),
          httpTool({
            name: "messaged",
            args: { type: "object", properties: { message: { type: "string" } } },
          }),
          { name: "fs_read", description: "Read", kind: "builtin", builtin: "fs_read" } as Tool,
        );
        bundle.agents.push(
          agent({
            name: "b1",
            sideA: { prompt: "assistant_chat", sessionStop: "finish", sessionFail: "finish" },
          }),
          agent({
            name: "b2",
            sideA: {
              prompt: "assistant_chat",
              sessionStop: { name: "report", messageProperty: "text", attachmentsProperty: "files" },
            },
          }),
          agent({ name: "b3", sideA: { prompt: "assistant_chat", sessionStop: "report" } }),
          agent({
            name: "b4",
            sideA: { prompt: "assistant_chat", sessionFail: { name: "bare", messageProperty: "why" } },
          }),
          agent({
            name: "b5",
            sideA: {
              prompt: "assistant_chat",
              sessionStop: "messaged",
              sessionStatus: { name: "fs_read", messageProperty: "x" },
            },
          }),
          agent({
            name: "b6",
            sideA: { prompt: "assistant_chat", sessionStop: { name: "report", messageProperty: "summary" } },
          }),
        );
      }),
    ).toMatchInlineSnapshot(`
      [
        "error conflicting_session_bindings agents[1].sideA.sessionFail: Agent "b1" side A binds "finish" as both sessionStop and sessionFail, so calling it would both end and continue the session. Use a separate tool for each.",
        "error binding_property_not_in_tool_args agents[2].sideA.sessionStop.attachmentsProperty: Agent "b2" side A sessionStop reads argument "files" of tool "report", but that tool's args do not define "files". Set attachmentsProperty to one of: summary, or add "files" to the tool's args.",
        "error binding_property_not_in_tool_args agents[2].sideA.sessionStop.messageProperty: Agent "b2" side A sessionStop reads argument "text" of tool "report", but that tool's args do not define "text". Set messageProperty to one of: summary, or add "text" to the tool's args.",
        "warning binding_default_property_missing agents[3].sideA.sessionStop: Agent "b3" side A sessionStop reads the message from argument "message" by default, but tool "report" has no such argument. Set messageProperty to one of: summary.",
        "error binding_property_not_in_tool_args agents[4].sideA.sessionFail.messageProperty: Agent "b4" side A sessionFail reads argument "why" of tool "bare", but that tool's args do not define "why". Set messageProperty to an argument it declares (it declares none), or add "why" to the tool's args.",
      ]
    `);
  });
});

describe("name rule messages", () => {
  it("duplicate names within a kind, and one name shared by a tool, a prompt and an agent", () => {
    expect(
      linesAfter((bundle) => {
        bundle.models.push(model({ name: "assistant_model" }), model({ name: "assistant_model" }));
        bundle.tools.push(httpTool({ name: "assistant" }), httpTool({ name: "assistant" }));
        bundle.prompts.push({
          name: "assistant",
          model: "assistant_model",
          toolDescription: "Use it.",
          prompt: "Hi.",
        } as Prompt);
      }),
    ).toMatchInlineSnapshot(`
      [
        "error callable_name_conflict agents[0].name: The agent "assistant" has the same name as a tool and a prompt. Tools, prompts and agents are all called by name, so rename one of them.",
        "error duplicate_name models[1].name: Two models are named "assistant_model" (models[0] and models[1]). Rename one: names must be unique.",
        "error duplicate_name models[2].name: Two models are named "assistant_model" (models[0] and models[2]). Rename one: names must be unique.",
        "error callable_name_conflict prompts[1].name: The prompt "assistant" has the same name as a tool and an agent. Tools, prompts and agents are all called by name, so rename one of them.",
        "error callable_name_conflict tools[0].name: The tool "assistant" has the same name as a prompt and an agent. Tools, prompts and agents are all called by name, so rename one of them.",
        "error duplicate_name tools[1].name: Two tools are named "assistant" (tools[0] and tools[1]). Rename one: names must be unique.",
      ]
    `);
  });

  it("reserved names, and names models cannot call", () => {
    expect(
      linesAfter((bundle) => {
        bundle.tools.push(
          httpTool({ name: "subagent_create" }),
          httpTool({ name: " Fetch Item! " }),
          httpTool({ name: "***" }),
          httpTool({ name: `${"long".repeat(16)}_tail` }),
        );
        bundle.agents[0]!.sideA = {
          prompt: "assistant_chat",
          stopTool: "stop now",
          sessionStop: "end it",
          sessionFail: { name: "give up" },
        };
        bundle.models.push(model({ name: "my model/v2" }));
      }),
    ).toMatchInlineSnapshot(`
      [
        "error invalid_name agents[0].sideA.sessionFail.name: The sessionFail tool name "give up" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "give_up".",
        "error invalid_name agents[0].sideA.sessionStop: The sessionStop tool name "end it" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "end_it".",
        "error invalid_name agents[0].sideA.stopTool: The stopTool name "stop now" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "stop_now".",
        "error stop_tool_not_callable agents[0].sideA.stopTool: Agent "assistant" side A stops when "stop now" is called, but its prompt "assistant_chat" cannot call it. Add "stop now" to prompt "assistant_chat"'s tools, or bind it as one of this side's session tools.",
        "error invalid_name models[1].name: Model name "my model/v2" must be made of letters, digits, "_", "-" or "." (it becomes a file name on export). Rename it, e.g. "my_model_v2".",
        "error reserved_name tools[0].name: "subagent_create" is a lifecycle tool the runtime provides for resumable subagents. Give this tool another name.",
        "error invalid_name tools[1].name: Tool name " Fetch Item! " is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "fetch_item".",
        "error invalid_name tools[2].name: Tool name "***" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "my_tool".",
        "error invalid_name tools[3].name: Tool name "longlonglonglonglonglonglonglonglonglonglonglonglonglonglonglong_tail" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "longlonglonglonglonglonglonglonglonglonglonglonglonglonglonglong".",
      ]
    `);
  });

  it("hook ids that are not snake_case", () => {
    expect(
      linesAfter((bundle) => {
        bundle.agents[0]!.hooks = ["beforeStep", "ok_hook", "9-lives", "__"];
        bundle.prompts[0]!.hooks = ["Audit Log_"];
      }),
    ).toMatchInlineSnapshot(`
      [
        "error invalid_hook_id agents[0].hooks[0]: Hook id "beforeStep" must be snake_case (lowercase letters, digits and "_", starting with a letter), e.g. "before_step".",
        "error invalid_hook_id agents[0].hooks[2]: Hook id "9-lives" must be snake_case (lowercase letters, digits and "_", starting with a letter), e.g. "lives".",
        "error invalid_hook_id agents[0].hooks[3]: Hook id "__" must be snake_case (lowercase letters, digits and "_", starting with a letter), e.g. "my_hook".",
        "error invalid_hook_id prompts[0].hooks[0]: Hook id "Audit Log_" must be snake_case (lowercase letters, digits and "_", starting with a letter), e.g. "audit_log".",
      ]
    `);
  });
});

describe("prompt tools entry rule messages", () => {
  type Entry = NonNullable<Prompt["tools"]>[number];
  const withEntries = (...entries: Entry[]) =>
    linesAfter((bundle) => {
      bundle.prompts.find((prompt) => prompt.name === "orchestrator_chat")!.tools = entries;
    }, assetBundle);

  it("entries that name nothing callable, a lifecycle tool, an agent not exposed, or twice the same", () => {
    expect(
      withEntries("read_fil", "subagent_message", "orchestrator", "read_file", { name: "read_file" }),
    ).toMatchInlineSnapshot(`
      [
        "error unknown_tool_reference prompts[0].tools[0]: Prompt "orchestrator_chat" lists tool "read_fil", which is not a tool, prompt or agent of this project. Define a tool, prompt or agent named "read_fil" or pick one of: asset_reviewer, asset_style_guide, asset_subagent, asset_worker, list_files, orchestrator, orchestrator_chat, read_file, write_file.",
        "error reserved_tool_reference prompts[0].tools[1]: Prompt "orchestrator_chat" lists "subagent_message", a lifecycle tool the runtime adds by itself to prompts with resumable subagents. Remove it from tools.",
        "error agent_not_exposed prompts[0].tools[2]: Prompt "orchestrator_chat" calls agent "orchestrator" as a handoff, but that agent is not exposed as a tool. Set "exposeAsTool": true on agent "orchestrator" (and give it a toolDescription).",
        "error duplicate_tool_entry prompts[0].tools[4].name: Prompt "orchestrator_chat" lists "read_file" more than once; models reject duplicate tool names. Keep one entry.",
      ]
    `);
  });

  it("subagent options and other fields on targets they mean nothing to", () => {
    expect(
      withEntries(
        { name: "read_file", blocking: true, includeErrors: true },
        {
          name: "asset_style_guide",
          resumable: { receives_messages: "side_a", maxInstances: 2 },
          options: { a: 1 },
          blocking: false,
        },
        { name: "asset_subagent", options: { a: 1 }, tenvs: { A: "b" } } as Entry,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error subagent_config_on_non_subagent prompts[0].tools[0].blocking: Prompt "orchestrator_chat" tools entry "read_file" sets subagent options "blocking", but "read_file" is a tool. Only dual_ai agents run as subagents; remove them.",
        "warning tool_entry_field_ignored prompts[0].tools[0].includeErrors: Prompt "orchestrator_chat" tools entry "read_file" sets "includeErrors", which has no effect because "read_file" is a tool. Remove it.",
        "error subagent_config_on_non_subagent prompts[0].tools[1].blocking: Prompt "orchestrator_chat" tools entry "asset_style_guide" sets subagent options "blocking" and "resumable", but "asset_style_guide" is a prompt (run as a sub-prompt). Only dual_ai agents run as subagents; remove them.",
        "warning tool_entry_field_ignored prompts[0].tools[1].options: Prompt "orchestrator_chat" tools entry "asset_style_guide" sets "options", which has no effect because "asset_style_guide" is a prompt (run as a sub-prompt). Remove it.",
        "warning deprecated_property prompts[0].tools[2].tenvs: Prompt "orchestrator_chat" in "tools[2]": "tenvs" is deprecated. It was renamed "env" (string values). Move the values to "env".",
        "warning tool_entry_field_ignored prompts[0].tools[2].tenvs: Prompt "orchestrator_chat" tools entry "asset_subagent" sets "tenvs" and "options", which have no effect because "asset_subagent" is a dual_ai agent (run as a subagent). Remove them.",
      ]
    `);
  });

  it("init properties the target's requiredSchema does not ask for, and resumable limits", () => {
    expect(
      withEntries(
        {
          name: "asset_subagent",
          initUserMessageProperty: "brif",
          initAttachmentsProperty: "references",
          initAgentNameProperty: "nam",
          resumable: { maxInstances: 0, receives_messages: "side_b" },
        } as Entry,
        { name: "asset_style_guide", initUserMessageProperty: "topic" },
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning init_property_not_in_schema prompts[0].tools[0].initAgentNameProperty: Prompt "orchestrator_chat" tools entry "asset_subagent" maps initAgentNameProperty from argument "nam", but the requiredSchema of prompt "asset_worker" (side A of agent "asset_subagent") has no property "nam" (it has: brief, asset_name, references). Add it, or pick one it has.",
        "warning init_property_not_in_schema prompts[0].tools[0].initUserMessageProperty: Prompt "orchestrator_chat" tools entry "asset_subagent" maps initUserMessageProperty from argument "brif", but the requiredSchema of prompt "asset_worker" (side A of agent "asset_subagent") has no property "brif" (it has: brief, asset_name, references). Add it, or pick one it has.",
        "error invalid_max_instances prompts[0].tools[0].resumable.maxInstances: Prompt "orchestrator_chat" tools entry "asset_subagent" allows 0 resumable instances, so none could ever be created. Set maxInstances to 1 or more, or leave it out for no cap.",
        "warning init_property_not_in_schema prompts[0].tools[1].initUserMessageProperty: Prompt "orchestrator_chat" tools entry "asset_style_guide" maps initUserMessageProperty from argument "topic", but prompt "asset_style_guide" declares no requiredSchema, so the calling model is never asked for "topic". Add a requiredSchema with a "topic" property.",
      ]
    `);
  });
});
